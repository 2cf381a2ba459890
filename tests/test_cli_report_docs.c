/* tests/test_cli_report_docs.c: `warpscope report` beyond one report.json:
 * against a baseline (--baseline, terminal and HTML), the JSON of replay,
 * compare and sweep, and the HTML's per-kernel sections. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"

static char *dir, *trace;

static void setup(void)
{
    dir = test_tmpdir();
    trace = test_record_trace(dir, "gaussian");
}

static void teardown(void)
{
    free(trace);
    test_tmpdir_cleanup(dir);
}

TestSuite(cli_report_docs, .init = setup, .fini = teardown);

static void run_ok(cli_result r)
{
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
}

/* The text between the section with id and its end. */
static char *section(const char *page, const char *id)
{
    char open[128];
    snprintf(open, sizeof open, "<section id=\"%s\"", id);
    const char *begin = strstr(page, open);
    cr_assert_not_null(begin, "no section %s", id);
    const char *end = strstr(begin, "</section>");
    return strndup(begin, (size_t)(end - begin));
}

/* gaussian's 126 launches against a baseline of its Fan2 launches alone:
 * Fan2 is in both, Fan1 in this report only. */
Test(cli_report_docs, baseline_terminal_and_html)
{
    char *now = test_path(dir, "now.json"), *then = test_path(dir, "then.json");
    char *html = test_path(dir, "b.html");
    run_ok(cli_run("analyze", trace, "--gpu", "fermi", "-o", now, "--quiet", NULL));
    run_ok(cli_run("analyze", trace, "--gpu", "fermi", "-o", then, "--quiet", "-k", "Fan2", NULL));
    cli_result r = cli_run("report", now, "--baseline", then, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "figure                        this        baseline    change      relative\n"),
              "%s", r.out);
    cr_assert(strstr(r.out, "kernel launches               126         63          +63         +100.0%\n"),
              "%s", r.out);
    cr_assert(strstr(r.out, "\nkernels in both, matched by name (launches summed):\n\n  Fan2\n"), "%s",
              r.out);
    /* Fan2's own figures are the same in both runs: no change. */
    cr_assert(strstr(r.out, "  launches                      63          63          0           +0.0%\n"),
              "%s", r.out);
    char only[600];
    snprintf(only, sizeof only, "\nkernels only in %s (not compared):\n  Fan1\n", now);
    cr_assert(strstr(r.out, only), "%s", r.out);
    cli_result_free(&r);

    run_ok(cli_run("report", now, "--baseline", then, "--html", html, NULL));
    char *page = test_read_file(html, NULL);
    cr_assert_not_null(page);
    cr_assert(strstr(page, "<a href=\"#baseline\">baseline</a>"));
    char *b = section(page, "baseline");
    cr_assert(strstr(b, "<th>figure</th><th>this report</th><th>baseline</th><th>change</th>"
                        "<th>relative</th>"), "%s", b);
    cr_assert(strstr(b, "<tr><td>kernel launches</td><td class=\"n\">126</td><td class=\"n\">63</td>"
                        "<td class=\"n\">+63</td><td class=\"n\">+100.0%</td></tr>"), "%s", b);
    cr_assert(strstr(b, "<td rowspan=\"6\"><code>Fan2</code></td>"), "%s", b);
    cr_assert(strstr(b, "<h3>Kernels only in this report (not compared)</h3>\n<ul class=\"only\">"
                        "<li><code>Fan1</code></li></ul>"), "%s", b);
    free(b);
    free(page);
    free(now);
    free(then);
    free(html);
}

Test(cli_report_docs, baseline_errors_are_one_line)
{
    char *now = test_path(dir, "now.json"), *html = test_path(dir, "b.html");
    char *missing = test_path(dir, "missing.json"), *compare = test_path(dir, "c.json");
    run_ok(cli_run("analyze", trace, "--gpu", "fermi", "-o", now, "--quiet", NULL));
    cli_result r = cli_run("report", now, "--baseline", missing, "--html", html, NULL);
    char expect[600];
    snprintf(expect, sizeof expect, "warpscope: %s: cannot open: No such file or directory\n", missing);
    cr_assert_eq(r.status, 1);
    cr_assert_str_eq(r.err, expect);
    cr_assert(access(html, F_OK) != 0, "no page is written");
    cli_result_free(&r);
    run_ok(cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,srrip", "-o", compare, NULL));
    r = cli_run("report", compare, "--baseline", now, NULL);
    cr_assert_eq(r.status, 1);
    cr_assert(test_is_one_line(r.err) && strstr(r.err, "this is a warpscope-compare document"), "%s",
              r.err);
    cli_result_free(&r);
    free(now);
    free(html);
    free(missing);
    free(compare);
}

Test(cli_report_docs, compare_json)
{
    char *json = test_path(dir, "c.json"), *html = test_path(dir, "c.html");
    run_ok(cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,srrip", "-o", json, NULL));
    cli_result r = cli_run("report", json, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strncmp(r.out, "warpscope-compare\n", 18) == 0, "%s", r.out);
    cr_assert(strstr(r.out, "\nlru ") && strstr(r.out, "\nsrrip "), "%s", r.out);
    cr_assert(strstr(r.out, "1.00\xc3\x97\n"), "%s", r.out); /* the first, relative to itself */
    cli_result_free(&r);
    run_ok(cli_run("report", json, "--html", html, NULL));
    char *page = test_read_file(html, NULL);
    char *s = section(page, "policy-compare");
    cr_assert_null(strstr(s, "Not in this report"), "%s", s);
    cr_assert(strstr(s, "<td class=\"code\">srrip</td>"), "%s", s);
    free(s);
    free(page);
    free(json);
    free(html);
}

Test(cli_report_docs, replay_json)
{
    char *json = test_path(dir, "r.json"), *html = test_path(dir, "r.html");
    run_ok(cli_run("replay", trace, "--gpu", "fermi", "-o", json, "--launch-count", "3", NULL));
    cli_result r = cli_run("report", json, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strncmp(r.out, "warpscope-replay\n", 17) == 0, "%s", r.out);
    cr_assert(strstr(r.out, "policies  L1 lru, L2 lru\n"), "%s", r.out);
    cr_assert(strstr(r.out, "\nwhole trace ") && strstr(r.out, "\n0 Fan1 ") &&
                  strstr(r.out, "\n1 Fan2 ") && strstr(r.out, "\n2 Fan1 "), "%s", r.out);
    cli_result_free(&r);
    run_ok(cli_run("report", json, "--html", html, NULL));
    char *page = test_read_file(html, NULL);
    char *s = section(page, "replay");
    cr_assert(strstr(s, "<h3>Per launch</h3>"), "%s", s);
    cr_assert(strstr(s, "<td class=\"n\">2</td><td class=\"code\">Fan1</td>"), "%s", s);
    free(s);
    free(page);
    free(json);
    free(html);
}

Test(cli_report_docs, sweep_json)
{
    char *json = test_path(dir, "s.json"), *html = test_path(dir, "s.html");
    run_ok(cli_run("sweep", trace, "--gpu", "fermi", "--n-max", "4", "-o", json, "--launch-count",
                   "4", NULL));
    cli_result r = cli_run("report", json, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strncmp(r.out, "warpscope-sweep\n", 16) == 0, "%s", r.out);
    cr_assert(strstr(r.out, "grid      N, p = 1 .. 4 (10 points)\n"), "%s", r.out);
    cr_assert(strstr(r.out, "\nbaseline            (4, 4) "), "%s", r.out);
    cr_assert(strstr(r.out, "\nbest hit rate ") && strstr(r.out, "\nbest traffic "), "%s", r.out);
    cli_result_free(&r);
    run_ok(cli_run("report", json, "--html", html, NULL));
    char *page = test_read_file(html, NULL);
    cr_assert(strstr(page, "<section id=\"sweep\""));
    free(page);
    free(json);
    free(html);
}

/* The analysis page's kernel index and a section per top kernel. */
Test(cli_report_docs, top_kernel_sections)
{
    char *json = test_path(dir, "a.json"), *html = test_path(dir, "a.html");
    run_ok(cli_run("analyze", trace, "--gpu", "fermi", "-o", json, "--html", html, "--quiet", NULL));
    char *page = test_read_file(html, NULL);
    char *index = section(page, "top-kernels");
    /* Fan2 makes far more requests than Fan1: first. */
    const char *first = strstr(index, "<li><a href=\"#kernel-1\"><code>Fan2</code></a>");
    const char *second = strstr(index, "<li><a href=\"#kernel-2\"><code>Fan1</code></a>");
    cr_assert(first && second && first < second, "%s", index);
    free(index);
    char *k = section(page, "kernel-1");
    cr_assert(strstr(k, "<h2>Kernel 1: <code>Fan2</code></h2>"), "%s", k);
    cr_assert(strstr(k, "<span>launches</span>"), "%s", k);
    cr_assert(strstr(k, "<td class=\"code\">gaussian.c:40</td>"), "%s", k);
    cr_assert(strstr(k, "href=\"#top-kernels\""), "%s", k);
    free(k);
    cr_assert_null(strstr(page, "<section id=\"kernel-3\""), "gaussian has two kernels");
    free(page);
    free(json);
    free(html);
}

/* Two profiles: the policies both compared are matched by name. */
Test(cli_report_docs, baseline_matches_the_policies_of_profile)
{
    char *now = test_path(dir, "now"), *then = test_path(dir, "then"), *html = test_path(dir, "p.html");
    run_ok(cli_run("profile", trace, "--gpu", "fermi", "--policies", "lru,srrip", "-o", now,
                   "--quiet", "--launch-count", "4", NULL));
    run_ok(cli_run("profile", trace, "--gpu", "fermi", "--policies", "lru,fifo", "-o", then,
                   "--quiet", "--launch-count", "2", NULL));
    char *now_json = test_path(now, "report.json"), *then_json = test_path(then, "report.json");
    cli_result r = cli_run("report", now_json, "--baseline", then_json, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *policies = strstr(r.out, "\npolicies of the comparison in both, matched by name:\n\n  lru\n");
    cr_assert_not_null(policies, "%s", r.out);
    cr_assert(strstr(policies, "\n  L1 to L2 traffic "), "%s", policies);
    cr_assert_null(strstr(policies, "srrip"), "%s", policies);
    cr_assert_null(strstr(policies, "fifo"), "%s", policies);
    cli_result_free(&r);
    run_ok(cli_run("report", now_json, "--baseline", then_json, "--html", html, NULL));
    char *page = test_read_file(html, NULL);
    char *b = section(page, "baseline");
    cr_assert(strstr(b, "<h3>Policies of the comparison in both</h3>"), "%s", b);
    cr_assert(strstr(b, "<td rowspan=\"4\"><code>lru</code></td><td>L1 hit rate</td>"), "%s", b);
    free(b);
    free(page);
    free(now_json);
    free(then_json);
    free(now);
    free(then);
    free(html);
}
