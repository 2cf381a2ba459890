/* reports/html_pcs.c: the per-PC views: the PC × reuse-distance heatmaps
 * and the PC table, one row per (kernel name, PC) (reports/pc_groups.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/pc_label.h"
#include "reports/html_page.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define HEATMAP_ROWS 48 /* more PCs than this: the busiest, in program order */
#define TABLE_ROWS 1000

typedef struct row_label {
    char text[256];
} row_label;

/* The PC's offset, or -1 when the report has no usable one. */
static long long offset_of(const pc_group *g)
{
    json_t *offset = report_at(g->pc, "offset");
    return json_is_integer(offset) ? (long long)json_integer_value(offset) : -1;
}

/* "0x1a0", or "?" without an offset. */
static void offset_text(char *dst, size_t size, const pc_group *g)
{
    long long offset = offset_of(g);
    if (offset >= 0)
        snprintf(dst, size, "0x%llx", offset);
    else
        snprintf(dst, size, "?");
}

/* "file.cu:42 mult_gpu<float>+0x208" (reports/pc_label.h): the source line
 * first, when the trace has it, as it is what a reader changes. */
static row_label label_of(const pc_group *g)
{
    row_label l;
    char at[128], source[96] = "";
    long long offset = offset_of(g);
    pc_label(at, sizeof at, g->kernel, offset >= 0 ? (uint64_t)offset : 0, 40);
    double line = report_num(g->pc, "line");
    source_label(source, sizeof source, report_str(g->pc, "file"), isnan(line) ? 0 : (uint32_t)line);
    snprintf(l.text, sizeof l.text, "%s%s%s", source, *source ? " " : "", at);
    return l;
}

/* Distances are powers of two: 512, 1K, 2K, ... 1M read better than 1.0k. */
static void distance_label(char *dst, size_t size, unsigned bucket)
{
    double low = bucket == 0 ? 0 : exp2(bucket - 1);
    static const char *const units[] = {"", "K", "M", "G", "T", "P", "E"};
    int u = 0;
    while (low >= 1024 && u < 6) {
        low /= 1024;
        u++;
    }
    snprintf(dst, size, "%.0f%s", low, units[u]);
}

static int by_requests_desc(const void *a, const void *b)
{
    const pc_group *x = *(const pc_group *const *)a, *y = *(const pc_group *const *)b;
    return (x->requests < y->requests) - (x->requests > y->requests);
}

static int by_position(const void *a, const void *b)
{
    const pc_group *x = *(const pc_group *const *)a, *y = *(const pc_group *const *)b;
    return (x > y) - (x < y);
}

/* The PCs with accesses; the busiest HEATMAP_ROWS when there are more. */
static size_t pick_rows(const pc_groups *pcs, const pc_group **rows, size_t *with_accesses)
{
    size_t n = 0;
    for (size_t i = 0; i < pcs->count; i++)
        if (pcs->items[i].accesses[PC_SCOPE_PER_SM] > 0 || pcs->items[i].accesses[PC_SCOPE_GLOBAL] > 0)
            rows[n++] = &pcs->items[i];
    *with_accesses = n;
    if (n > HEATMAP_ROWS) {
        qsort(rows, n, sizeof *rows, by_requests_desc);
        n = HEATMAP_ROWS;
    }
    qsort(rows, n, sizeof *rows, by_position); /* back to kernel and PC order */
    return n;
}

static void one_scope(FILE *out, const pc_group *const *rows, size_t n, unsigned buckets, int scope,
                      const char *const *row_labels, const char *const *col_labels, const char *title)
{
    unsigned cols = buckets + 1;
    double *values = malloc(n * cols * sizeof *values);
    if (!values)
        return;
    for (size_t r = 0; r < n; r++) {
        double all = rows[r]->accesses[scope];
        for (unsigned c = 0; c < cols; c++) {
            unsigned b = c < buckets ? c : PC_GROUP_BUCKETS; /* the last column is cold */
            values[r * cols + c] = all > 0 ? rows[r]->reuse[scope][b] / all : NAN;
        }
    }
    heatmap h = {.label = title, .rows = (unsigned)n, .cols = cols, .values = values,
                 .row_labels = row_labels, .col_labels = col_labels,
                 .x_title = "reuse distance (distinct lines, bucket start)", .y_title = "PC",
                 .legend_title = "share of the PC's requests", .format = NUMFMT_PERCENT, .max = 1,
                 .label_width = 240, .plot_width = 520, .plot_height = 560};
    html_subtitle(out, title);
    chart_heatmap(out, &h);
    free(values);
}

void html_pc_reuse(FILE *out, const json_t *doc, const pc_groups *pcs)
{
    html_section_begin(out, "pc-reuse-heatmap");
    const pc_group **rows = malloc((pcs->count + 1) * sizeof *rows);
    size_t total = 0, n = rows ? pick_rows(pcs, rows, &total) : 0;
    if (n == 0) {
        html_absent(out, "No PC in this report has counted requests.");
        free(rows);
        html_section_end(out);
        return;
    }
    if (n < total)
        fprintf(out, "<p class=\"how\">Showing the %zu of %zu PCs with the most requests.</p>\n", n,
                total);
    unsigned buckets = 1;
    for (size_t r = 0; r < n; r++)
        for (int s = 0; s < PC_SCOPES; s++)
            for (unsigned b = 0; b < PC_GROUP_BUCKETS; b++)
                if (rows[r]->reuse[s][b] > 0 && b + 1 > buckets)
                    buckets = b + 1;
    row_label *labels = malloc(n * sizeof *labels);
    const char **row_labels = malloc(n * sizeof *row_labels);
    char col_text[PC_GROUP_BUCKETS + 1][12];
    const char *col_labels[PC_GROUP_BUCKETS + 1];
    for (unsigned b = 0; b < buckets; b++) {
        distance_label(col_text[b], sizeof col_text[b], b);
        col_labels[b] = col_text[b];
    }
    col_labels[buckets] = "cold";
    if (labels && row_labels) {
        for (size_t r = 0; r < n; r++) {
            labels[r] = label_of(rows[r]);
            row_labels[r] = labels[r].text;
        }
        one_scope(out, rows, n, buckets, PC_SCOPE_PER_SM, row_labels, col_labels,
                  "per SM (the L1's view)");
        one_scope(out, rows, n, buckets, PC_SCOPE_GLOBAL, row_labels, col_labels,
                  "global (the L2's view)");
    }
    free(labels);
    free(row_labels);
    free(rows);
    html_section_end(out);
}

/* The replay's verdict over the merged launches. */
static const char *bypass_verdict(const pc_group *g, char *dst, size_t size)
{
    if (g->bypass_seen == 0)
        return "n/a";
    if (g->bypass_yes == g->bypass_seen)
        return "bypass";
    if (g->bypass_yes == 0)
        return "keep";
    snprintf(dst, size, "bypass in %u of %u launches", g->bypass_yes, g->bypass_seen);
    return dst;
}

static void table_row(FILE *out, const pc_group *g)
{
    char text[200];
    fputs("<tr>", out);
    kernel_label(text, sizeof text, g->kernel, 0);
    html_cell(out, "code", text);
    html_cell(out, "n", numfmt_count(g->launches).s);
    offset_text(text, sizeof text, g);
    html_cell(out, "code", text);
    const char *sass = report_str(g->pc, "sass"), *file = report_str(g->pc, "file");
    html_cell(out, "code", sass ? sass : "");
    double line = report_num(g->pc, "line");
    source_label(text, sizeof text, file, isnan(line) ? 0 : (uint32_t)line);
    html_cell(out, "code", text);
    html_cell(out, "n", numfmt_count(g->executions).s);
    html_cell(out, "n", numfmt_count(g->requests).s);
    html_cell(out, "n", numfmt_percent(pc_group_u_line(g)).s);
    const char *cls = pc_group_class(g);
    html_cell(out, NULL, cls ? cls : "n/a");
    html_cell(out, "n", numfmt_percent(pc_group_l1_hit_rate(g)).s);
    html_cell(out, "n",
              numfmt_percent(g->bypass_weight > 0 ? g->bypass_share_sum / g->bypass_weight : NAN).s);
    html_cell(out, NULL, bypass_verdict(g, text, sizeof text));
    fputs("</tr>\n", out);
}

void html_pc_table(FILE *out, const json_t *doc, const pc_groups *pcs)
{
    html_section_begin(out, "pc-table");
    if (pcs->count == 0) {
        html_absent(out, "This report lists no PCs.");
        html_section_end(out);
        return;
    }
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>kernel</th><th>launches</th><th>PC</th>"
          "<th>SASS</th><th>file:line</th><th>executions</th><th>requests</th><th>U (line)</th>"
          "<th>locality</th><th>L1 hit rate</th><th>bypass-worthy</th><th>verdict</th></tr></thead>\n"
          "<tbody>\n",
          out);
    size_t shown = pcs->count < TABLE_ROWS ? pcs->count : TABLE_ROWS;
    for (size_t i = 0; i < shown; i++)
        table_row(out, &pcs->items[i]);
    fputs("</tbody></table></div>\n", out);
    if (shown < pcs->count)
        fprintf(out, "<p class=\"how\">The first %zu of %zu PCs are listed.</p>\n", shown, pcs->count);
    html_section_end(out);
}
