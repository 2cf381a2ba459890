/* tests/test_cli_profile.c: `profile`, the main job, end to end on two
 * workloads and on a recorded file, and its errors. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/helpers.h"

/* The tables of a profile, in its directory or in --csv's. */
static const char *const tables[] = {"pcs.csv",
                                     "reuse.csv",
                                     "sharing_sharer_counts.csv",
                                     "sharing_sm_pairs.csv",
                                     "sharing_cta_distances.csv",
                                     "hints_pcs.csv",
                                     "hints_lines.csv",
                                     "advice.csv",
                                     "compare.csv"};

static void check_tables(const char *dir)
{
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        char *text = test_read_output(dir, tables[i]);
        cr_expect(strchr(text, '\n') && strchr(text, '\n')[1], "%s has rows", tables[i]);
        free(text);
    }
}

/* The HTML's bypass section names every load PC report.json recommends at
 * its source line, with the __ldcg advice, as the terminal does; returns
 * how many it named. */
static int check_bypass_section(const char *dir, const json_t *doc)
{
    char *html = test_read_output(dir, "report.html");
    const char *at = strstr(html, "<section id=\"bypass\">");
    cr_assert_not_null(at, "report.html has the bypass section");
    char *section = strndup(at, (size_t)(strstr(at, "</section>") - at));
    int listed = 0;
    size_t i;
    json_t *pc;
    json_array_foreach(json_object_get(json_object_get(doc, "bypass"), "pcs"), i, pc) {
        const char *file = json_string_value(json_object_get(pc, "file"));
        if (!json_is_true(json_object_get(pc, "recommend")) || !file)
            continue;
        char cell[256];
        snprintf(cell, sizeof cell, "<td class=\"code\">%s:%lld</td>",
                 strrchr(file, '/') ? strrchr(file, '/') + 1 : file,
                 (long long)json_integer_value(json_object_get(pc, "line")));
        cr_expect_not_null(strstr(section, cell), "no %s in the bypass section", cell);
        listed++;
    }
    if (listed)
        cr_expect_not_null(strstr(section, "<td>load with __ldcg</td>"));
    free(section);
    free(html);
    return listed;
}

static int check_report_dir(const char *dir)
{
    check_tables(dir);
    static const char *const files[] = {"report.json", "report.html", "compare.csv"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char *p = test_path(dir, files[i]);
        size_t len = 0;
        char *text = test_read_file(p, &len);
        cr_assert_not_null(text, "%s missing", p);
        cr_expect_gt(len, 100, "%s is empty", p);
        if (strcmp(files[i], "report.html") == 0) {
            static const char *const ids[] = {"bypass", "pc-reuse-heatmap", "sm-sharing-heatmap",
                                              "cta-distance-chart", "access-heatmap", "mrc",
                                              "memory", "mpli", "policy-compare", "pc-table"};
            for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
                char needle[64];
                snprintf(needle, sizeof needle, "id=\"%s\"", ids[k]);
                cr_expect(strstr(text, needle) != NULL, "report.html lacks %s", ids[k]);
            }
        }
        if (strcmp(files[i], "compare.csv") == 0) {
            int rows = 0;
            for (char *c = text; *c; c++)
                rows += *c == '\n';
            cr_expect_eq(rows, 1 + 7, "header and the 7 default policies");
        }
        free(text);
        free(p);
    }
    char *json = test_path(dir, "report.json");
    json_error_t jerr;
    json_t *doc = json_load_file(json, 0, &jerr);
    cr_assert_not_null(doc, "%s", jerr.text);
    cr_expect(json_is_object(json_object_get(json_object_get(doc, "summary"), "replay")));
    cr_expect(json_is_object(json_object_get(doc, "bypass")));
    cr_expect_eq(json_array_size(json_object_get(json_object_get(doc, "compare"), "policies")), 7);
    json_t *pc0 = json_array_get(json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "pcs"), 0);
    cr_expect(json_is_object(json_object_get(pc0, "bypass")), "PCs carry their bypass verdict");
    cr_expect(json_is_object(json_object_get(pc0, "memory")), "PCs carry their sectors");
    cr_expect(json_is_object(json_object_get(json_object_get(doc, "summary"), "memory")));
    int listed = check_bypass_section(dir, doc);
    json_decref(doc);
    free(json);
    return listed;
}

static void profile_workload(const char *workload)
{
    char *dir = test_tmpdir(), *out = test_path(dir, "report");
    cli_result r = cli_run("profile", "--workload", workload, "--gpu", "fermi", "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "report.html") != NULL, "says where the report is");
    cr_expect(strstr(r.out, "bypass-table") != NULL, "prints the bypass summary");
    cr_expect(strstr(r.out, "opt") != NULL, "prints the comparison");
    cli_result_free(&r);
    int listed = check_report_dir(out);
    if (strcmp(workload, "gaussian") == 0)
        cr_expect_geq(listed, 1, "gaussian has loads to bypass (grep -c ldcg report.html)");
    free(out);
    test_tmpdir_cleanup(dir);
}

Test(cli_profile, gaussian) { profile_workload("gaussian"); }
Test(cli_profile, hotspot) { profile_workload("hotspot"); }

Test(cli_profile, a_recorded_trace)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "nw"), *out = test_path(dir, "nw-report");
    cli_result r = cli_run("profile", trace, "--gpu", "volta", "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    check_report_dir(out);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

static int exists(const char *path);

/* --csv DIR: the tables go there (the tables of `analyze --csv` too), the
 * report stays in -o's directory. */
Test(cli_profile, csv_puts_the_tables_in_their_own_directory)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    char *out = test_path(dir, "report"), *csv = test_path(dir, "tables");
    cli_result r = cli_run("profile", trace, "-o", out, "--csv", csv, "--trials", "2", "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, csv) != NULL, "says where the tables are: %s", r.out);
    cli_result_free(&r);
    check_tables(csv);
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
        char *p = test_path(out, tables[i]);
        cr_expect_not(exists(p), "%s is in --csv's directory only", tables[i]);
        free(p);
    }
    char *json = test_path(out, "report.json");
    cr_expect(exists(json));
    /* The same PCs as analyze's table: one row per (launch, PC). */
    json_t *doc = test_load_json(json);
    char *pcs = test_read_output(csv, "pcs.csv");
    size_t rows = 0, expected = 0;
    for (char *c = pcs; *c; c++)
        rows += *c == '\n';
    json_t *k;
    size_t i;
    json_array_foreach(json_object_get(doc, "kernels"), i, k)
        expected += json_array_size(json_object_get(k, "pcs"));
    cr_expect_eq(rows, 1 + expected);
    free(pcs);
    json_decref(doc);
    free(json);
    free(csv);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_profile, errors_are_one_line)
{
    const char *cases[][6] = {
        {"profile", NULL},
        {"profile", "x.wst", "--workload", "gaussian", NULL},
        {"profile", "--workload", "nope", NULL},
        {"profile", "--workload", "gaussian", "--size", "huge", NULL},
        {"profile", "/nonexistent.wst", "-o", "/nonexistent/dir/x", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = cli_run(cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4], NULL);
        cr_expect_neq(r.status, 0, "case %zu", i);
        cr_expect(strncmp(r.err, "warpscope: ", 11) == 0 && test_is_one_line(r.err), "case %zu: %s",
                  i, r.err);
        cli_result_free(&r);
    }
}

static int exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

/* A failed profile leaves no report directory behind: inputs are checked
 * before it is made, and a failure later removes the one this run made.
 * A directory the user already had is left as it was. */
Test(cli_profile, a_failed_run_leaves_nothing_behind)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    char *out = test_path(dir, "report"), *bad = test_path(dir, "bad.wst");
    /* Bad inputs: no directory is made at all. */
    cli_result early[2] = {
        cli_run("profile", "/nonexistent.wst", "-o", out, "--quiet", NULL),
        cli_run("profile", "--workload", "gaussian", "--policies", "lru,bogus", "-o", out, "--quiet",
                NULL),
    };
    for (size_t i = 0; i < 2; i++) {
        cr_assert_eq(early[i].status, 1, "case %zu", i);
        cr_assert(test_is_one_line(early[i].err), "%s", early[i].err);
        cr_assert_not(exists(out), "case %zu: %s", i, out);
        cli_result_free(&early[i]);
    }
    /* A trace that opens but fails mid-analysis: the first frame's bytes
     * corrupted (frames start after the 16-byte header). */
    size_t len;
    char *bytes = test_read_file(trace, &len);
    cr_assert_not_null(bytes);
    cr_assert_gt(len, 200);
    for (size_t at = 24; at < 40; at++)
        bytes[at] ^= 0x5a;
    cr_assert_eq(test_write_file(bad, bytes, len), 0);
    free(bytes);
    cli_result r = cli_run("profile", bad, "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.err, "bad.wst: chunk") != NULL && test_is_one_line(r.err), "%s", r.err);
    cr_assert_not(exists(out), "the directory this run made is gone");
    cli_result_free(&r);
    cr_assert_eq(mkdir(out, 0777), 0);
    char *mine = test_path(out, "mine.txt");
    cr_assert_eq(test_write_file(mine, "x", 1), 0);
    r = cli_run("profile", bad, "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 1);
    cr_assert(exists(mine), "the user's own directory and files stay");
    cli_result_free(&r);
    free(mine);
    free(bad);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}
