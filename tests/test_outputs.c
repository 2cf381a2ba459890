/* tests/test_outputs.c: a run's outputs appear together or not at all
 * (util/outset.h), standard output that cannot be written fails the run,
 * and an output directory never mixes two runs' files. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/helpers.h"

#ifndef WARPSCOPE_BIN
#define WARPSCOPE_BIN "build/asan/warpscope"
#endif

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* Runs warpscope with stdout on /dev/full; returns the exit status and
 * stderr (in *err, malloc'd). */
static int run_to_full_disk(const char *const *args, char **err)
{
    char err_path[] = "/tmp/ws-outputs-err-XXXXXX";
    int err_fd = mkstemp(err_path);
    cr_assert_geq(err_fd, 0);
    pid_t pid = fork();
    if (pid == 0) {
        int full = open("/dev/full", O_WRONLY);
        dup2(full, 1);
        dup2(err_fd, 2);
        const char *argv[16] = {WARPSCOPE_BIN};
        for (int i = 0; args[i] && i < 14; i++)
            argv[i + 1] = args[i];
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    close(err_fd);
    *err = test_read_file(err_path, NULL);
    unlink(err_path);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Test(outputs, a_full_standard_output_fails_every_command_in_one_line)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *json = test_path(dir, "r.json");
    cli_result made = cli_run("analyze", trace, "-o", json, NULL);
    cr_assert_eq(made.status, 0, "%s", made.err);
    cli_result_free(&made);
    const char *runs[][4] = {
        {"dump", trace, NULL}, {"info", trace, NULL},     {"analyze", trace, NULL},
        {"replay", trace, NULL}, {"report", json, NULL},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        char *err = NULL;
        int status = run_to_full_disk(runs[i], &err);
        cr_expect_eq(status, 1, "%s: exit %d: %s", runs[i][0], status, err);
        cr_expect(test_is_one_line(err), "%s: %s", runs[i][0], err);
        cr_expect(strstr(err, "standard output: write failed: No space left on device") != NULL,
                  "%s: %s", runs[i][0], err);
        free(err);
    }
    free(json);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* diff's statuses are diff(1)'s: a failed write is an error, 2, whether
 * the traces agree (0) or differ (1). */
Test(outputs, a_full_standard_output_fails_diff_with_status_2)
{
    char *dir = test_tmpdir();
    char *a = test_record_trace(dir, "gemm"), *b = test_record_trace(dir, "atax");
    const char *runs[][4] = {{"diff", a, a, NULL}, {"diff", a, b, NULL}};
    for (size_t i = 0; i < 2; i++) {
        char *err = NULL;
        cr_expect_eq(run_to_full_disk(runs[i], &err), 2, "%s", err);
        cr_expect(test_is_one_line(err), "%s", err);
        cr_expect(strstr(err, "standard output: write failed: No space left on device") != NULL,
                  "%s", err);
        free(err);
    }
    free(a);
    free(b);
    test_tmpdir_cleanup(dir);
}

Test(outputs, analyze_writes_its_json_only_with_its_html)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *json = test_path(dir, "r.json"), *html = test_path(dir, "missing/r.html");
    cli_result r = cli_run("analyze", trace, "-o", json, "--html", html, NULL);
    cr_assert_eq(r.status, 1, "%s", r.err);
    cr_assert(strstr(r.err, "missing/r.html: cannot create output") != NULL, "%s", r.err);
    cr_assert_not(exists(json), "r.json must not outlive its failed HTML");
    cli_result_free(&r);
    free(json);
    free(html);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* A second profile into the same directory removes the files the first
 * listed and did not write again, keeps files warpscope did not write, and
 * lists its own. */
Test(outputs, an_output_directory_never_mixes_two_runs)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *out = test_path(dir, "p");
    cli_result first = cli_run("profile", trace, "-o", out, "--quiet", NULL);
    cr_assert_eq(first.status, 0, "%s", first.err);
    cli_result_free(&first);
    char *manifest = test_path(out, ".warpscope-outputs");
    char *listed = test_read_file(manifest, NULL);
    cr_assert_not_null(listed);
    cr_assert(strstr(listed, "report.json\n") != NULL, "%s", listed);
    cr_assert(strstr(listed, "report.html\n") != NULL, "%s", listed);
    /* As if an earlier version had written one more table. */
    char *stale = test_path(out, "old_table.csv"), *mine = test_path(out, "notes.txt");
    test_write_file(stale, "x\n", 2);
    test_write_file(mine, "keep\n", 5);
    FILE *f = fopen(manifest, "a");
    fputs("old_table.csv\n../escape.txt\n", f);
    fclose(f);
    cli_result second = cli_run("profile", trace, "-o", out, "--quiet", NULL);
    cr_assert_eq(second.status, 0, "%s", second.err);
    cr_expect_not(exists(stale), "the earlier run's table is gone");
    cr_expect(exists(mine), "a file warpscope did not write is kept");
    char *relisted = test_read_file(manifest, NULL);
    cr_expect_str_eq(relisted, listed, "the list names this run's files");
    cli_result_free(&second);
    free(relisted);
    free(listed);
    free(stale);
    free(mine);
    free(manifest);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}
