/* tests/test_examples.c: the examples of docs/examples run on the output of
 * a profile of a recorded trace: the jq one when jq is installed, the
 * pandas one when python3 can import pandas; skipped otherwise. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "tests/helpers.h"

/* docs/examples, found from the fixtures' absolute path (tests/fixtures). */
static char *examples_dir(void)
{
    return test_path(test_fixture_dir(), "../../docs/examples");
}

/* Runs a shell command; its exit status, and stdout and stderr in *out. */
static int run_shell(const char *command, char **out)
{
    char *full = NULL;
    cr_assert(asprintf(&full, "%s 2>&1", command) > 0);
    FILE *p = popen(full, "r");
    cr_assert_not_null(p, "%s", full);
    size_t cap = 4096, len = 0, n;
    char *buf = malloc(cap);
    while ((n = fread(buf + len, 1, cap - len - 1, p)) > 0)
        if ((len += n) + 1 == cap)
            buf = realloc(buf, cap *= 2);
    buf[len] = '\0';
    int status = pclose(p);
    free(full);
    *out = buf;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

static int available(const char *probe)
{
    char *ignored;
    int rc = run_shell(probe, &ignored);
    free(ignored);
    return rc == 0;
}

/* A profile of a small gemm, its report directory in dir/report. */
static char *profile(const char *dir)
{
    char *trace = test_record_trace(dir, "gemm"), *out = test_path(dir, "report");
    cli_result r = cli_run("profile", trace, "--gpu", "fermi", "-o", out, "--trials", "2", "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    free(trace);
    return out;
}

/* Runs an example on a fresh profile: the command's format takes the
 * examples directory, then the report directory.  Its output; it must exit
 * with 0. */
static char *run_example(const char *format)
{
    char *dir = test_tmpdir(), *report = profile(dir), *examples = examples_dir();
    char *command = NULL, *out;
    cr_assert(asprintf(&command, format, examples, report) > 0);
    int rc = run_shell(command, &out);
    cr_expect_eq(rc, 0, "%s: %s", command, out);
    free(command);
    free(examples);
    free(report);
    test_tmpdir_cleanup(dir);
    return out;
}

Test(examples, hit_rates_sh_reads_report_json)
{
    if (!available("command -v jq"))
        cr_skip_test("jq is not installed");
    char *out = run_example("sh '%s/hit_rates.sh' '%s/report.json'");
    cr_expect(strstr(out, "L1 lru: ") && strstr(out, "hit rate 0."), "%s", out);
    cr_expect(strstr(out, "0\tgemm_kernel\t0.") != NULL, "a kernel's hit rate: %s", out);
    cr_expect(strstr(out, "gemm_kernel\t0x1c020\tLDG.E") != NULL, "a PC in hex: %s", out);
    cr_expect(strstr(out, "\n2\t3\t") != NULL, "a bucket's bounds: %s", out);
    cr_expect(strstr(out, "\nopt\t") != NULL, "the comparison: %s", out);
    free(out);
}

Test(examples, pcs_by_kernel_py_joins_the_tables)
{
    if (!available("python3 -c 'import pandas'"))
        cr_skip_test("python3 cannot import pandas");
    char *out = run_example("python3 '%s/pcs_by_kernel.py' '%s'");
    cr_expect(strstr(out, "L1 hit rate per kernel launch") != NULL, "%s", out);
    cr_expect(strstr(out, "gemm_kernel") && strstr(out, "0x1c020"), "%s", out);
    cr_expect(strstr(out, "traffic_change_bytes") != NULL, "the hints joined: %s", out);
    cr_expect(strstr(out, "229248") != NULL, "a tested PC's traffic change: %s", out);
    free(out);
}
