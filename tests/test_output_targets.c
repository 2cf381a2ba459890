/* tests/test_output_targets.c: what an output may replace (issue 42, item
 * 1; README, "Outputs").  A device or a FIFO is written in place and stays
 * a node; a symbolic link is refused and stays a link; an input of the run
 * is never an output; a reader that goes away (a closed pipe) leaves no
 * temporary and no directory behind.  Every node is made by the test in
 * its own directory under /tmp. */
#include <criterion/criterion.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/helpers.h"

#ifndef WARPSCOPE_BIN
#define WARPSCOPE_BIN "build/asan/warpscope"
#endif

static mode_t kind_of(const char *path)
{
    struct stat st;
    cr_assert_eq(lstat(path, &st), 0, "%s is gone", path);
    return st.st_mode & S_IFMT;
}

/* A child that reads the FIFO at path to its end; returns its pid.  The
 * bytes read are written to count_path as text. */
static pid_t drain_fifo(const char *path, const char *count_path)
{
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        int fd = open(path, O_RDONLY);
        char buf[65536], first = 0;
        long long total = 0;
        for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0; total += n)
            if (!total)
                first = buf[0];
        FILE *f = fopen(count_path, "w");
        fprintf(f, "%lld %c", total, first ? first : '-');
        fclose(f);
        _exit(0);
    }
    return pid;
}

Test(output_targets, a_fifo_output_is_written_in_place_and_stays_a_fifo)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *fifo = test_path(dir, "report.fifo"), *count = test_path(dir, "count");
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    pid_t reader = drain_fifo(fifo, count);
    cli_result r = cli_run("analyze", trace, "-o", fifo, NULL);
    mode_t kind = kind_of(fifo);
    /* A reader still waiting for a writer (the run wrote elsewhere) would
     * wait for ever: a writer that opens and closes ends it. */
    int unblock = kind == S_IFIFO ? open(fifo, O_WRONLY | O_NONBLOCK) : -1;
    if (unblock >= 0)
        close(unblock);
    if (kind != S_IFIFO)
        kill(reader, SIGKILL); /* its FIFO is gone: nothing will ever write to it */
    int status;
    waitpid(reader, &status, 0);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_eq(kind, S_IFIFO, "the FIFO was replaced");
    char *got = test_read_file(count, NULL);
    long long bytes = 0;
    char first = 0;
    if (got)
        sscanf(got, "%lld %c", &bytes, &first);
    cr_expect(bytes > 0 && first == '{', "the reader got the JSON report: %s", got);
    cli_result_free(&r);
    free(got);
    free(count);
    free(fifo);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* A character device like /dev/null, made by the test (needs root or
 * CAP_MKNOD; skipped without). */
Test(output_targets, a_device_output_is_written_in_place_and_stays_a_device)
{
    char *dir = test_tmpdir();
    char *node = test_path(dir, "null");
    if (mknod(node, S_IFCHR | 0666, makedev(1, 3)) != 0) {
        free(node);
        test_tmpdir_cleanup(dir);
        cr_skip_test("cannot make a device node here");
    }
    char *trace = test_record_trace(dir, "gaussian");
    const char *runs[][6] = {{"analyze", trace, "-o", node, NULL},
                             {"record", "--workload", "gaussian", "-o", node, NULL}};
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        cli_result r = cli_run(runs[i][0], runs[i][1], runs[i][2], runs[i][3], runs[i][4], NULL);
        cr_expect_eq(r.status, 0, "%s: %s", runs[i][0], r.err);
        cr_expect_eq(kind_of(node), S_IFCHR, "%s replaced the device node", runs[i][0]);
        cli_result_free(&r);
    }
    free(trace);
    free(node);
    test_tmpdir_cleanup(dir);
}

Test(output_targets, a_symbolic_link_output_is_refused_and_stays_a_link)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *target = test_path(dir, "notes.txt"), *symlinked = test_path(dir, "report.json");
    test_write_file(target, "mine\n", 5);
    cr_assert_eq(symlink("notes.txt", symlinked), 0);
    cli_result r = cli_run("analyze", trace, "-o", symlinked, NULL);
    cr_expect_neq(r.status, 0);
    cr_expect(test_is_one_line(r.err) && strstr(r.err, "symbolic link"), "%s", r.err);
    cr_expect_eq(kind_of(symlinked), S_IFLNK, "the link was replaced");
    char *kept = test_read_file(target, NULL);
    cr_expect_str_eq(kept, "mine\n");
    cli_result_free(&r);
    free(kept);
    free(symlinked);
    free(target);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Every command that reads a trace and writes a file refuses to write it
 * over the trace, naming both, and leaves the trace as it was. */
Test(output_targets, no_command_writes_over_its_input_trace)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *second = test_path(dir, "same.wst");
    cr_assert_eq(link(trace, second), 0); /* a second name for the same file */
    size_t before_len;
    char *before = test_read_file(trace, &before_len);
    const char *runs[][6] = {
        {"analyze", trace, "-o", trace, NULL},      {"replay", trace, "-o", trace, NULL},
        {"compare", trace, "-o", trace, NULL},      {"sweep", trace, "-o", trace, NULL},
        {"bypass", trace, "--json", trace, NULL},   {"analyze", trace, "--html", trace, NULL},
        {"analyze", trace, "-o", second, NULL},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        cli_result r = cli_run(runs[i][0], runs[i][1], runs[i][2], runs[i][3], NULL);
        cr_expect_neq(r.status, 0, "%s %s", runs[i][0], runs[i][2]);
        cr_expect(test_is_one_line(r.err) && strstr(r.err, "is the input") &&
                      strstr(r.err, runs[i][3]) && strstr(r.err, trace),
                  "%s: %s", runs[i][0], r.err);
        size_t len;
        char *after = test_read_file(trace, &len);
        cr_expect(len == before_len && memcmp(after, before, len) == 0, "%s %s changed the trace",
                  runs[i][0], runs[i][2]);
        free(after);
        cli_result_free(&r);
    }
    free(before);
    free(second);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* import reads its kernel traces after it opens its output: the check at
 * publishing catches an output naming one of them. */
Test(output_targets, import_never_writes_over_one_of_its_inputs)
{
    char *dir = test_tmpdir();
    char src[4096];
    snprintf(src, sizeof src, "%s/accelsim/vectoradd/kernel-1.traceg", test_fixture_dir());
    size_t len;
    char *text = test_read_file(src, &len);
    cr_assert_not_null(text);
    char *copy = test_path(dir, "kernel-1.traceg");
    test_write_file(copy, text, len);
    cli_result r = cli_run("import", "accelsim", copy, "-o", copy, NULL);
    cr_expect_neq(r.status, 0);
    cr_expect(test_is_one_line(r.err) && strstr(r.err, "is the input"), "%s", r.err);
    size_t after_len;
    char *after = test_read_file(copy, &after_len);
    cr_expect(after_len == len && memcmp(after, text, len) == 0, "import replaced its input");
    cli_result_free(&r);
    free(after);
    free(copy);
    free(text);
    test_tmpdir_cleanup(dir);
}

/* `profile ... | head -1`: the reader goes away; the run ends by SIGPIPE
 * and takes back the directory it made and every temporary. */
Test(output_targets, a_closed_pipe_leaves_nothing_behind)
{
    char *dir = test_tmpdir();
    char *out = test_path(dir, "prof");
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    close(fds[0]); /* the reader is gone before the first line */
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 1);
        int null = open("/dev/null", O_WRONLY);
        dup2(null, 2);
        signal(SIGPIPE, SIG_DFL);
        execl(WARPSCOPE_BIN, WARPSCOPE_BIN, "profile", "--workload", "gaussian", "--size", "small",
              "-o", out, "--quiet", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    cr_expect(WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE, "status %#x", status);
    struct stat st;
    cr_expect_neq(stat(out, &st), 0, "the directory the run made is left behind");
    free(out);
    test_tmpdir_cleanup(dir);
}
