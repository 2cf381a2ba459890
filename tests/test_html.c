/* tests/test_html.c: the HTML report: every section present under its id,
 * every SVG well-formed XML, optional sections drawn when the report has
 * them and a note when not, nothing fetched from the network. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/cta_bins.h"
#include "reports/html.h"
#include "reports/kernel_digest.h"
#include "reports/numfmt.h"
#include "reports/report_doc.h"
#include "reports/svg.h"
#include "tests/helpers.h"
#include "tests/report_fixture.h"
#include "tests/xmlcheck.h"

#define FIXTURE "tests/fixtures/report-optional.json"

static const char *const section_ids[] = {
    "bypass", "pc-reuse-heatmap", "sm-sharing-heatmap", "cta-distance-chart", "access-heatmap",
    "mrc",    "replay",           "memory",             "mpli",               "remote-holders",
    "policy-compare", "pc-table", "store-pcs",
};
#define SECTIONS (sizeof section_ids / sizeof section_ids[0])

/* Renders doc into dir and returns the page. */
static char *render(const json_t *doc, const char *dir)
{
    char *path = test_path(dir, "report.html");
    ws_error err;
    cr_assert_eq(html_report_write(doc, NULL, path, &err), 0, "%s", err.msg);
    char *html = test_read_file(path, NULL);
    cr_assert_not_null(html);
    free(path);
    return html;
}

/* Every <svg>...</svg> parses as XML; returns how many there are. */
static int check_svgs(const char *html)
{
    int count = 0;
    for (const char *at = strstr(html, "<svg"); at; at = strstr(at, "<svg")) {
        const char *end = strstr(at, "</svg>");
        cr_assert_not_null(end, "unterminated svg");
        end += strlen("</svg>");
        char msg[200];
        int rc = xml_check(at, (size_t)(end - at), msg, sizeof msg);
        cr_assert_eq(rc, 0, "svg %d: %s: %.200s", count, msg, at);
        /* A NaN or infinity never reaches an attribute. */
        char *svg = strndup(at, (size_t)(end - at));
        cr_assert_null(strstr(svg, "nan\""), "NaN in svg %d", count);
        cr_assert_null(strstr(svg, "inf\""), "infinity in svg %d", count);
        free(svg);
        count++;
        at = end;
    }
    return count;
}

/* The text of <section id="id">...</section>, malloc'd; asserts it is
 * there exactly once. */
static char *section(const char *html, const char *id)
{
    char open[64];
    snprintf(open, sizeof open, "<section id=\"%s\">", id);
    const char *at = strstr(html, open);
    cr_assert_not_null(at, "no section %s", id);
    cr_assert_null(strstr(at + 1, open), "section %s twice", id);
    const char *end = strstr(at, "</section>");
    cr_assert_not_null(end);
    return strndup(at, (size_t)(end - at));
}

static int has_chart(const char *html, const char *id)
{
    char *s = section(html, id);
    int chart = strstr(s, "<svg") != NULL || strstr(s, "<table") != NULL;
    int absent = strstr(s, "class=\"absent\"") != NULL;
    free(s);
    cr_assert(chart != absent, "section %s: a chart or a note, not both or neither", id);
    return chart;
}

static void assert_self_contained(const char *html)
{
    cr_assert(strncmp(html, "<!DOCTYPE html>", 15) == 0);
    cr_assert_not_null(strstr(html, "</html>\n"));
    cr_assert_null(strstr(html, "<script"), "no script");
    cr_assert_null(strstr(html, "<link"), "no external style sheet");
    cr_assert_null(strstr(html, " src="), "nothing loaded");
    /* The only URL is the SVG namespace name, which is never fetched. */
    for (const char *at = strstr(html, "http"); at; at = strstr(at + 1, "http"))
        cr_assert(strncmp(at, "http://www.w3.org/2000/svg", 26) == 0 ||
                      strncmp(at, "http-equiv", 10) == 0,
                  "a URL: %.40s", at);
}

/* Renders doc, checks the page is self-contained and its SVGs well formed;
 * *svgs (if not NULL) gets their count. */
static char *render_checked(const json_t *doc, const char *dir, int *svgs)
{
    char *html = render(doc, dir);
    assert_self_contained(html);
    int n = check_svgs(html);
    if (svgs)
        *svgs = n;
    return html;
}

/* Section id of doc's page (checked as every page is), malloc'd. */
static char *rendered_section(const json_t *doc, const char *id)
{
    char *dir = test_tmpdir();
    char *html = render_checked(doc, dir, NULL);
    char *text = section(html, id);
    free(html);
    test_tmpdir_cleanup(dir);
    return text;
}

static json_t *load_fixture(void)
{
    json_error_t jerr;
    json_t *doc = json_load_file(FIXTURE, 0, &jerr);
    cr_assert_not_null(doc, "%s: %s", FIXTURE, jerr.text);
    return doc;
}

static json_t *parse(const char *text)
{
    json_error_t jerr;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &jerr);
    cr_assert_not_null(v, "%s: %s", text, jerr.text);
    return v;
}

/* A real analysis (gemm on Fermi): the analysis and replay sections are
 * drawn; the policy comparison (written by `profile`, not `analyze`) is a
 * note. */
Test(html, real_report_has_every_section)
{
    char *dir = test_tmpdir();
    json_t *doc = test_report_for(dir, "gemm", "fermi");
    int svgs;
    char *html = render_checked(doc, dir, &svgs);
    cr_assert_geq(svgs, 6, "two PC heatmaps, SM matrix, CTA bars, access map, MRC");
    const char *drawn[] = {"pc-reuse-heatmap", "sm-sharing-heatmap", "cta-distance-chart",
                           "access-heatmap", "mrc", "pc-table", "replay", "memory", "mpli",
                           "remote-holders"};
    for (size_t i = 0; i < sizeof drawn / sizeof drawn[0]; i++)
        cr_assert(has_chart(html, drawn[i]), "%s is drawn", drawn[i]);
    const char *notes[] = {"policy-compare", "bypass"};
    for (size_t i = 0; i < sizeof notes / sizeof notes[0]; i++)
        cr_assert(!has_chart(html, notes[i]), "%s is a note", notes[i]);
    char *bypass = section(html, "bypass");
    cr_assert_not_null(strstr(bypass, "warpscope profile"), "says how to get the hints");
    free(bypass);
    char *table = section(html, "pc-table");
    cr_assert_not_null(strstr(table, "gemm_kernel"));
    cr_assert_not_null(strstr(table, ">gemm.c:"), "file:line, the base name");
    free(table);
    cr_assert_not_null(strstr(html, "<header id=\"summary\">"));
    cr_assert_not_null(strstr(html, "rr,gto"), "the schedule is in the header");
    free(html);
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}

/* The optional sections, in exactly the shapes the replay will write, are
 * all drawn: a chart in every section, nulls and all. */
Test(html, optional_sections_are_drawn)
{
    char *dir = test_tmpdir();
    json_t *doc = load_fixture();
    int svgs;
    char *html = render_checked(doc, dir, &svgs);
    for (size_t i = 0; i < SECTIONS; i++)
        cr_assert(has_chart(html, section_ids[i]), "%s is drawn", section_ids[i]);
    cr_assert_geq(svgs, 11);
    char *compare = section(html, "policy-compare");
    cr_assert_not_null(strstr(compare, "0.67\xc3\x97"), "opt moves 4096/6144 of lru's L1->L2 bytes");
    free(compare);
    /* Launches of scale<float> are merged: 20 + 10 executions, U weighted by
     * requests (0.25·40 + 0.75·24) / 64, bypass in one of two launches: a
     * tie, kept, and the reason says so. */
    char *table = section(html, "pc-table");
    cr_assert_not_null(strstr(table, "scale&lt;float&gt;"), "names are escaped");
    cr_assert_not_null(strstr(table, ">30<"));
    cr_assert_not_null(strstr(table, "43.8%"));
    cr_assert_not_null(strstr(table, "<b>keep</b>"));
    cr_assert_not_null(strstr(table, "bypass in 1 of 2 launches"));
    cr_assert_not_null(strstr(table, "intra"), "the class of the launch with most executions");
    free(table);
    /* A long kernel name is shortened to fit, never the offset, in the
     * table and in the heatmap's row labels (with its source line). */
    cr_assert_not_null(strstr(html, ">gemm_tensorop_kernel_with_a..+0x1000</code>"));
    cr_assert_not_null(strstr(html, ">an_e..:1234 gemm_tensorop_k..+0x1000</text>"));
    char *stores = section(html, "store-pcs");
    cr_assert_not_null(strstr(stores, "scale.cu:13 \xc2\xb7 @P0 STG.E"), "a predicated store");
    free(stores);
    cr_assert_not_null(strstr(html, "fixture &lt;a&amp;b&gt;.wst"), "the trace path is escaped");
    free(html);
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}

/* Each of expected[0, n) is in section `id` of the fixture's page, which
 * is drawn, not a note. */
static void expect_in_fixture_section(const char *id, const char *const *expected, size_t n)
{
    char *dir = test_tmpdir();
    json_t *doc = load_fixture();
    char *html = render_checked(doc, dir, NULL);
    char *s = section(html, id);
    for (size_t i = 0; i < n; i++)
        cr_expect_not_null(strstr(s, expected[i]), "no %s in %s", expected[i], s);
    cr_expect_null(strstr(s, "class=\"absent\""));
    free(s);
    free(html);
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}

/* The fixture's bypass hints, as `profile` prints them: the verdict on the
 * bytes below L1 (5632 + 2048 before, 4608 + 2048 after), the changes
 * ranked by what each saves of those 7680 bytes and grouped by source line
 * (scale.cu:12's second change leaves its place blank), the file whose
 * every load goes, each PC's verdict, the replays before and after on the
 * same bytes. */
Test(html, bypass_section_lists_the_source_lines_to_change)
{
    const char *expected[] = {
        "<b>verdict:</b> bypass L1 at 1 load PC: 1.00 KiB less traffic below L1 "
        "(L1 -&gt; L2 and DRAM, -13.3%)",
        "<tr><td class=\"code\">scale.cu:12</td><td>load with __ldcg</td><td class=\"n\">1.00 KiB</td>"
        "<td class=\"n\">-13.3%</td><td>replay</td><td>scale&lt;float&gt;+0x10: 43.8% of its",
        "<tr><td class=\"code\"></td><td>coalesce accesses</td><td class=\"n\">512 B</td>"
        "<td class=\"n\">-6.7%</td><td>estimate</td>",
        "<tr><td class=\"code\">every kernel</td><td>schedule CTAs that share data on one SM</td>"
        "<td class=\"n\">256 B</td><td class=\"n\">-3.3%</td><td>replay</td>",
        "<td class=\"code\">scale.cu</td><td>every load listed: compile it with -Xptxas "
        "-dlcm=cg</td><td class=\"n\">up to 1.00 KiB</td>",
        "<td class=\"code\">copy+0x30</td><td class=\"code\">-</td>",
        ">43.8%<", ">keep<", ">untested<", ">-13.3%<",
        "lines touched by cached global loads 20, bypass-worthy 12 (60.0%)",
        ">bypass-table</td><td class=\"n\">5.50 KiB</td><td class=\"n\">-26.7%</td>"
        "<td class=\"n\">40.0%</td><td class=\"n\">-25.0</td>",
        "L1 miss rate of the cached loads*", "S1&#39;s measure",
    };
    expect_in_fixture_section("bypass", expected, sizeof expected / sizeof expected[0]);
}

/* The fixture's memory workload: the chart's hover texts and the table
 * by source line (scale.cu:12 merges two launches: 60 + 40 sectors, 36 in
 * excess of 64). */
Test(html, memory_section_draws_the_fixture)
{
    const char *expected[] = {
        "<title>loads, SM \xe2\x86\x92 L1: 64 requests, 100 sectors of 32 B, 2,048 bytes asked "
        "for by the lanes</title>",
        "<title>loads, L1 \xe2\x86\x92 L2: 40 requests, 160 sectors of 32 B, 5,120 bytes read</title>",
        "<title>stores, L1 \xe2\x86\x92 L2: 4 requests, 16 sectors of 32 B, 512 bytes written</title>",
        "<title>write-backs, L2 \xe2\x86\x94 DRAM: 2 requests, 8 sectors of 32 B, 256 bytes "
        "written</title>",
        "<title>loads: L1 hit rate 31.2%</title>", "<title>stores: L2 hit rate 50.0%</title>",
        ">3 slices<",
        "<td class=\"code\">scale.cu:12</td><td>load</td><td class=\"n\">30</td>"
        "<td class=\"n\">64</td><td class=\"n\">100</td><td class=\"n\">1.56</td>"
        "<td class=\"n\">64</td><td class=\"n\">36</td><td class=\"n\">36.0%</td>",
        "<td class=\"code\">scale&lt;float&gt;+0x20</td><td>store</td>",
        "loads: 1.56 sectors per request, 36 of 100 sectors in excess (36.0%)",
        "Min 10, mean 14.7 (dashed), max 20 requests (the busiest slice, in orange, takes "
        "1.36\xc3\x97 the mean)",
        "<title>slice 0 (the busiest): 20 requests</title>", "<title>slice 2: 10 requests</title>",
    };
    expect_in_fixture_section("memory", expected, sizeof expected / sizeof expected[0]);
}

/* The numbers of a real analysis' memory chart are report.json's: every
 * arrow's hover text carries its link's exact figures, the boxes the hit
 * rates, the slice bars each slice's requests. */
Test(html, memory_chart_numbers_match_the_report)
{
    static const char *const keys[] = {"loads", "stores", "atomics", "write_backs"};
    static const char *const names[] = {"loads", "stores", "atomics", "write-backs"};
    static const char *const links[][2] = {{"l1", "SM \xe2\x86\x92 L1"},
                                           {"l1_to_l2", "L1 \xe2\x86\x92 L2"},
                                           {"l2_to_dram", "L2 \xe2\x86\x94 DRAM"}};
    char *dir = test_tmpdir();
    json_t *doc = test_report_for(dir, "gemm", "fermi");
    char *html = render_checked(doc, dir, NULL);
    char *s = section(html, "memory");
    const json_t *memory = report_at(doc, "summary.memory");
    int arrows = 0;
    for (size_t k = 0; k < 4; k++) {
        for (size_t l = 0; l < 3; l++) {
            const json_t *f = report_at(report_at(memory, keys[k]), links[l][0]);
            if (!f || !(report_num(f, "requests") > 0))
                continue;
            char tip[256];
            snprintf(tip, sizeof tip, "<title>%s, %s: %s requests, %s sectors of 32 B, %s bytes ",
                     names[k], links[l][1], numfmt_grouped((unsigned long long)report_num(f, "requests")).s,
                     numfmt_grouped((unsigned long long)report_num(f, "sectors")).s,
                     numfmt_grouped((unsigned long long)report_num(f, "bytes")).s);
            cr_expect_not_null(strstr(s, tip), "no %s", tip);
            arrows++;
        }
    }
    cr_expect_geq(arrows, 6, "loads and stores on their three links");
    char tip[128];
    snprintf(tip, sizeof tip, "<title>loads: L1 hit rate %s</title>",
             numfmt_percent(report_num(doc, "summary.replay.l1.hit_rate")).s);
    cr_expect_not_null(strstr(s, tip), "the L1 box holds the replay's hit rate: %s", tip);
    double slices[64];
    size_t n = report_nums(memory, "l2_slices.requests", slices, 64);
    cr_expect_eq(n, 6, "fermi has 6 L2 slices");
    for (size_t i = 0; i < n; i++) { /* the busiest says so */
        numtext count = numfmt_grouped((unsigned long long)slices[i]);
        char busiest[128];
        snprintf(tip, sizeof tip, "<title>slice %zu: %s requests</title>", i, count.s);
        snprintf(busiest, sizeof busiest, "<title>slice %zu (the busiest): %s requests</title>", i,
                 count.s);
        cr_expect(strstr(s, tip) || strstr(s, busiest), "no %s", tip);
    }
    cr_expect_not_null(strstr(s, ">gemm.c:"), "the table names source lines");
    free(s);
    free(html);
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}


/* A report document from text without its version: this reader's. */
static json_t *parse_report(const char *text)
{
    json_t *doc = parse(text);
    json_object_set_new(doc, "version", json_integer(REPORT_VERSION));
    return doc;
}

/* The page of a real gaussian analysis: 126 launches of two kernels. */
static char *gaussian_page(char *dir)
{
    json_t *doc = test_report_for(dir, "gaussian", "fermi");
    cr_assert_eq(json_array_size(json_object_get(doc, "kernels")), 126);
    char *html = render_checked(doc, dir, NULL);
    json_decref(doc);
    return html;
}

static size_t count_of(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *at = strstr(text, what); at; at = strstr(at + 1, what))
        n++;
    return n;
}

/* gaussian's 126 launches of Fan1 and Fan2 are two rows of the replay's
 * kernel table and one row per PC in the PC table; each launch's figures
 * are a <details> away. */
Test(html, kernels_roll_up_with_launches_on_demand)
{
    char *dir = test_tmpdir();
    char *html = gaussian_page(dir);
    char *replay = section(html, "replay");
    const char *table = strstr(replay, "<h3>Per kernel</h3>");
    cr_assert_not_null(table);
    char *rows = strndup(table, (size_t)(strstr(table, "</table>") - table));
    cr_assert_eq(count_of(rows, "<tr>"), 3, "a head and one row per kernel name: %s", rows);
    cr_assert_not_null(strstr(rows, ">Fan1<"), "demangled");
    cr_assert_not_null(strstr(rows, ">63<"), "its launches");
    free(rows);
    cr_assert_not_null(strstr(replay, "<details><summary>Fan1: its 63 launches</summary>"));
    cr_assert_not_null(strstr(replay, "<details><summary>Fan2: its 63 launches</summary>"));
    cr_assert_eq(count_of(replay, "<tr>"), 3 + 2 * (1 + 63) + 3, "the launches are in the details");
    /* The mangled name is on hover only (reports/pc_label.h), never shown. */
    cr_assert_null(strstr(replay, ">_Z4Fan1"), "no mangled name shown");
    cr_assert_not_null(strstr(replay, "title=\"Fan1 (mangled: _Z4Fan1PfS_ii)\""), "on hover");
    free(replay);
    char *pcs = section(html, "pc-table");
    cr_assert_eq(count_of(pcs, "<td class=\"pc\">"), 8, "one row per load PC of each name");
    cr_assert_eq(count_of(pcs, ">Fan1+0x16000<"), 1);
    cr_assert_eq(count_of(pcs, "<details><summary>63</summary><table class=\"launches\">"), 8);
    cr_assert_eq(count_of(pcs, "<tr>"), 1 + 8 * (1 + 64), "63 launches under each PC");
    free(pcs);
    free(html);
    test_tmpdir_cleanup(dir);
}

/* Store PCs are listed apart: the load table's hit rate and verdict are
 * about loads.  Without --include-stores the page says how to count them. */
Test(html, store_pcs_have_their_own_table)
{
    char *dir = test_tmpdir();
    char *html = gaussian_page(dir);
    char *loads = section(html, "pc-table"), *stores = section(html, "store-pcs");
    cr_assert_null(strstr(loads, "STG"), "no store among the loads");
    cr_assert_not_null(strstr(loads, "LDG.E"));
    cr_assert_eq(count_of(stores, "<td class=\"pc\">"), 3, "Fan1 stores once, Fan2 twice");
    cr_assert_eq(count_of(stores, "STG.E"), 3);
    cr_assert_eq(count_of(stores, "<td>store</td>"), 3);
    cr_assert_null(strstr(stores, "LDG"));
    cr_assert_not_null(strstr(stores, "--include-stores"));
    free(loads);
    free(stores);
    free(html);
    test_tmpdir_cleanup(dir);
}

/* A PC that hits 93% while its lines fill streaming, and a bypass verdict
 * beside it: the row says why; the how-to defines each column; the
 * verdict words are bypass and keep only.  A long kernel name is
 * shortened, never the offset. */
Test(html, verdicts_say_why)
{
    json_t *doc = parse_report(
        "{\"schema\": \"warpscope-report\", \"summary\": {}, \"kernels\": [{"
        "\"name\": \"a_kernel_with_a_name_much_longer_than_any_column<float, 4>\", \"pcs\": ["
        "{\"offset\": 16, \"sass\": \"LDG.E\", \"file\": \"src/k.cu\", \"line\": 7, \"executions\": 10,"
        " \"requests\": 100, \"locality\": {\"class\": \"streaming\"},"
        " \"replay\": {\"l1_hits\": 93, \"l1_misses\": 7},"
        " \"bypass\": {\"share\": 0.9, \"recommend\": true, \"traffic_change_bytes\": -2048}},"
        "{\"offset\": 32, \"sass\": \"LDG.E\", \"executions\": 10, \"requests\": 100,"
        " \"locality\": {\"class\": \"inter\"}, \"replay\": {\"l1_hits\": 80, \"l1_misses\": 20},"
        " \"bypass\": {\"share\": 0.5, \"recommend\": false, \"traffic_change_bytes\": 4096}},"
        "{\"offset\": 48, \"sass\": \"LDG.E\", \"executions\": 1, \"requests\": 1,"
        " \"bypass\": {\"share\": 0, \"recommend\": false, \"traffic_change_bytes\": null}}]}]}");
    char *table = rendered_section(doc, "pc-table");
    const char *row = strstr(table, "<b>bypass</b>");
    cr_assert_not_null(row);
    cr_assert_not_null(strstr(row, "saved 2 KiB of L1"), "what the replay measured");
    cr_assert_not_null(strstr(row, "90.0% of its requests go to lines Eq. 1 calls bypass-worthy"));
    cr_assert_not_null(strstr(row, "Streaming describes the lines it fills"), "%s", row);
    cr_assert_not_null(strstr(row, "its 93.0% hit rate counts its requests"));
    cr_assert_not_null(strstr(table, "added 4 KiB"), "a keep verdict says what bypassing cost");
    cr_assert_not_null(strstr(table, "Not replayed with this PC bypassed"));
    for (const char *at = strstr(table, "<td class=\"verdict\">"); at;
         at = strstr(at + 1, "<td class=\"verdict\">")) {
        const char *word = at + strlen("<td class=\"verdict\">");
        cr_assert(strncmp(word, "<b>bypass</b>", 13) == 0 || strncmp(word, "<b>keep</b>", 11) == 0,
                  "%.40s", word);
    }
    cr_assert_not_null(strstr(table, "<dl class=\"columns\">"), "the columns are defined");
    cr_assert_not_null(strstr(table, "<dt>L1 hit rate</dt><dd>in the cache replay"));
    cr_assert_not_null(strstr(table, "whoever filled it"));
    cr_assert_not_null(strstr(table, "<dt>verdict</dt>"));
    cr_assert_not_null(strstr(table, "<dt>locality</dt>"));
    cr_assert_not_null(strstr(table, ">a_kernel_with_a_name_much_lon..+0x10<"),
                       "shortened to fit, the offset whole");
    cr_assert_not_null(strstr(table, "title=\"a_kernel_with_a_name_much_longer_than_any_column"
                                     "&lt;float, 4&gt;+0x10\""), "the whole name on hover");
    cr_assert_not_null(strstr(table, "k.cu:7 \xc2\xb7 LDG.E"), "file:line and SASS");
    free(table);
    json_decref(doc);
}

/* The smallest valid report: every section is a note, nothing crashes. */
Test(html, bare_report_gives_notes)
{
    char *dir = test_tmpdir();
    json_t *doc = json_pack("{s:s,s:i,s:{},s:[]}", "schema", "warpscope-report", "version",
                            REPORT_VERSION, "summary", "kernels");
    char *html = render_checked(doc, dir, NULL);
    for (size_t i = 0; i < SECTIONS; i++)
        cr_assert(!has_chart(html, section_ids[i]), "%s is a note", section_ids[i]);
    cr_assert_not_null(strstr(html, "n/a"), "missing figures read n/a");
    free(html);
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}

/* A sampled curve draws only the sizes the sample resolves, and says so. */
Test(html, sampled_curve_skips_unresolved_sizes)
{
    json_t *doc = parse_report(
        "{\"schema\": \"warpscope-report\", \"kernels\": [], \"options\": {\"sample_rate\": 0.01},"
        " \"gpu\": {\"l1\": {\"size\": 16384}, \"l2\": {\"size\": 786432}},"
        " \"summary\": {\"mrc\": {\"l1\": ["
        "{\"lines\": 64, \"bytes\": 8192, \"miss_ratio\": null, \"resolved\": false},"
        "{\"lines\": 128, \"bytes\": 16384, \"miss_ratio\": 0.5, \"resolved\": true},"
        "{\"lines\": 256, \"bytes\": 32768, \"miss_ratio\": 0.25, \"resolved\": true}]}}}");
    char *text = rendered_section(doc, "mrc");
    cr_assert(strstr(text, "sampled at R = 0.01"), "%s", text);
    cr_assert(strstr(text, "sizes below 100 lines are not resolved"), "%s", text);
    cr_assert_null(strstr(text, "nan"), "no point from a null ratio");
    free(text);
    json_decref(doc);
}

/* Wrong types and odd shapes where numbers should be: still a page. */
Test(html, malformed_sections_do_not_crash)
{
    char *dir = test_tmpdir();
    json_t *doc = load_fixture();
    json_t *summary = json_object_get(doc, "summary");
    json_t *sharing = json_object_get(summary, "sharing");
    json_object_set_new(sharing, "sm_matrix", parse("[[1, 2], [3]]")); /* ragged */
    json_object_set_new(sharing, "cta_distance_exact", json_string("many"));
    json_object_set_new(json_object_get(summary, "replay"), "mpli", parse("{\"coherent\": [1, 2]}"));
    json_object_set_new(json_object_get(summary, "mrc"), "l1", json_null());
    json_object_set_new(doc, "access_map", parse("{\"counts\": [[1], \"x\"], \"regions\": []}"));
    json_object_set_new(doc, "compare", parse("{\"policies\": [null, {}]}"));
    json_object_set_new(doc, "bypass", parse("{\"pcs\": [1, {\"offset\": \"x\"}], \"before_after\": []}"));
    json_object_set_new(summary, "memory", parse("{\"loads\": [], \"l2_slices\": {\"requests\": \"x\"}}"));
    json_array_append_new(json_object_get(doc, "kernels"), json_string("not a kernel"));
    char *html = render_checked(doc, dir, NULL);
    cr_assert(!has_chart(html, "sm-sharing-heatmap"));
    cr_assert(!has_chart(html, "mpli"));
    cr_assert(!has_chart(html, "access-heatmap"));
    cr_assert(has_chart(html, "policy-compare"), "present policies, figures n/a");
    free(html);
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}

/* Bars of the CTA-distance chart are pairs per unit of distance: the
 * power-of-two bins would otherwise tower by their width alone; a bin past
 * the largest distance of any launch (50 CTAs: 49) spans only up to it. */
Test(html, cta_distance_bars_are_a_density)
{
    json_t *doc = parse_report("{\"schema\": \"warpscope-report\", \"summary\": {\"sharing\": {"
                        "\"cta_distance_exact\": [0, 10, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],"
                        "\"cta_distance_log2\": [0, 0, 0, 0, 32, 36, 0]}},"
                        "\"kernels\": [{\"grid\": [25, 2, 1]}, {\"grid\": [4, 1, 1]}]}");
    cta_bin bins[CTA_BINS_MAX];
    int present;
    kernel_digest digest;
    ws_error err;
    cr_assert_eq(kernel_digest_build(&digest, doc, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(digest.largest_cta_distance, 49, "the largest grid has 50 CTAs");
    cr_assert_eq(cta_bins_read(doc, digest.largest_cta_distance, bins, &present), 17,
                 "15 distances, 16-31, 32-49");
    kernel_digest_free(&digest);
    cr_assert(present);
    cr_assert_float_eq(bins[0].density, 10, 1e-12);
    cr_assert_float_eq(bins[1].density, 4, 1e-12);
    cr_assert_eq(bins[15].low, 16);
    cr_assert_eq(bins[15].high, 31);
    cr_assert_float_eq(bins[15].density, 2, 1e-12, "32 pairs over 16 distances");
    cr_assert_eq(bins[16].high, 49, "no launch has a distance past 49");
    cr_assert_float_eq(bins[16].density, 2, 1e-12, "36 pairs over the 18 distances 32-49");
    cr_assert_str_eq(bins[16].label, "32-49");
    char *chart = rendered_section(doc, "cta-distance-chart");
    cr_assert_not_null(strstr(chart, "CTA pairs per unit distance"), "the axis says what a bar is");
    cr_assert_not_null(strstr(chart, "distances 16-31: 32 pairs over 16 distances, 2 per distance"));
    cr_assert_not_null(strstr(chart, "distance 1: 10 pairs"));
    free(chart);
    json_decref(doc);
}

/* The SM sharing matrix spends its colours on the differences between
 * pairs: from the least to the most shared pair, as its legend says. */
/* The colour-scale rule (docs/html-report.md, "Colour scales"): counts
 * from 0 to the largest cell, the diagonal off the scale. */
Test(html, sm_sharing_counts_are_coloured_from_zero)
{
    json_t *doc = parse_report("{\"schema\": \"warpscope-report\", \"summary\": {\"sharing\": {"
                        "\"sm_matrix\": [[900, 100, 200], [100, 800, 150], [200, 150, 700]]}},"
                        "\"kernels\": []}");
    char *chart = rendered_section(doc, "sm-sharing-heatmap");
    cr_assert_not_null(strstr(chart, "colours from 0 to the largest cell"), "%s", chart);
    cr_assert_not_null(strstr(chart, ">0</text>"), "the scale starts at 0");
    cr_assert_not_null(strstr(chart, ">200</text>"), "and ends at the most shared pair");
    cr_assert_null(strstr(chart, ">900</text>"), "the diagonal is off the scale");
    /* Round ticks between the ends. */
    cr_assert_not_null(strstr(chart, ">100</text>"), "%s", chart);
    free(chart);
    json_decref(doc);
}

/* Shares are coloured over the data's range, which the legend states. */
Test(html, shares_are_coloured_over_their_range)
{
    json_t *doc = parse_report("{\"schema\": \"warpscope-report\", \"summary\": {\"replay\": {"
                               "\"urc\": 0.5, \"remote_holders\": [[0.94, 0.95], [0.96, 0.97]]}},"
                               "\"kernels\": []}");
    char *chart = rendered_section(doc, "remote-holders");
    cr_assert_not_null(strstr(chart, "colours span the data: 94.0% to 97.0%"), "%s", chart);
    free(chart);
    json_decref(doc);
}

/* The reuse maps mark the L1 and the L2 at their capacity in lines and
 * give each PC's share of the requests; the sharing caption counts the
 * trace's distinct blocks; the access map names rows by allocation and
 * labels time at round values. */
Test(html, charts_of_a_real_analysis_do_not_mislead, .timeout = 120)
{
    char *dir = test_tmpdir();
    json_t *doc = test_report_for(dir, "gaussian", "fermi");
    char *html = render_checked(doc, dir, NULL);
    char *reuse = section(html, "pc-reuse-heatmap");
    cr_assert_not_null(strstr(reuse, "L1: 128 lines"), "no L1 marker");
    cr_assert_not_null(strstr(reuse, "class=\"capacity\""), "no capacity line");
    /* The L2 (6,144 lines) is longer than any reuse of this trace. */
    cr_assert_not_null(strstr(reuse, "The L2 (6.1k lines) holds more than the longest reuse"), "%s",
                       reuse);
    cr_assert_not_null(strstr(reuse, "its requests"), "no request shares");
    cr_assert_not_null(strstr(reuse, "of the requests</title>"), "no share in a tip");
    char *sharing = section(html, "sm-sharing-heatmap");
    json_t *summary = json_object_get(json_object_get(doc, "summary"), "sharing");
    long long distinct = (long long)json_number_value(json_object_get(summary, "distinct_blocks"));
    long long per_launch = (long long)json_number_value(json_object_get(summary, "blocks"));
    cr_assert(distinct > 0 && distinct < per_launch, "%lld distinct, %lld per launch", distinct,
              per_launch);
    char expect[96];
    snprintf(expect, sizeof expect, "The trace touched %lld distinct blocks of 128 bytes",
             distinct);
    cr_assert_not_null(strstr(sharing, expect), "%s", sharing);
    char *access = section(html, "access-heatmap");
    cr_assert_not_null(strstr(access, ">alloc 0 +"), "rows are not named by allocation");
    /* No tick label twice (round ticks, not bin starts rounded). */
    const char *at = access;
    char labels[32][16];
    int n = 0;
    while ((at = strstr(at, "class=\"tick\">")) && n < 32) {
        at += strlen("class=\"tick\">");
        size_t len = strcspn(at, "<");
        if (len < 16 && strchr("0123456789", at[0]) && memchr(at, 'k', len)) {
            snprintf(labels[n], sizeof labels[n], "%.*s", (int)len, at);
            for (int k = 0; k < n; k++)
                cr_assert_str_neq(labels[k], labels[n], "tick %s twice", labels[n]);
            n++;
        }
    }
    cr_assert(n >= 2, "%d time ticks", n);
    free(reuse);
    free(sharing);
    free(access);
    free(html);
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}

/* OPT is named as the bound on hits, its traffic explained; equal bars
 * get a note saying why. */
Test(html, opt_is_the_bound_and_equal_bars_say_why)
{
    json_t *doc = parse_report(
        "{\"schema\": \"warpscope-report\", \"summary\": {\"replay\": {\"miss_classes\": "
        "{\"cold\": 100, \"intra_warp\": 0, \"inter_warp\": 0, \"write_evict\": 0}}},"
        "\"compare\": {\"policies\": ["
        "{\"name\": \"lru\", \"l1_policy\": \"lru\", \"l2_policy\": \"lru\", "
        " \"l1\": {\"hit_rate\": 0.3}, \"l2\": {\"hit_rate\": 0.9}, "
        " \"traffic\": {\"l1_to_l2_bytes\": 1000}},"
        "{\"name\": \"opt\", \"l1_policy\": \"opt\", \"l2_policy\": \"lru\", "
        " \"l1\": {\"hit_rate\": 0.3}, \"l2\": {\"hit_rate\": 0.9}, "
        " \"traffic\": {\"l1_to_l2_bytes\": 700}}]}, \"kernels\": []}");
    char *compare = rendered_section(doc, "policy-compare");
    cr_assert_not_null(strstr(compare, "opt (bound on hits)"), "%s", compare);
    cr_assert_not_null(strstr(compare, ">opt (bound)</text>"), "%s", compare);
    cr_assert_not_null(strstr(compare, "Its traffic is not a bound"), "%s", compare);
    cr_assert_not_null(strstr(compare, "Every policy has the same hit rates on this trace"), "%s",
                       compare);
    cr_assert_not_null(strstr(compare, "100.0% of the L1 misses are cold"), "%s", compare);
    free(compare);
    json_decref(doc);
}

Test(html, refuses_other_documents_and_leaves_no_file)
{
    char *dir = test_tmpdir(), *path = test_path(dir, "out.html");
    ws_error err;
    json_t *doc = json_pack("{s:s}", "schema", "something-else");
    cr_assert_eq(html_report_write(doc, NULL, path, &err), -1);
    cr_assert(strstr(err.msg, "not a warpscope report") != NULL, "%s", err.msg);
    json_decref(doc);
    doc = json_pack("{s:s,s:i,s:{},s:[]}", "schema", "warpscope-report", "version", 4, "summary",
                    "kernels");
    cr_assert_eq(html_report_write(doc, NULL, path, &err), -1);
    cr_assert_str_eq(err.msg, "report version 4 is not supported (this warpscope reads versions 2 to 3)");
    cr_assert_null(test_read_file(path, NULL));
    json_decref(doc);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(html, numbers_read_at_a_glance)
{
    cr_assert_str_eq(numfmt_count(1234567).s, "1.2M");
    cr_assert_str_eq(numfmt_count(987).s, "987");
    cr_assert_str_eq(numfmt_count(12000).s, "12k");
    cr_assert_str_eq(numfmt_count(2.41).s, "2.41");
    cr_assert_str_eq(numfmt_percent(0.345).s, "34.5%");
    cr_assert_str_eq(numfmt_percent(0.0004).s, "0.04%");
    cr_assert_str_eq(numfmt_percent(NAN).s, "n/a");
    cr_assert_str_eq(numfmt_bytes(16384).s, "16 KiB");
    cr_assert_str_eq(numfmt_bytes(1536 * 1024).s, "1.5 MiB");
    cr_assert_str_eq(numfmt_bytes(128).s, "128 B");
    cr_assert_str_eq(numfmt(NUMFMT_TIMES, 0.78).s, "0.78\xc3\x97");
}

/* The SVG writer's own output, on hostile text and numbers. */
Test(html, svg_writer_escapes_and_guards_numbers)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    svg_open(out, 100, 50, "a \"label\" & <more>");
    svg_rect(out, NAN, INFINITY, -3, 2, "#000000", "tip <b>&'x'</b>");
    svg_text(out, 1, 2, "middle", -90, "tick", "k<float>&\x01");
    svg_circle(out, 1, 1, 2, "#fff", 1, NULL);
    svg_close(out);
    fclose(out);
    char msg[200];
    cr_assert_eq(xml_check(buf, len, msg, sizeof msg), 0, "%s: %s", msg, buf);
    cr_assert_not_null(strstr(buf, "x=\"0\" y=\"0\" width=\"0\""), "%s", buf);
    cr_assert_not_null(strstr(buf, "k&lt;float&gt;&amp;?"), "%s", buf);
    cr_assert_not_null(strstr(buf, "&#39;x&#39;"), "%s", buf);
    free(buf);
}

/* The checker itself must reject what a broken writer would produce. */
Test(html, xml_checker_rejects_malformed_svg)
{
    const char *good[] = {
        "<svg a=\"1\"><g><rect/></g></svg>",
        "  <svg b='x &amp; &#39; &#x41;'>text &lt; <!-- c --></svg>\n",
    };
    const char *bad[] = {
        "<svg><g></svg>",          "<svg a=1></svg>",          "<svg a=\"1\" a=\"2\"/>",
        "<svg>&nbsp;</svg>",       "<svg>a & b</svg>",         "<svg a=\"<\"/>",
        "<svg></svg><svg></svg>",  "<svg a=\"1\"b=\"2\"/>",    "<svg>",
        "<svg><1/></svg>",         "<svg a=\"&#;\"/>",         "text",
    };
    char msg[200];
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
        cr_assert_eq(xml_check(good[i], strlen(good[i]), msg, sizeof msg), 0, "%s: %s", good[i], msg);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_assert_eq(xml_check(bad[i], strlen(bad[i]), msg, sizeof msg), -1, "accepted %s", bad[i]);
}
