/* tests/test_interrupt.c: an interrupted run leaves nothing behind
 * (util/interrupt.h): no temporary, no partial file, no directory it made. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tests/helpers.h"
#include "util/interrupt.h"
#include "util/outfile.h"

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in dir in order, each followed by a space (hidden ones too). */
static void list_dir(const char *dir, char *buf, size_t cap)
{
    buf[0] = '\0';
    DIR *d = opendir(dir);
    if (!d)
        return;
    char *names[64];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) && n < 64;)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        snprintf(buf + strlen(buf), cap - strlen(buf), "%s ", names[i]);
        free(names[i]);
    }
}

Test(interrupt, registry_takes_back_what_the_run_made)
{
    char *dir = test_tmpdir();
    char *made = test_path(dir, "made"), *kept = test_path(dir, "kept.json");
    ws_error err;
    cr_assert_eq(ws_make_dir(dir, &err), 0); /* exists already: not the run's */
    cr_assert_eq(ws_make_dir(made, &err), 0);
    char *inside = test_path(made, "report.json"), *pending = test_path(made, "report.html");
    ws_outfile *a = ws_outfile_open(inside, &err);
    fputs("{}", ws_outfile_stream(a));
    cr_assert_eq(ws_outfile_commit(a, &err), 0);
    ws_outfile *b = ws_outfile_open(kept, &err);
    fputs("{}", ws_outfile_stream(b));
    cr_assert_eq(ws_outfile_commit(b, &err), 0);
    ws_outfile *c = ws_outfile_open(pending, &err); /* still being written */
    fputs("<html>", ws_outfile_stream(c));
    fflush(ws_outfile_stream(c));
    cr_assert_eq(interrupt_cleanup_now(), 3, "the temporary, the committed file, the directory");
    cr_expect(!exists(made), "the directory the run made is gone");
    cr_expect(exists(kept), "a whole file in a directory the run did not make stays");
    ws_outfile_abort(c);
    free(inside);
    free(pending);
    free(made);
    free(kept);
    test_tmpdir_cleanup(dir);
}

/* Starts warpscope with argv (NULL-terminated), stderr to err_path. */
static pid_t spawn(const char *err_path, const char *const *argv)
{
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        int null_fd = open("/dev/null", O_RDWR);
        dup2(null_fd, 1);
        dup2(null_fd, 0);
        alarm(120);
        execv(WARPSCOPE_BIN, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Runs argv, signals it once `ready` exists (or after delay_ms when ready
 * is NULL), and checks it ended by that signal with one line on stderr and
 * left dir holding exactly `left` (its names, each followed by a space). */
static void interrupt_run(const char *dir, const char *const *argv, const char *ready, long delay_ms,
                          int sig, const char *left)
{
    char name[64];
    snprintf(name, sizeof name, "ws-interrupt-err-%d", (int)getpid());
    char *err_path = test_path("/tmp", name);
    pid_t pid = spawn(err_path, argv);
    for (int waited = 0; ready && !exists(ready) && waited < 60000; waited += 5)
        sleep_ms(5);
    sleep_ms(delay_ms);
    kill(pid, sig);
    int status = 0;
    waitpid(pid, &status, 0);
    char *err = test_read_file(err_path, NULL);
    unlink(err_path);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == sig,
              "%s: ended by signal %d (status %#x); stderr: %s", argv[1], sig, status, err);
    cr_expect(test_is_one_line(err) && strncmp(err, "warpscope: interrupted (", 24) == 0, "%s", err);
    char names[4096];
    list_dir(dir, names, sizeof names);
    cr_expect_str_eq(names, left, "%s left: %s", argv[1], names);
    free(err);
    free(err_path);
}

Test(interrupt, profile_leaves_no_directory)
{
    char *dir = test_tmpdir(), *out = test_path(dir, "report");
    const char *argv[] = {WARPSCOPE_BIN, "profile", "--workload", "gemm", "--size", "medium",
                          "--gpu", "fermi", "--quiet", "-o", out, NULL};
    /* A second after its directory appears the run is recording or
     * analysing, with the trace held as a temporary until the run succeeds
     * (util/outset.h): the temporary and the directory must go. */
    interrupt_run(dir, argv, out, 1000, SIGINT, "");
    free(out);
    test_tmpdir_cleanup(dir);
}

Test(interrupt, analyze_and_export_leave_no_temporary)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "t.wst");
    cli_result r = cli_run("record", "--workload", "gemm", "--size", "medium", "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    char *json = test_path(dir, "r.json"), *html = test_path(dir, "r.html");
    const char *analyze[] = {WARPSCOPE_BIN, "analyze", trace, "--gpu", "fermi", "--quiet", "-o", json,
                             "--html", html, NULL};
    interrupt_run(dir, analyze, NULL, 500, SIGTERM, "t.wst ");
    char *exported = test_path(dir, "exported");
    const char *export[] = {WARPSCOPE_BIN, "export", "accelsim", trace, "-o", exported, NULL};
    interrupt_run(dir, export, exported, 200, SIGINT, "t.wst ");
    free(exported);
    free(json);
    free(html);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(interrupt, import_and_dump_leave_no_temporary)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "t.wst");
    char *exported = test_path(dir, "text"), *list = test_path(exported, "kernelslist.g");
    cli_result r = cli_run("record", "--workload", "gemm", "--size", "medium", "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("export", "accelsim", trace, "-o", exported, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    /* Import reads 100 MB of text for about a second: half-way it holds
     * only the temporary of its .wst. */
    char *imported = test_path(dir, "imp.wst");
    const char *import[] = {WARPSCOPE_BIN, "import", "accelsim", list, "-o", imported, NULL};
    interrupt_run(dir, import, NULL, 400, SIGINT, "t.wst text ");
    /* dump writes only to standard output; it stops at the signal, in one line. */
    const char *dump[] = {WARPSCOPE_BIN, "dump", trace, NULL};
    interrupt_run(dir, dump, NULL, 400, SIGTERM, "t.wst text ");
    free(imported);
    free(list);
    free(exported);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* The stop signals reach whichever thread the kernel picks: a compare on
 * two worker threads, hung up, still takes back its output and says so in
 * one line (util/interrupt.h: a handler, no watcher thread). */
Test(interrupt, a_threaded_compare_hung_up_leaves_nothing)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "t.wst");
    cli_result r = cli_run("record", "--workload", "gemm", "--size", "medium", "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    char *json = test_path(dir, "c.json");
    const char *compare[] = {WARPSCOPE_BIN, "compare", trace, "--gpu", "fermi", "--timed",
                             "--policies", "lru,fifo,srrip,brrip", "--threads", "2", "--quiet",
                             "-o", json, NULL};
    interrupt_run(dir, compare, NULL, 500, SIGHUP, "t.wst ");
    free(json);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* After SIGKILL nothing could clean up: the next run writing into that
 * directory removes the temporaries of processes that are gone, and leaves
 * a live process's alone. */
Test(interrupt, stale_temporaries_of_dead_runs_are_removed)
{
    char *dir = test_tmpdir();
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0); /* a pid no process has now */
    char dead_name[64], live_name[64];
    snprintf(dead_name, sizeof dead_name, ".r.json.tmp.%d.abcdef", (int)child);
    snprintf(live_name, sizeof live_name, ".r.json.tmp.%d.ghijkl", (int)getppid());
    char *dead = test_path(dir, dead_name), *live = test_path(dir, live_name);
    char *other = test_path(dir, ".notes.tmp.1.txt"); /* not a temporary's name */
    test_write_file(dead, "{", 1);
    test_write_file(live, "{", 1);
    test_write_file(other, "x", 1);
    char *target = test_path(dir, "new.json");
    ws_error err;
    ws_outfile *out = ws_outfile_open(target, &err);
    cr_assert_not_null(out, "%s", err.msg);
    cr_expect(!exists(dead), "the dead run's temporary is removed");
    cr_expect(exists(live), "a live process's temporary stays");
    cr_expect(exists(other));
    ws_outfile_abort(out);
    free(dead);
    free(live);
    free(other);
    free(target);
    test_tmpdir_cleanup(dir);
}
