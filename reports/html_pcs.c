/* reports/html_pcs.c: the PC × reuse-distance heatmaps, one row per
 * (kernel name, PC) (reports/pc_groups.h).  The PC tables are in
 * html_pc_table.c and html_store_pcs.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/html_page.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define HEATMAP_ROWS 48 /* more PCs than this: the busiest, in program order */

typedef struct row_label {
    char text[256];
} row_label;

/* "file.cu:42 mult_gpu<float>+0x208": the source line first, when the
 * trace has it, as it is what a reader changes.  The whole label fits the
 * row-label column (LABEL_WIDTH px, some 38 characters): the PC keeps its
 * offset, a long kernel name is shortened (reports/pc_label.h) to leave
 * the source a third, a long file name is cut but keeps its line, and a
 * source that still does not fit is left out (the PC table has it). */
#define LABEL_WIDTH 240
#define LABEL_CHARS 36
static row_label label_of(const pc_group *g)
{
    row_label l;
    char at[128], source[96];
    pc_group_source(g, source, sizeof source);
    pc_group_label(g, at, sizeof at, LABEL_CHARS);
    if (*source && strlen(source) + 1 + strlen(at) > LABEL_CHARS) /* room for both */
        pc_group_label(g, at, sizeof at, LABEL_CHARS * 2 / 3);
    size_t room = strlen(at) + 1 < LABEL_CHARS ? LABEL_CHARS - strlen(at) - 1 : 0;
    size_t len = strlen(source);
    const char *line = strrchr(source, ':');
    if (len > room && line && room >= strlen(line) + 6) { /* "abc..:42" */
        size_t head = room - strlen(line) - 2;
        memmove(source + head + 2, line, strlen(line) + 1);
        memcpy(source + head, "..", 2);
    } else if (len > room) {
        source[0] = '\0';
    }
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

/* The column where a cache of `lines` lines ends: bucket 0 holds distance
 * 0 and bucket b >= 1 the distances [2^(b-1), 2^b), so a fully-associative
 * LRU cache of C lines catches the distances left of this column. */
static double capacity_column(double lines)
{
    if (!(lines >= 1))
        return -1;
    double b = floor(log2(lines)) + 1, start = exp2(b - 1);
    return b + (lines - start) / start;
}

/* The reuse heatmaps' shared pieces: rows, columns, the cache markers and
 * each row's share of the requests. */
typedef struct reuse_view {
    const pc_group *const *rows;
    size_t n;
    unsigned buckets;
    const char *const *row_labels, *const *col_labels;
    heatmap_marker markers[2];
    unsigned marker_count;
} reuse_view;

static void one_scope(FILE *out, const reuse_view *v, const pc_groups *pcs, int scope,
                      const char *title)
{
    unsigned cols = v->buckets + 1;
    double *values = malloc(v->n * cols * sizeof *values);
    double *weights = malloc(v->n * sizeof *weights);
    if (!values || !weights) {
        free(values);
        free(weights);
        return;
    }
    double all_requests = 0;
    for (size_t i = 0; i < pcs->count; i++)
        all_requests += pcs->items[i].accesses[scope];
    for (size_t r = 0; r < v->n; r++) {
        double all = v->rows[r]->accesses[scope];
        weights[r] = all_requests > 0 ? all / all_requests : NAN;
        for (unsigned c = 0; c < cols; c++) {
            unsigned b = c < v->buckets ? c : PC_GROUP_BUCKETS; /* the last column is cold */
            values[r * cols + c] = all > 0 ? pc_group_reuse(v->rows[r], scope, b) / all : NAN;
        }
    }
    heatmap h = {.label = title,
                 .rows = (unsigned)v->n,
                 .cols = cols,
                 .values = values,
                 .row_labels = v->row_labels,
                 .col_labels = v->col_labels,
                 .x_title = "reuse distance (distinct lines, bucket start)",
                 .y_title = "PC",
                 .legend_title = "share of the PC's requests",
                 .format = NUMFMT_PERCENT,
                 .label_width = LABEL_WIDTH,
                 .plot_width = 520,
                 .plot_height = 560,
                 .marker_count = v->marker_count,
                 .markers = v->markers,
                 .row_weights = weights,
                 .row_weight_title = "its requests"};
    html_subtitle(out, title);
    chart_heatmap(out, &h);
    free(values);
    free(weights);
}

/* Marks the L1 and the L2 at their capacity in lines; says which lie past
 * every distance drawn. */
static void capacity_markers(FILE *out, const json_t *doc, reuse_view *v, char (*text)[48])
{
    static const char *const levels[] = {"L1", "L2"};
    static const char *const paths[][2] = {{"gpu.l1.size", "gpu.l1.line"},
                                           {"gpu.l2.size", "gpu.l2.line"}};
    for (int l = 0; l < 2; l++) {
        double line = report_num(doc, paths[l][1]);
        double lines = line > 0 ? report_num(doc, paths[l][0]) / line : NAN;
        double column = capacity_column(lines);
        if (column < 0)
            continue;
        snprintf(text[l], 48, "%s: %s lines", levels[l], numfmt_count(lines).s);
        if (column <= v->buckets)
            v->markers[v->marker_count++] = (heatmap_marker){column, text[l]};
        else
            fprintf(out,
                    "<p class=\"how\">The %s (%s lines) holds more than the longest reuse "
                    "distance drawn: every reuse here fits in it.</p>\n",
                    levels[l], numfmt_count(lines).s);
    }
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
                if (pc_group_reuse(rows[r], s, b) > 0 && b + 1 > buckets)
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
        reuse_view v = {.rows = rows,
                        .n = n,
                        .buckets = buckets,
                        .row_labels = row_labels,
                        .col_labels = col_labels};
        char marker_text[2][48];
        capacity_markers(out, doc, &v, marker_text);
        one_scope(out, &v, pcs, PC_SCOPE_PER_SM, "per SM (the L1's view)");
        one_scope(out, &v, pcs, PC_SCOPE_GLOBAL, "global (the L2's view)");
    }
    free(labels);
    free(row_labels);
    free(rows);
    html_section_end(out);
}
