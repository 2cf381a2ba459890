/* tests/test_cli_advice.c: end to end, the default GPU preset and the
 * papers' presets' note (docs/gpu-configs.md, "The default GPU"), and the
 * ranked advice with one number in every output (docs/metrics.md §9,
 * "Advice"; docs/report-schema.md, ADVICE). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/replay_text.h"
#include "tests/helpers.h"

#define FERMI_NOTE \
    "warpscope: note: fermi is a 2010 preset kept for the papers' setups; current GPUs: --gpu hopper\n"

/* The emulator's traces name no GPU: every command runs them on hopper,
 * and says nothing about it. */
Test(cli_advice, a_trace_that_names_no_gpu_runs_on_hopper)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    char *json = test_path(dir, "r.json"), *hints = test_path(dir, "h.json");
    const char *const commands[][2] = {{"analyze", "-o"}, {"replay", "-o"}, {"compare", "-o"},
                                       {"bypass", "--json"}};
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        const char *out = strcmp(commands[i][0], "bypass") == 0 ? hints : json;
        cli_result r = strcmp(commands[i][0], "bypass") == 0
                           ? cli_run("bypass", trace, "--json", out, "--trials", "1", NULL)
                           : cli_run(commands[i][0], trace, commands[i][1], out, NULL);
        cr_assert_eq(r.status, 0, "%s: %s", commands[i][0], r.err);
        cr_expect_str_eq(r.err, "", "%s: no note on the default", commands[i][0]);
        cli_result_free(&r);
        if (strcmp(commands[i][0], "bypass") == 0)
            continue;
        json_t *doc = test_load_json(out);
        cr_expect_str_eq(json_string_value(json_object_get(json_object_get(doc, "gpu"), "name")),
                         "hopper", "%s", commands[i][0]);
        cr_expect_null(json_object_get(doc, "gpu_note"), "%s", commands[i][0]);
        json_decref(doc);
    }
    char *report = test_path(dir, "report");
    cli_result p = cli_run("profile", "--workload", "gaussian", "--trials", "1", "--policies", "lru",
                           "-o", report, NULL);
    cr_assert_eq(p.status, 0, "%s", p.err);
    cr_expect_str_eq(p.err, "");
    char *report_json = test_path(report, "report.json");
    json_t *doc = test_load_json(report_json);
    free(report_json);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(doc, "gpu"), "name")), "hopper");
    json_decref(doc);
    cli_result_free(&p);
    free(report);
    free(json);
    free(hints);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* On fermi, one line on stderr says it is kept for the papers' setups
 * (--quiet silences it); the report carries it as gpu_note, and the HTML
 * header and `report --summary` show it. */
Test(cli_advice, a_papers_preset_says_so_in_one_line_and_in_the_report)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    char *json = test_path(dir, "r.json"), *html = test_path(dir, "r.html");
    cli_result r = cli_run("analyze", trace, "--gpu", "fermi", "-o", json, "--html", html, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.err, FERMI_NOTE);
    cli_result_free(&r);
    json_t *doc = test_load_json(json);
    cr_expect_str_eq(json_string_value(json_object_get(doc, "gpu_note")),
                     "fermi is a 2010 preset kept for the papers' setups; current GPUs: --gpu hopper");
    json_decref(doc);
    char *page = test_read_file(html, NULL);
    cr_expect_not_null(strstr(page, "<dt>note</dt><dd>fermi is a 2010 preset kept for the "
                                    "papers&#39; setups; current GPUs: --gpu hopper</dd>"));
    free(page);
    r = cli_run("report", json, "--summary", NULL);
    cr_expect_not_null(strstr(r.out, "fermi is a 2010 preset"), "%s", r.out);
    cli_result_free(&r);
    r = cli_run("replay", trace, "--gpu", "kepler-s2", "--quiet", "-o", json, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_str_eq(r.err, "", "--quiet silences the note");
    doc = test_load_json(json);
    cr_expect_not_null(strstr(json_string_value(json_object_get(doc, "gpu_note")),
                              "kepler-s2 is a 2012 (Kepler) preset"));
    json_decref(doc);
    cli_result_free(&r);
    free(html);
    free(json);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* The line of the terminal's advice list that shows item i: its change,
 * its saving and its share, in that order, on one line. */
static const char *terminal_line(const char *out, const json_t *item, const char *from)
{
    char saved[32], share[16];
    replay_format_bytes(saved, sizeof saved, (uint64_t)json_integer_value(json_object_get(item, "saved_bytes")));
    snprintf(share, sizeof share, "%.1f%%", -100.0 * json_number_value(json_object_get(item, "saved_share")));
    const char *change = json_string_value(json_object_get(item, "change"));
    for (const char *at = strstr(from, change); at; at = strstr(at + 1, change)) {
        const char *eol = strchr(at, '\n');
        const char *s = strstr(at, saved), *p = s ? strstr(s, share) : NULL;
        if (s && p && p < eol)
            return eol;
    }
    (void)out;
    return NULL;
}

/* gaussian on fermi: __ldcg and coalescing advice at several source lines,
 * whose order by saving is not their order by line.  The items are ranked
 * by saving and grouped by place; the terminal lists them in that order
 * with the same bytes and shares as the JSON, and advice.csv has the same
 * rows; the verdict's share is the before/after table's. */
Test(cli_advice, ranked_advice_says_the_same_everywhere)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    char *json = test_path(dir, "h.json"), *csv = test_path(dir, "csv");
    setenv("COLUMNS", "1000", 1); /* one line per verdict and row, to read them back */
    cli_result r = cli_run("bypass", trace, "--gpu", "fermi", "--quiet", "--json", json, "--csv", csv,
                           NULL);
    unsetenv("COLUMNS");
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_t *doc = test_load_json(json);
    json_t *advice = json_object_get(doc, "advice");
    json_t *items = json_object_get(advice, "items");
    size_t n = json_array_size(items);
    cr_assert_geq(n, 4, "several changes");
    /* Grouped by place, places by their largest saving, items by saving. */
    long long group_max = -1, last = -1;
    int out_of_line_order = 0, last_line = -1, kinds[3] = {0};
    const char *after = r.out;
    for (size_t i = 0; i < n; i++) {
        json_t *it = json_array_get(items, i);
        long long saved = json_integer_value(json_object_get(it, "saved_bytes"));
        const char *place = json_string_value(json_object_get(it, "place"));
        int same = i && strcmp(place, json_string_value(json_object_get(json_array_get(items, i - 1),
                                                                        "place"))) == 0;
        for (size_t j = 0; j + 1 < i && !same; j++)
            cr_expect_str_neq(place, json_string_value(json_object_get(json_array_get(items, j), "place")),
                              "%s comes back after another place", place);
        if (same) {
            cr_expect_leq(saved, last, "within %s, by saving", place);
        } else {
            cr_expect(group_max < 0 || saved <= group_max, "%s after a place saving less", place);
            group_max = saved;
        }
        last = saved;
        cr_expect_eq(json_integer_value(json_object_get(it, "rank")), (long long)i + 1);
        int line = (int)json_integer_value(json_object_get(it, "line"));
        out_of_line_order |= !same && line < last_line;
        last_line = same ? last_line : line;
        const char *kind = json_string_value(json_object_get(it, "kind"));
        kinds[strcmp(kind, "ldcg") == 0 ? 0 : strcmp(kind, "coalesce") == 0 ? 1 : 2]++;
        /* The terminal: this item's line comes after the previous item's. */
        const char *next = terminal_line(r.out, it, after);
        cr_expect_not_null(next, "item %zu (%s at %s) not in the terminal after item %zu", i + 1,
                           kind, place, i);
        if (next)
            after = next;
    }
    cr_expect(out_of_line_order, "the order by saving is not the order by line");
    cr_expect_gt(kinds[0], 0, "load with __ldcg");
    cr_expect_gt(kinds[1], 0, "coalesce accesses");
    /* advice.csv: the same rows, in the same order, with the same bytes. */
    char *table = test_read_output(csv, "advice.csv");
    const char *row = strchr(table, '\n') + 1;
    for (size_t i = 0; i < n; i++, row = strchr(row, '\n') + 1) {
        json_t *it = json_array_get(items, i);
        char head[64];
        snprintf(head, sizeof head, "%zu,%s,%s,", i + 1, json_string_value(json_object_get(it, "place")),
                 json_string_value(json_object_get(it, "kind")));
        cr_expect(strncmp(row, head, strlen(head)) == 0, "row %zu: %.80s", i + 1, row);
        char bytes[32];
        snprintf(bytes, sizeof bytes, ",%lld,", json_integer_value(json_object_get(it, "saved_bytes")));
        const char *eol = strchr(row, '\n');
        const char *at = strstr(row, bytes);
        cr_expect(at && at < eol, "row %zu has %s: %.120s", i + 1, bytes, row);
    }
    cr_expect_eq(*row, '\0', "one row per item");
    free(table);
    /* One measure: the verdict's share is the bypass-pc row's. */
    json_t *ba = json_object_get(doc, "before_after");
    double before = (double)json_integer_value(json_object_get(json_object_get(ba, "baseline"), "below_l1_bytes"));
    double with = (double)json_integer_value(json_object_get(json_object_get(ba, "bypass_pc"), "below_l1_bytes"));
    cr_expect_eq((long long)before, json_integer_value(json_object_get(advice, "baseline_below_l1_bytes")));
    char pct[32];
    snprintf(pct, sizeof pct, "%+.1f%%", 100.0 * (with - before) / before);
    const char *verdict = strstr(r.out, "verdict:"), *row_pc = strstr(r.out, "\n  bypass-pc ");
    cr_assert(verdict && row_pc, "%s", r.out);
    cr_expect(strstr(verdict, pct) < strchr(verdict, '\n'), "verdict says %s: %.120s", pct, verdict);
    cr_expect(strstr(row_pc, pct) && strstr(row_pc, pct) < strchr(row_pc + 1, '\n'),
              "bypass-pc row says %s: %.120s", pct, row_pc);
    json_decref(doc);
    cli_result_free(&r);
    free(csv);
    free(json);
    free(trace);
    test_tmpdir_cleanup(dir);
}
