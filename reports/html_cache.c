/* reports/html_cache.c: the cache views: miss-ratio curves from reuse
 * distance (docs/metrics.md §3), and the replay's hit rates, miss classes and MPLI
 * (docs/metrics.md §7-8) when the report has a replay. */
#include <math.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/html_page.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define MRC_POINTS 80
#define MPLI_BUCKETS 5

typedef struct curve {
    double x[MRC_POINTS], y[MRC_POINTS];
    unsigned char exact[MRC_POINTS];
    unsigned n;
} curve;

/* Reads the points with a miss ratio: a sampled curve has none below
 * 1 / R lines (unresolved, docs/metrics.md §3). */
static void curve_read(const json_t *points, curve *c)
{
    c->n = 0;
    size_t i;
    json_t *p;
    json_array_foreach(points, i, p) {
        if (c->n == MRC_POINTS)
            break;
        if (isnan(report_num(p, "miss_ratio")))
            continue;
        c->x[c->n] = report_num(p, "bytes");
        c->y[c->n] = report_num(p, "miss_ratio");
        c->exact[c->n] = !json_is_false(report_at(p, "exact"));
        c->n++;
    }
}

void html_mrc(FILE *out, const json_t *doc)
{
    html_section_begin(out, "mrc");
    curve l1, l2;
    curve_read(report_at(doc, "summary.mrc.l1"), &l1);
    curve_read(report_at(doc, "summary.mrc.l2"), &l2);
    if (l1.n == 0 && l2.n == 0) {
        html_absent(out, "This report has no miss-ratio curves.");
        html_section_end(out);
        return;
    }
    line_series series[2] = {
        {"L1 (per-SM reuse)", l1.n, l1.x, l1.y, l1.exact},
        {"L2 (global reuse)", l2.n, l2.x, l2.y, l2.exact},
    };
    char l1_text[48], l2_text[48];
    snprintf(l1_text, sizeof l1_text, "L1 %s", numfmt_bytes(report_num(doc, "gpu.l1.size")).s);
    snprintf(l2_text, sizeof l2_text, "L2 %s", numfmt_bytes(report_num(doc, "gpu.l2.size")).s);
    line_marker markers[2] = {{report_num(doc, "gpu.l1.size"), l1_text},
                              {report_num(doc, "gpu.l2.size"), l2_text}};
    line_chart c = {.label = "miss ratio against cache size", .series_count = 2, .series = series,
                    .marker_count = 2, .markers = markers, .x_title = "cache size (bytes, log scale)",
                    .y_title = "miss ratio", .x_format = NUMFMT_BYTES, .y_format = NUMFMT_PERCENT,
                    .y_max = 1};
    chart_lines(out, &c);
    double rate = report_num(doc, "options.sample_rate");
    if (rate < 1) {
        char note[160];
        snprintf(note, sizeof note,
                 "Reuse distances sampled at R = %g (SHARDS): sizes below %s lines are not "
                 "resolved by the sample and not drawn.",
                 rate, numfmt_count(ceil(1 / rate)).s);
        html_note(out, note);
    }
    html_section_end(out);
}

static void level_row(FILE *out, const json_t *replay, const char *level)
{
    char path[64];
    fputs("<tr>", out);
    html_cell(out, NULL, level);
    static const char *const fields[] = {"requests", "hits", "misses", "bypasses"};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        snprintf(path, sizeof path, "%s.%s", level, fields[i]);
        html_cell(out, "n", numfmt_count(report_num(replay, path)).s);
    }
    snprintf(path, sizeof path, "%s.hit_rate", level);
    html_cell(out, "n", numfmt_percent(report_num(replay, path)).s);
    fputs("</tr>\n", out);
}

static void miss_classes(FILE *out, const json_t *replay)
{
    static const char *const keys[] = {"cold", "intra_warp", "inter_warp", "write_evict"};
    static const char *const names[] = {"cold", "intra-warp conflict", "inter-warp conflict",
                                        "write-evict"};
    double counts[4];
    for (int i = 0; i < 4; i++)
        counts[i] = report_num(report_at(replay, "miss_classes"), keys[i]);
    if (isnan(counts[0]) && isnan(counts[1]) && isnan(counts[2]) && isnan(counts[3])) {
        html_absent(out, "The replay has no miss classes.");
        return;
    }
    html_subtitle(out, "L1 misses by class (docs/metrics.md \xc2\xa7" "8)");
    bar_series s = {"L1 misses", counts};
    bar_chart c = {.label = "L1 misses by class", .categories = 4, .category_labels = names,
                   .series_count = 1, .series = &s, .x_title = "miss class", .y_title = "misses",
                   .format = NUMFMT_COUNT};
    chart_bars(out, &c);
    fprintf(out, "<p class=\"how\">Of the misses after an eviction (intra- and inter-warp), "
                 "%s would also miss in a fully-associative LRU L1 of the same size (capacity) "
                 "and %s would not (conflict). Write-evict misses, lines a store invalidated, "
                 "are a class of their own.</p>\n",
            numfmt_count(report_num(replay, "miss_classes.capacity")).s,
            numfmt_count(report_num(replay, "miss_classes.conflict")).s);
}

void html_replay(FILE *out, const json_t *doc, const kernel_groups *groups)
{
    html_section_begin(out, "replay");
    const json_t *replay = report_at(doc, "summary.replay");
    if (!json_is_object(replay)) {
        html_absent(out, "Not in this report: it has no cache replay (summary.replay).");
        html_section_end(out);
        return;
    }
    fputs("<p class=\"how\">Policies: L1 ", out);
    xml_escape(out, report_str(replay, "l1_policy") ? report_str(replay, "l1_policy") : "?");
    fputs(", L2 ", out);
    xml_escape(out, report_str(replay, "l2_policy") ? report_str(replay, "l2_policy") : "?");
    fputs(".</p>\n<table>\n<thead><tr><th>level</th><th>requests</th><th>hits</th><th>misses</th>"
          "<th>bypasses</th><th>hit rate</th></tr></thead>\n<tbody>\n",
          out);
    level_row(out, replay, "l1");
    level_row(out, replay, "l2");
    fputs("</tbody></table>\n", out);
    fprintf(out, "<p class=\"how\">Traffic: %s L1\xe2\x86\x92L2 requests (%s), %s read from "
                 "DRAM, %s written to DRAM.</p>\n",
            numfmt_count(report_num(replay, "traffic.l1_to_l2_requests")).s,
            numfmt_bytes(report_num(replay, "traffic.l1_to_l2_bytes")).s,
            numfmt_bytes(report_num(replay, "traffic.l2_to_dram_read_bytes")).s,
            numfmt_bytes(report_num(replay, "traffic.dram_write_bytes")).s);
    miss_classes(out, replay);
    html_kernel_table(out, groups);
    html_section_end(out);
}

void html_mpli(FILE *out, const json_t *doc)
{
    html_section_begin(out, "mpli");
    const json_t *mpli = report_at(doc, "summary.replay.mpli");
    double coherent[MPLI_BUCKETS], divergent[MPLI_BUCKETS];
    size_t nc = report_nums(mpli, "coherent", coherent, MPLI_BUCKETS);
    size_t nd = report_nums(mpli, "divergent", divergent, MPLI_BUCKETS);
    if (!json_is_object(mpli) || nc != MPLI_BUCKETS || nd != MPLI_BUCKETS) {
        html_absent(out, "Not in this report: it has no cache replay with MPLI (summary.replay.mpli).");
        html_section_end(out);
        return;
    }
    static const char *const fallback[MPLI_BUCKETS] = {"0", "1", "2", "3-31", "32"};
    const char *names[MPLI_BUCKETS];
    for (int b = 0; b < MPLI_BUCKETS; b++) {
        const char *name = json_string_value(json_array_get(report_at(mpli, "buckets"), (size_t)b));
        names[b] = name ? name : fallback[b];
    }
    bar_series series[2] = {{"coherent", coherent}, {"divergent", divergent}};
    bar_chart c = {.label = "warp loads by L1 misses per load", .categories = MPLI_BUCKETS,
                   .category_labels = names, .series_count = 2, .series = series, .stacked = 1,
                   .x_title = "L1 misses of the load (MPLI)", .y_title = "warp loads",
                   .format = NUMFMT_COUNT};
    chart_bars(out, &c);
    fprintf(out, "<p class=\"how\">Fully cached %s, partially cached %s, fully missed %s; "
                 "mean MPLI %s.</p>\n",
            numfmt_count(report_num(mpli, "fully_cached")).s,
            numfmt_count(report_num(mpli, "partially_cached")).s,
            numfmt_count(report_num(mpli, "fully_missed")).s,
            numfmt(NUMFMT_PLAIN, report_num(mpli, "mean")).s);
    html_section_end(out);
}
