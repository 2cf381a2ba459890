/* reports/html_sharing.c: the sharing views (docs/metrics.md §5): the SM × SM
 * sharing matrix, sharing against CTA distance, and the replay's remote
 * holders of L1 misses. */
#include <math.h>
#include <stdlib.h>

#include "reports/chart.h"
#include "reports/html_page.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define MAX_SMS 1024

typedef struct sm_matrix {
    unsigned n;
    double *values;           /* [n * n] */
    unsigned char *diagonal;  /* [n * n]: 1 on the diagonal */
    char (*names)[12];        /* "SM 3" */
    const char **labels;
} sm_matrix;

static void matrix_free(sm_matrix *m)
{
    free(m->values);
    free(m->diagonal);
    free(m->names);
    free(m->labels);
}

/* A square array of arrays of numbers; 0 (and n = 0) when it is not one. */
static int matrix_read(const json_t *rows, sm_matrix *m)
{
    *m = (sm_matrix){0};
    size_t n = json_is_array(rows) ? json_array_size(rows) : 0;
    if (n == 0 || n > MAX_SMS)
        return 0;
    m->values = malloc(n * n * sizeof *m->values);
    m->diagonal = calloc(n * n, 1);
    m->names = malloc(n * sizeof *m->names);
    m->labels = malloc(n * sizeof *m->labels);
    if (!m->values || !m->diagonal || !m->names || !m->labels) {
        matrix_free(m);
        return 0;
    }
    for (size_t x = 0; x < n; x++) {
        json_t *row = json_array_get(rows, x);
        if (!json_is_array(row) || report_nums(row, "", m->values + x * n, n) != n) {
            matrix_free(m);
            *m = (sm_matrix){0};
            return 0;
        }
        m->diagonal[x * n + x] = 1;
        snprintf(m->names[x], sizeof m->names[x], "SM %zu", x);
        m->labels[x] = m->names[x];
    }
    m->n = (unsigned)n;
    return 1;
}

/* The largest off-diagonal cell: the diagonal is a different quantity. */
static double off_diagonal_max(const sm_matrix *m)
{
    double top = 0;
    for (size_t i = 0; i < (size_t)m->n * m->n; i++)
        if (!m->diagonal[i] && m->values[i] > top)
            top = m->values[i];
    return top > 0 ? top : 1;
}

static void draw_matrix(FILE *out, const sm_matrix *m, const char *label, const char *legend,
                        numfmt_kind format, const char *diagonal_note)
{
    heatmap h = {.label = label, .rows = m->n, .cols = m->n, .values = m->values,
                 .row_labels = m->labels, .col_labels = m->labels,
                 .off_scale = diagonal_note ? m->diagonal : NULL, .off_scale_note = diagonal_note,
                 .x_title = "SM y", .y_title = "SM x", .legend_title = legend, .format = format,
                 .max = diagonal_note ? off_diagonal_max(m) : 1, .square = 1, .label_width = 44,
                 .plot_width = 520, .plot_height = 520};
    if (!diagonal_note) { /* shares: scale to the largest so faint patterns show */
        double top = 0;
        for (size_t i = 0; i < (size_t)m->n * m->n; i++)
            top = fmax(top, m->values[i]);
        h.max = top > 0 ? top : 1;
    }
    chart_heatmap(out, &h);
}

void html_sm_sharing(FILE *out, const json_t *doc)
{
    html_section_begin(out, "sm-sharing-heatmap");
    sm_matrix m;
    if (!matrix_read(report_at(doc, "summary.sharing.sm_matrix"), &m)) {
        html_absent(out, "This report has no SM sharing matrix.");
    } else {
        /* A block is 4 B to 4 KiB: its size reads best unscaled. */
        double block = report_num(doc, "summary.sharing.block_bytes");
        char block_text[32] = "n/a";
        if (block >= 1 && block <= 1e9)
            snprintf(block_text, sizeof block_text, "%.0f", block);
        fprintf(out, "<p class=\"how\">%s of %s blocks of %s bytes are touched by two or more "
                     "SMs; a shared block is touched by %s SMs on average.</p>\n",
                numfmt_percent(report_num(doc, "summary.sharing.shared_fraction")).s,
                numfmt_count(report_num(doc, "summary.sharing.blocks")).s, block_text,
                numfmt(NUMFMT_PLAIN, report_num(doc, "summary.sharing.mean_sms_per_shared_block")).s);
        draw_matrix(out, &m, "blocks touched by both SMs", "blocks shared", NUMFMT_COUNT,
                    "blocks of the SM itself");
        matrix_free(&m);
    }
    html_section_end(out);
}

void html_remote_holders(FILE *out, const json_t *doc)
{
    html_section_begin(out, "remote-holders");
    sm_matrix m;
    if (!json_is_object(report_at(doc, "summary.replay")))
        html_absent(out, "Not in this report: it has no cache replay (summary.replay).");
    else if (!matrix_read(report_at(doc, "summary.replay.remote_holders"), &m))
        html_absent(out, "Not in this report: its replay has no remote-holder matrix.");
    else {
        fprintf(out, "<p class=\"how\">\xce\xbcRC, the share of L1 load misses held in another "
                     "SM's L1: %s.</p>\n",
                numfmt_percent(report_num(doc, "summary.replay.urc")).s);
        draw_matrix(out, &m, "share of SM x's L1 misses held in SM y's L1", "share of misses",
                    NUMFMT_PERCENT, NULL);
        matrix_free(&m);
    }
    html_section_end(out);
}

#define CTA_EXACT 16
#define CTA_LOG2 64

void html_cta_distance(FILE *out, const json_t *doc)
{
    html_section_begin(out, "cta-distance-chart");
    double exact[CTA_EXACT], log2[CTA_LOG2], pairs[CTA_EXACT + CTA_LOG2];
    char names[CTA_EXACT + CTA_LOG2][48];
    const char *labels[CTA_EXACT + CTA_LOG2];
    size_t n_exact = report_nums(doc, "summary.sharing.cta_distance_exact", exact, CTA_EXACT);
    size_t n_log2 = report_nums(doc, "summary.sharing.cta_distance_log2", log2, CTA_LOG2);
    unsigned n = 0, last_nonzero = 0;
    for (size_t d = 1; d < n_exact; d++, n++) {
        pairs[n] = exact[d];
        snprintf(names[n], sizeof names[n], "%zu", d);
    }
    /* Log2 buckets start where the exact counts stop. */
    for (size_t b = 0; b < n_log2; b++) {
        if (b < 63 && exp2((double)b + 1) <= n_exact)
            continue;
        pairs[n] = log2[b];
        snprintf(names[n], sizeof names[n], "%.0f-%.0f", exp2((double)b), exp2((double)b + 1) - 1);
        n++;
    }
    for (unsigned i = 0; i < n; i++) {
        labels[i] = names[i];
        if (pairs[i] > 0)
            last_nonzero = i + 1;
    }
    if (n_exact == 0 && n_log2 == 0) {
        html_absent(out, "This report has no CTA-distance histogram.");
    } else if (last_nonzero == 0) {
        html_absent(out, "No block is touched by two CTAs: there is no inter-CTA sharing.");
    } else {
        fprintf(out, "<p class=\"how\">%s CTA pairs over %s blocks; %s of the pairs are at "
                     "distance &lt; 5.</p>\n",
                numfmt_count(report_num(doc, "summary.sharing.cta_pairs")).s,
                numfmt_count(report_num(doc, "summary.sharing.multi_cta_blocks")).s,
                numfmt_percent(report_num(doc, "summary.sharing.neighbour_pair_share")).s);
        bar_series s = {"CTA pairs", pairs};
        bar_chart c = {.label = "CTA pairs sharing a block, by CTA distance", .categories = last_nonzero,
                       .category_labels = labels, .series_count = 1, .series = &s,
                       .x_title = "CTA distance |a - b|", .y_title = "CTA pairs",
                       .format = NUMFMT_COUNT};
        chart_bars(out, &c);
    }
    html_section_end(out);
}
