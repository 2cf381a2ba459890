/* reports/html_compare.c: the policy comparison (`compare`): one table row
 * and one group of bars per policy.  Ratios to the first policy are worked
 * out here for display only; the report holds the raw counts. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/html_page.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define MAX_POLICIES 64

/* Whether an entry runs Belady's OPT at a level: it bounds the hits, and
 * the page says so wherever it names it. */
static int runs_opt(const json_t *p)
{
    const char *l1 = report_str(p, "l1_policy"), *l2 = report_str(p, "l2_policy");
    return (l1 && strcmp(l1, "opt") == 0) || (l2 && strcmp(l2, "opt") == 0);
}

/* The entry's name as tables and charts show it. */
static const char *shown_name(const json_t *p, char *buf, size_t cap)
{
    const char *name = report_str(p, "name") ? report_str(p, "name") : "?";
    if (!runs_opt(p))
        return name;
    snprintf(buf, cap, "%s (bound on hits)", name);
    return buf;
}

/* What OPT's row means, under the table: its hits are the most any policy
 * gets on this order; its bytes are not the fewest (docs/replay.md). */
static void opt_caption(FILE *out, const json_t *policies, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (runs_opt(json_array_get(policies, i))) {
            fputs("<p class=\"how\">OPT is Belady's policy: it evicts the line used farthest "
                  "ahead and never fills a line with no next use, which needs the future, so no "
                  "real cache runs it. Its hit rate is the bound on the hits of every policy on "
                  "this issue order. Its traffic is not a bound: it moves fewer bytes than LRU "
                  "even at equal hits because the lines it does not fill are fetched as the "
                  "sectors asked for, not as whole lines; a policy that fetches fewer bytes can "
                  "move less.</p>\n",
                  out);
            return;
        }
}

/* A note when every policy has the same hit rates, so equal bars are not
 * taken for a drawing fault: why they are equal, from the first entry's
 * miss classes (docs/metrics.md §8). */
static void equal_rates_note(FILE *out, const json_t *doc, const json_t *policies, size_t n)
{
    double l1 = report_num(json_array_get(policies, 0), "l1.hit_rate");
    double l2 = report_num(json_array_get(policies, 0), "l2.hit_rate");
    for (size_t i = 1; i < n; i++)
        if (report_num(json_array_get(policies, i), "l1.hit_rate") != l1 ||
            report_num(json_array_get(policies, i), "l2.hit_rate") != l2)
            return;
    if (n < 2)
        return;
    double cold = report_num(doc, "summary.replay.miss_classes.cold");
    double all = cold + report_num(doc, "summary.replay.miss_classes.intra_warp") +
                 report_num(doc, "summary.replay.miss_classes.inter_warp") +
                 report_num(doc, "summary.replay.miss_classes.write_evict");
    fprintf(out, "<p class=\"how\">Every policy has the same hit rates on this trace, so the bars "
                 "are equal.");
    if (all > 0 && cold / all >= 0.99)
        fprintf(out,
                " %s of the L1 misses are cold (first touches of a line), which no "
                "replacement policy can turn into hits.",
                numfmt_percent(cold / all).s);
    else
        fprintf(out, " The lines that are reused stay in the cache whichever line a policy "
                     "evicts: the choice of victim never matters here.");
    fputs("</p>\n", out);
}

/* v / base, or NaN when either is missing or base is 0. */
static double relative(double v, double base)
{
    return base > 0 && !isnan(v) ? v / base : NAN;
}

static void table(FILE *out, const json_t *policies, size_t n)
{
    const json_t *first = json_array_get(policies, 0);
    double base_l2 = report_num(first, "traffic.l1_to_l2_bytes");
    double base_dram = report_num(first, "traffic.l2_to_dram_read_bytes");
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>policy</th><th>L1</th><th>L2</th>"
          "<th>L1 hit rate</th><th>L2 hit rate</th><th>L1\xe2\x86\x92L2 bytes</th><th>vs first</th>"
          "<th>DRAM read bytes</th><th>vs first</th><th>DRAM write bytes</th><th>MPLI mean</th>"
          "</tr></thead>\n<tbody>\n",
          out);
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(policies, i);
        char name[96];
        const char *text[3] = {shown_name(p, name, sizeof name), report_str(p, "l1_policy"),
                               report_str(p, "l2_policy")};
        fputs("<tr>", out);
        for (int k = 0; k < 3; k++)
            html_cell(out, "code", text[k] ? text[k] : "?");
        html_cell(out, "n", numfmt_percent(report_num(p, "l1.hit_rate")).s);
        html_cell(out, "n", numfmt_percent(report_num(p, "l2.hit_rate")).s);
        double l2_bytes = report_num(p, "traffic.l1_to_l2_bytes");
        double dram = report_num(p, "traffic.l2_to_dram_read_bytes");
        html_cell(out, "n", numfmt_bytes(l2_bytes).s);
        html_cell(out, "n", numfmt(NUMFMT_TIMES, relative(l2_bytes, base_l2)).s);
        html_cell(out, "n", numfmt_bytes(dram).s);
        html_cell(out, "n", numfmt(NUMFMT_TIMES, relative(dram, base_dram)).s);
        html_cell(out, "n", numfmt_bytes(report_num(p, "traffic.dram_write_bytes")).s);
        html_cell(out, "n", numfmt(NUMFMT_PLAIN, report_num(p, "mpli.mean")).s);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
}

/* Room for four series of n values, and the n policies' names filled in;
 * -1 (nothing allocated) when memory runs out. */
static int chart_columns(const json_t *policies, size_t n, double **v, const char ***names)
{
    *v = malloc(4 * n * sizeof **v);
    *names = malloc(n * sizeof **names);
    if (!*v || !*names) {
        free(*v);
        free(*names);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(policies, i);
        const char *name = report_str(p, "name") ? report_str(p, "name") : "?";
        (*names)[i] = strcmp(name, "opt") == 0 ? "opt (bound)" : name;
    }
    return 0;
}

/* Each policy's mean load latency by where the loads were served. */
static void timed_latency_chart(FILE *out, const json_t *policies, size_t n)
{
    static const char *const where[] = {"l1", "l1_merge", "l2", "dram"};
    static const char *const label[] = {"L1 hit", "merged in flight", "L2", "DRAM"};
    double *v;
    const char **names;
    if (chart_columns(policies, n, &v, &names) != 0)
        return;
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(policies, i);
        for (int w = 0; w < 4; w++) {
            char key[64];
            snprintf(key, sizeof key, "timed.load_latency.%s.mean_cycles", where[w]);
            v[w * n + i] = report_num(p, key);
        }
    }
    bar_series series[4];
    for (int w = 0; w < 4; w++)
        series[w] = (bar_series){label[w], v + w * n};
    bar_chart c = {.label = "mean load latency by where served", .categories = (unsigned)n,
                   .category_labels = names, .series_count = 4, .series = series,
                   .x_title = "policy", .y_title = "cycles, issue to data back",
                   .format = NUMFMT_PLAIN};
    html_subtitle(out, "Load latency by where the load was served (the model's cycles)");
    chart_bars(out, &c);
    free(v);
    free(names);
}

/* The timed replay's figures (docs/metrics.md §12), each the model's. */
static void timed_table(FILE *out, const json_t *policies, size_t n)
{
    html_subtitle(out, "Timed replay (the model's cycles, not a GPU's)");
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>policy</th><th>cycles</th>"
          "<th>speedup vs first</th><th>IPC</th><th>L1 pending hits</th>"
          "<th>stalled on memory</th><th>stalled in the pipeline</th>"
          "<th>mean L2 latency</th><th>mean DRAM latency</th></tr></thead>\n<tbody>\n",
          out);
    double base = report_num(json_array_get(policies, 0), "timed.cycles");
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(policies, i);
        double cycles = report_num(p, "timed.cycles");
        double slots = report_num(p, "timed.issue_cycles") +
                       report_num(p, "timed.stall_cycles.memory") +
                       report_num(p, "timed.stall_cycles.pipeline") +
                       report_num(p, "timed.stall_cycles.throttled") +
                       report_num(p, "timed.stall_cycles.no_warp");
        fputs("<tr>", out);
        html_cell(out, "code", report_str(p, "name") ? report_str(p, "name") : "?");
        html_cell(out, "n", numfmt(NUMFMT_COUNT, cycles).s);
        html_cell(out, "n", numfmt(NUMFMT_TIMES, relative(base, cycles)).s);
        html_cell(out, "n", numfmt(NUMFMT_PLAIN, report_num(p, "timed.ipc")).s);
        html_cell(out, "n", numfmt(NUMFMT_COUNT, report_num(p, "l1.pending_hits")).s);
        html_cell(out, "n", numfmt_percent(relative(report_num(p, "timed.stall_cycles.memory"),
                                                    slots)).s);
        html_cell(out, "n", numfmt_percent(relative(report_num(p, "timed.stall_cycles.pipeline"),
                                                    slots)).s);
        html_cell(out, "n", numfmt(NUMFMT_PLAIN, report_num(p, "timed.load_latency.l2.mean_cycles")).s);
        html_cell(out, "n",
                  numfmt(NUMFMT_PLAIN, report_num(p, "timed.load_latency.dram.mean_cycles")).s);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    timed_latency_chart(out, policies, n);
}

static void charts(FILE *out, const json_t *policies, size_t n)
{
    double *v;
    const char **names;
    if (chart_columns(policies, n, &v, &names) != 0)
        return;
    const json_t *first = json_array_get(policies, 0);
    double base_l2 = report_num(first, "traffic.l1_to_l2_bytes");
    double base_dram = report_num(first, "traffic.l2_to_dram_read_bytes");
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(policies, i);
        v[i] = report_num(p, "l1.hit_rate");
        v[n + i] = report_num(p, "l2.hit_rate");
        v[2 * n + i] = relative(report_num(p, "traffic.l1_to_l2_bytes"), base_l2);
        v[3 * n + i] = relative(report_num(p, "traffic.l2_to_dram_read_bytes"), base_dram);
    }
    bar_series rates[2] = {{"L1 hit rate", v}, {"L2 hit rate", v + n}};
    bar_chart c = {.label = "hit rates by policy", .categories = (unsigned)n, .category_labels = names,
                   .series_count = 2, .series = rates, .x_title = "policy", .y_title = "hit rate",
                   .format = NUMFMT_PERCENT, .y_max = 1};
    html_subtitle(out, "Hit rates");
    chart_bars(out, &c);
    html_subtitle(out, "Traffic relative to the first policy");
    bar_series traffic[2] = {{"L1\xe2\x86\x92L2 bytes", v + 2 * n}, {"DRAM read bytes", v + 3 * n}};
    c.label = "traffic relative to the first policy";
    c.series = traffic;
    c.y_title = "relative to the first";
    c.format = NUMFMT_TIMES;
    c.y_max = 0;
    chart_bars(out, &c);
    free(v);
    free(names);
}

void html_policy_compare(FILE *out, const json_t *doc)
{
    html_section_begin(out, "policy-compare");
    const json_t *policies = report_at(doc, "compare.policies");
    size_t n = json_is_array(policies) ? json_array_size(policies) : 0;
    if (n == 0) {
        html_absent(out, "Not in this report: it has no policy comparison (compare).");
    } else {
        if (n > MAX_POLICIES)
            n = MAX_POLICIES;
        table(out, policies, n);
        opt_caption(out, policies, n);
        equal_rates_note(out, doc, policies, n);
        if (report_at(json_array_get(policies, 0), "timed"))
            timed_table(out, policies, n);
        charts(out, policies, n);
        html_ccn(out, policies, n);
    }
    html_section_end(out);
}
