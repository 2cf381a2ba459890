/* reports/html_sweep.c: see html_sweep.h. */
#include "reports/html_sweep.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reports/chart.h"
#include "reports/html_page.h"
#include "reports/report_doc.h"
#include "reports/svg.h"
#include "util/outfile.h"

#define MAX_N 128

/* One figure of every point as an n_max × n_max grid, rows p = n_max..1
 * (top to bottom), columns N = 1..n_max; NaN where p > N.  scale_by, when
 * given, divides every value (traffic relative to the baseline). */
static void grid_values(const json_t *points, unsigned n_max, const char *key, double scale_by,
                        double *v)
{
    for (unsigned i = 0; i < n_max * n_max; i++)
        v[i] = NAN;
    size_t i;
    const json_t *pt;
    json_array_foreach(points, i, pt) {
        double n = report_num(pt, "n"), p = report_num(pt, "p"), x = report_num(pt, key);
        if (!(n >= 1 && n <= n_max && p >= 1 && p <= n))
            continue;
        unsigned row = n_max - (unsigned)p, col = (unsigned)n - 1;
        v[row * n_max + col] = scale_by > 0 ? x / scale_by : x;
    }
}

static void grid_chart(FILE *out, const json_t *points, unsigned n_max, const char *key,
                       double scale_by, const char *label, const char *legend, numfmt_kind format)
{
    double *v = malloc((size_t)n_max * n_max * sizeof *v);
    char (*names)[12] = malloc(n_max * sizeof *names);
    const char **rows = malloc(n_max * sizeof *rows), **cols = malloc(n_max * sizeof *cols);
    if (v && names && rows && cols) {
        for (unsigned k = 0; k < n_max; k++)
            snprintf(names[k], sizeof names[k], "%u", k + 1);
        for (unsigned k = 0; k < n_max; k++) {
            cols[k] = names[k];
            rows[k] = names[n_max - 1 - k];
        }
        grid_values(points, n_max, key, scale_by, v);
        heatmap h = {.label = label,
                     .rows = n_max,
                     .cols = n_max,
                     .values = v,
                     .row_labels = rows,
                     .col_labels = cols,
                     .x_title = "N: warps that issue (per scheduler)",
                     .y_title = "p: of them, warps that allocate",
                     .legend_title = legend,
                     .format = format,
                     .square = 1,
                     .label_width = 40};
        chart_heatmap(out, &h);
    }
    free(v);
    free(names);
    free(rows);
    free(cols);
}

static void point_row(FILE *out, const char *what, const json_t *at, const char *note)
{
    char n[16], p[16];
    snprintf(n, sizeof n, "%.0f", report_num(at, "n"));
    snprintf(p, sizeof p, "%.0f", report_num(at, "p"));
    fputs("<tr>", out);
    html_cell(out, NULL, what);
    html_cell(out, "n", n);
    html_cell(out, "n", p);
    html_cell(out, "n", numfmt_percent(report_num(at, "l1_hit_rate")).s);
    html_cell(out, "n", numfmt_bytes(report_num(at, "l1_to_l2_bytes")).s);
    html_cell(out, NULL, note ? note : "");
    fputs("</tr>\n", out);
}

static void table(FILE *out, const json_t *doc)
{
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>point</th><th>N</th><th>p</th>"
          "<th>L1 hit rate</th><th>L1\xe2\x86\x92L2 bytes</th><th></th></tr></thead>\n<tbody>\n",
          out);
    point_row(out, "baseline (all warps)", report_at(doc, "baseline"), "GTO with every warp");
    point_row(out, "best by L1 hit rate", report_at(doc, "best.hit_rate"), NULL);
    point_row(out, "best by traffic", report_at(doc, "best.traffic"), NULL);
    point_row(out, "Poise predicted", report_at(doc, "poise.predicted"), "S3 Table 5.3's regression");
    point_row(out, "Poise after search, hit rate", report_at(doc, "poise.searched.hit_rate"), NULL);
    point_row(out, "Poise after search, traffic", report_at(doc, "poise.searched.traffic"), NULL);
    fputs("</tbody></table></div>\n", out);
}

int html_sweep_write(const json_t *doc, const char *out_path, ws_error *err)
{
    const json_t *points = report_at(doc, "points");
    double n_max = report_num(doc, "n_max");
    if (!json_is_array(points) || !(n_max >= 1 && n_max <= MAX_N))
        return ws_fail(err, "not a warpscope sweep (no \"points\" or \"n_max\")");
    ws_outfile *f = ws_outfile_open(out_path, err);
    if (!f)
        return -1;
    FILE *out = ws_outfile_stream(f);
    const char *trace = report_str(doc, "trace.path");
    char title[512];
    snprintf(title, sizeof title, "warpscope sweep: %s", trace ? trace : "?");
    html_page_open(out, title);
    fputs("<header><h1>", out);
    xml_escape(out, title);
    fputs("</h1><p class=\"how\">Every warp tuple (N, p) of S3 chapter 5: in each warp "
          "scheduler only the N oldest warps issue and only the p oldest of them allocate in "
          "L1; the others may hit but never allocate. One decode of the trace fed every "
          "point. Timing is not modelled: the figures are cache counts, not speedups.</p>"
          "</header>\n<section id=\"sweep\">\n",
          out);
    table(out, doc);
    unsigned n = (unsigned)n_max;
    html_subtitle(out, "L1 hit rate");
    grid_chart(out, points, n, "l1_hit_rate", 0, "L1 hit rate over (N, p)", "L1 hit rate",
               NUMFMT_PERCENT);
    html_subtitle(out, "Hit rate of the polluting warps (the p that allocate)");
    grid_chart(out, points, n, "polluting_hit_rate", 0, "polluting warps' hit rate over (N, p)",
               "hit rate", NUMFMT_PERCENT);
    html_subtitle(out, "L1\xe2\x86\x92L2 bytes relative to the baseline");
    grid_chart(out, points, n, "l1_to_l2_bytes", report_num(doc, "baseline.l1_to_l2_bytes"),
               "L1 to L2 bytes relative to (N_MAX, N_MAX)", "\xc3\x97 baseline", NUMFMT_TIMES);
    fputs("</section>\n<footer><p>Written by warpscope ", out);
    xml_escape(out, report_str(doc, "warpscope_version"));
    fputs(" (docs/report-schema.md, SWEEP).</p></footer>\n</main>\n</body>\n</html>\n", out);
    return ws_outfile_commit(f, err);
}
