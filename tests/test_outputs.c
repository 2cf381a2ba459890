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

/* The names an output list holds, one a line (each line's last field). */
static char *listed_names(const char *manifest)
{
    char *text = test_read_file(manifest, NULL);
    cr_assert_not_null(text);
    char *names = calloc(1, strlen(text) + 1);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        const char *name = strrchr(line, ' ');
        strcat(names, name ? name + 1 : line);
        strcat(names, "\n");
    }
    free(text);
    return names;
}

/* Lists path in dir's output list as `command` wrote it, with its true
 * signature (util/outset.c): what an earlier run would have listed. */
static void list_as_written_by(const char *dir, const char *name, const char *command)
{
    char *path = test_path(dir, name), *manifest = test_path(dir, ".warpscope-outputs");
    struct stat st;
    cr_assert_eq(stat(path, &st), 0);
    FILE *f = fopen(manifest, "a");
    fprintf(f, "%llu %llu %llu %llu %llu %s %s\n", (unsigned long long)st.st_dev,
            (unsigned long long)st.st_ino, (unsigned long long)st.st_size,
            (unsigned long long)st.st_mtim.tv_sec, (unsigned long long)st.st_mtim.tv_nsec, command,
            name);
    fclose(f);
    free(manifest);
    free(path);
}

/* A second profile into the same directory removes the files the first
 * listed and did not write again, keeps files warpscope did not write, and
 * lists its own. */
Test(outputs, an_output_directory_never_mixes_two_runs)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *out = test_path(dir, "p");
    /* fermi: the smallest caches, so the run stays well inside cli_run's
     * limit on a busy machine; this test is about files, not numbers. */
    cli_result first = cli_run("profile", trace, "--gpu", "fermi", "-o", out, "--quiet", NULL);
    cr_assert_eq(first.status, 0, "%s", first.err);
    cli_result_free(&first);
    char *manifest = test_path(out, ".warpscope-outputs");
    char *listed = listed_names(manifest);
    cr_assert(strstr(listed, "report.json\n") != NULL, "%s", listed);
    cr_assert(strstr(listed, "report.html\n") != NULL, "%s", listed);
    /* As if an earlier version had written one more table. */
    char *stale = test_path(out, "old_table.csv"), *mine = test_path(out, "notes.txt");
    test_write_file(stale, "x\n", 2);
    test_write_file(mine, "keep\n", 5);
    list_as_written_by(out, "old_table.csv", "profile");
    FILE *f = fopen(manifest, "a");
    fputs("0 0 0 0 0 profile ../escape.txt\n", f);
    fclose(f);
    cli_result second = cli_run("profile", trace, "--gpu", "fermi", "-o", out, "--quiet", NULL);
    cr_assert_eq(second.status, 0, "%s", second.err);
    cr_expect_not(exists(stale), "the earlier run's table is gone");
    cr_expect(exists(mine), "a file warpscope did not write is kept");
    char *relisted = listed_names(manifest);
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

/* Issue 42, item 2: `analyze P/trace.wst --csv P` after `profile -o P`
 * removed the trace it was reading and profile's reports. */
Test(outputs, tables_written_beside_a_profile_remove_neither_its_input_nor_its_reports,
     .timeout = 120)
{
    char *dir = test_tmpdir();
    char *out = test_path(dir, "p");
    cli_result first = cli_run("profile", "--workload", "gaussian", "--size", "small", "--gpu",
                               "fermi", "-o", out, "--quiet", NULL); /* files, not numbers */
    cr_assert_eq(first.status, 0, "%s", first.err);
    cli_result_free(&first);
    char *trace = test_path(out, "trace.wst"), *json = test_path(out, "report.json"),
         *html = test_path(out, "report.html");
    cli_result second = cli_run("analyze", trace, "--gpu", "fermi", "--csv", out, NULL);
    cr_assert_eq(second.status, 0, "%s", second.err);
    cr_expect(exists(trace), "the input trace is kept");
    cr_expect(exists(json), "profile's report.json is kept");
    cr_expect(exists(html), "profile's report.html is kept");
    cli_result_free(&second);
    /* Even the command that listed it never removes its own input. */
    cli_result third = cli_run("profile", trace, "--gpu", "fermi", "-o", out, "--quiet", NULL);
    cr_expect_eq(third.status, 0, "%s", third.err);
    cr_expect(exists(trace), "the input trace is kept");
    cli_result_free(&third);
    free(trace);
    free(json);
    free(html);
    free(out);
    test_tmpdir_cleanup(dir);
}

/* Issue 42, item 2: a list naming a file warpscope did not write (by hand,
 * or one the user replaced since) removes nothing. */
Test(outputs, an_output_list_removes_only_files_as_warpscope_left_them)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *tables = test_path(dir, "t"), *makefile = test_path(tables, "Makefile"),
         *edited = test_path(tables, "edited.csv"), *manifest = test_path(tables, ".warpscope-outputs");
    mkdir(tables, 0777);
    test_write_file(makefile, "all:\n", 5);
    test_write_file(manifest, "Makefile\n", 9);
    test_write_file(edited, "a\n", 2);
    list_as_written_by(tables, "edited.csv", "analyze");
    test_write_file(edited, "user's\n", 7); /* changed since warpscope listed it */
    cli_result r = cli_run("analyze", trace, "--csv", tables, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(exists(makefile), "a hand-listed Makefile is kept");
    cr_expect(exists(edited), "a listed file the user changed is kept");
    cli_result_free(&r);
    free(makefile);
    free(edited);
    free(manifest);
    free(tables);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Issue 42, item 2: `--csv tables/` wrote an empty list. */
Test(outputs, a_trailing_slash_still_lists_the_tables)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *tables = test_path(dir, "t/"), *manifest = test_path(dir, "t/.warpscope-outputs");
    cli_result r = cli_run("analyze", trace, "--csv", tables, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    char *listed = listed_names(manifest);
    cr_expect(strstr(listed, "pcs.csv\n") != NULL, "the list names the tables: '%s'", listed);
    cli_result_free(&r);
    free(listed);
    free(manifest);
    free(tables);
    free(trace);
    test_tmpdir_cleanup(dir);
}
