/* tests/helpers.c: running the CLI and handling scratch files in tests. */
#include "tests/helpers.h"

#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The CLI's text fits $COLUMNS (reports/term.h): the tests compare text
 * at the default 80 columns whatever the shell running them exported; a
 * test of the width sets COLUMNS itself. */
ReportHook(PRE_ALL)(struct criterion_test_set *tests)
{
    (void)tests;
    unsetenv("COLUMNS");
}

#ifndef WARPSCOPE_BIN
#define WARPSCOPE_BIN "build/asan/warpscope"
#endif
#ifndef WARPSCOPE_REL_BIN
#define WARPSCOPE_REL_BIN "build/rel/warpscope"
#endif
#ifndef WARPSCOPE_FIXTURES
#define WARPSCOPE_FIXTURES "tests/fixtures"
#endif

const char *test_fixture_dir(void) { return WARPSCOPE_FIXTURES; }

static char *slurp_fd(int fd)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    ssize_t n;
    while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (cap - len < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    buf[len] = '\0';
    return buf;
}

/* Runs bin with the arguments from arg on; address_space > 0 caps the
 * child's (RLIMIT_AS) and keeps malloc to one arena, so that the cap
 * measures the heap, not how many arenas the threads happened to make
 * (64 MiB of address space each). */
static cli_result run_binary(const char *bin, size_t address_space, const char *arg, va_list ap)
{
    const char *argv[64];
    int argc = 0;
    argv[argc++] = bin;
    for (const char *a = arg; a && argc < 63; a = va_arg(ap, const char *))
        argv[argc++] = a;
    argv[argc] = NULL;

    /* Output goes to temporary files, not pipes, so a chatty child can never
     * block on a full pipe while we wait for it. */
    char out_name[] = "/tmp/ws-test-out-XXXXXX", err_name[] = "/tmp/ws-test-err-XXXXXX";
    int out_fd = mkstemp(out_name), err_fd = mkstemp(err_name);
    unlink(out_name);
    unlink(err_name);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out_fd, 1);
        dup2(err_fd, 2);
        int null_fd = open("/dev/null", O_RDONLY);
        dup2(null_fd, 0);
        alarm(300); /* a hang guard only: an ASan sweep on a loaded 2-core machine takes 90 s */
        setenv("ASAN_OPTIONS", "detect_leaks=1", 1);
        if (address_space) {
            struct rlimit cap = {address_space, address_space};
            setenv("MALLOC_ARENA_MAX", "1", 1);
            setrlimit(RLIMIT_AS, &cap);
        }
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    cli_result r;
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    lseek(out_fd, 0, SEEK_SET);
    lseek(err_fd, 0, SEEK_SET);
    r.out = slurp_fd(out_fd);
    r.err = slurp_fd(err_fd);
    close(out_fd);
    close(err_fd);
    return r;
}

cli_result cli_run(const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    cli_result r = run_binary(WARPSCOPE_BIN, 0, arg, ap);
    va_end(ap);
    return r;
}

cli_result cli_run_capped(size_t address_space, const char *arg, ...)
{
    va_list ap;
    va_start(ap, arg);
    cli_result r = run_binary(WARPSCOPE_REL_BIN, address_space, arg, ap);
    va_end(ap);
    return r;
}

void cli_result_free(cli_result *r)
{
    free(r->out);
    free(r->err);
    r->out = r->err = NULL;
}

char *test_tmpdir(void)
{
    char *dir = strdup("/tmp/ws-test-XXXXXX");
    return mkdtemp(dir) ? dir : NULL;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    return remove(path);
}

void test_tmpdir_cleanup(char *dir)
{
    if (dir)
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
}

char *test_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)size + 1);
    size_t got = fread(buf, 1, (size_t)size, f);
    fclose(f);
    buf[got] = '\0';
    if (len)
        *len = got;
    return buf;
}

int test_write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    size_t put = fwrite(data, 1, len, f);
    return fclose(f) == 0 && put == len ? 0 : -1;
}

char *test_record_trace(const char *dir, const char *workload)
{
    char name[128];
    snprintf(name, sizeof name, "%s.wst", workload);
    char *trace = test_path(dir, name);
    cli_result r = cli_run("record", "--workload", workload, "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "record %s: %s", workload, r.err);
    cli_result_free(&r);
    return trace;
}

char *test_import_accelsim(const char *dir, const char *app)
{
    char name[128], src[4096];
    snprintf(name, sizeof name, "%s.wst", app);
    snprintf(src, sizeof src, "%s/accelsim/%s/kernelslist.g", test_fixture_dir(), app);
    char *trace = test_path(dir, name);
    cli_result r = cli_run("import", "accelsim", src, "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "import %s: %s", app, r.err);
    cli_result_free(&r);
    return trace;
}

int test_is_one_line(const char *text)
{
    const char *nl = strchr(text, '\n');
    return nl && nl[1] == '\0';
}

json_t *test_load_json(const char *path)
{
    json_error_t jerr;
    json_t *doc = json_load_file(path, 0, &jerr);
    cr_assert_not_null(doc, "%s: %s", path, jerr.text);
    return doc;
}

char *test_read_output(const char *dir, const char *name)
{
    char *path = test_path(dir, name);
    size_t len;
    char *text = test_read_file(path, &len);
    free(path);
    cr_assert_not_null(text, "%s was not written", name);
    return text;
}

long long test_hist_count(const json_t *hist, size_t bucket)
{
    if (!json_is_array(json_array_get(hist, 0))) /* dense, or empty */
        return json_integer_value(json_array_get(hist, bucket));
    size_t i;
    json_t *pair;
    json_array_foreach(hist, i, pair)
        if ((size_t)json_integer_value(json_array_get(pair, 0)) == bucket)
            return json_integer_value(json_array_get(pair, 1));
    return 0;
}
