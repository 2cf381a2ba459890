/* tests/test_cli_report.c: `warpscope report` and `analyze --html` end to
 * end, and the report command's one-line errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static void assert_one_line_error(const cli_result *r, const char *expect)
{
    cr_assert_eq(r->status, 1, "%s", r->err);
    cr_assert(strncmp(r->err, expect, strlen(expect)) == 0, "want '%s', got '%s'", expect, r->err);
    cr_assert_eq(strchr(r->err, '\n'), r->err + strlen(r->err) - 1, "one line: %s", r->err);
}

Test(cli_report, analyze_html_and_report_command)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "g.wst"), *json = test_path(dir, "r.json");
    char *direct = test_path(dir, "direct.html"), *later = test_path(dir, "later.html");
    cli_result r = cli_run("record", "--workload", "gaussian", "-o", trace, NULL);
    cli_result_free(&r);
    r = cli_run("analyze", trace, "-o", json, "--html", direct, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("report", json, "--html", later, "--summary", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "U (line)") != NULL, "%s", r.out);
    /* The emulator's trace names no GPU: the default preset (docs/gpu-configs.md). */
    cr_assert(strstr(r.out, "hopper: 132 SMs, L1 192 KiB, L2 50 MiB") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "note") == NULL, "no paper preset, no note: %s", r.out);
    cli_result_free(&r);
    /* The same report drawn now or later is the same page. */
    size_t a_len, b_len;
    char *a = test_read_file(direct, &a_len), *b = test_read_file(later, &b_len);
    cr_assert_not_null(a);
    cr_assert_not_null(b);
    cr_assert_eq(a_len, b_len);
    cr_assert(memcmp(a, b, a_len) == 0);
    cr_assert_not_null(strstr(a, "id=\"pc-reuse-heatmap\""));
    free(a);
    free(b);
    /* Without --html, the key figures. */
    r = cli_run("report", json, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "kernel launches              126\n") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "sharing block                128 B\n") != NULL, "%s", r.out);
    cli_result_free(&r);
    free(trace);
    free(json);
    free(direct);
    free(later);
    test_tmpdir_cleanup(dir);
}

Test(cli_report, errors_name_the_file_and_leave_nothing)
{
    char *dir = test_tmpdir(), *out = test_path(dir, "out.html");
    char *missing = test_path(dir, "nope.json"), *text = test_path(dir, "text.json");
    char *other = test_path(dir, "other.json"), *newer = test_path(dir, "newer.json");
    char *older = test_path(dir, "older.json");
    test_write_file(text, "hello\n", 6);
    test_write_file(other, "{\"schema\": \"x\"}", 15);
    const char *v4 = "{\"schema\": \"warpscope-report\", \"version\": 4, \"summary\": {}, \"kernels\": []}";
    test_write_file(newer, v4, strlen(v4));
    const char *v1 = "{\"schema\": \"warpscope-report\", \"version\": 1, \"summary\": {}, \"kernels\": []}";
    test_write_file(older, v1, strlen(v1));
    char expect[512];
    struct {
        const char *file, *what;
    } cases[] = {
        {missing, "cannot open: No such file or directory"},
        {text, "not JSON: line 1 column "},
        {other, "not a warpscope report (\"schema\" is not \"warpscope-report\")"},
        {newer, "report version 4 is not supported (this warpscope reads versions 2 to 3)"},
        {older, "report version 1 is not supported (this warpscope reads versions 2 to 3; run "
                "analyze again to write it anew)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = cli_run("report", cases[i].file, "--html", out, NULL);
        snprintf(expect, sizeof expect, "warpscope: %s: %s", cases[i].file, cases[i].what);
        assert_one_line_error(&r, expect);
        cr_assert_null(test_read_file(out, NULL), "no page for %s", cases[i].file);
        cli_result_free(&r);
    }
    cli_result r = cli_run("report", NULL);
    assert_one_line_error(&r, "warpscope: report needs a report.json");
    cli_result_free(&r);
    r = cli_run("report", text, "--pdf", NULL);
    assert_one_line_error(&r, "warpscope: report: unknown option '--pdf'");
    cli_result_free(&r);
    r = cli_run("report", text, "--html", NULL);
    assert_one_line_error(&r, "warpscope: report: --html needs a file name");
    cli_result_free(&r);
    r = cli_run("report", "--help", NULL);
    cr_assert_eq(r.status, 0);
    cr_assert(strncmp(r.out, "usage: warpscope report", 23) == 0);
    cli_result_free(&r);
    free(out);
    free(missing);
    free(text);
    free(other);
    free(newer);
    free(older);
    test_tmpdir_cleanup(dir);
}
