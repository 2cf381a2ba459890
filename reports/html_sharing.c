/* reports/html_sharing.c: the sharing views (docs/metrics.md §5): the SM × SM
 * sharing matrix, sharing against CTA distance, and the replay's remote
 * holders of L1 misses. */
#include <math.h>
#include <stdlib.h>

#include "reports/chart.h"
#include "reports/cta_bins.h"
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

static heatmap matrix_heatmap(const sm_matrix *m, const char *label, const char *legend,
                              numfmt_kind format)
{
    return (heatmap){.label = label, .rows = m->n, .cols = m->n, .values = m->values,
                     .row_labels = m->labels, .col_labels = m->labels, .x_title = "SM y",
                     .y_title = "SM x", .legend_title = legend, .format = format, .square = 1,
                     .label_width = 44, .plot_width = 520, .plot_height = 520};
}

/* Blocks shared by two SMs, a count: coloured from 0 (chart.h's rule), so
 * data every SM reads shows as the even field it is.  The diagonal (an
 * SM's own blocks) is grey, off the scale. */
static void draw_sharing(FILE *out, const sm_matrix *m)
{
    heatmap h = matrix_heatmap(m, "blocks touched by both SMs", "blocks shared", NUMFMT_COUNT);
    h.off_scale = m->diagonal;
    h.off_scale_note = "blocks of the SM itself";
    chart_heatmap(out, &h);
}

static void draw_shares(FILE *out, const sm_matrix *m)
{
    heatmap h = matrix_heatmap(m, "share of SM x's L1 misses held in SM y's L1", "share of misses",
                               NUMFMT_PERCENT);
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
        /* Sharing is measured within each kernel launch, so its blocks are
         * counted once per launch that touched them; the trace's distinct
         * blocks are fewer (reports before distinct_blocks lack them). */
        double distinct = report_num(doc, "summary.sharing.distinct_blocks");
        double per_launch = report_num(doc, "summary.sharing.blocks");
        fprintf(out, "<p class=\"how\">");
        if (distinct > 0)
            fprintf(out,
                    "The trace touched %s distinct blocks of %s bytes (%s counting each "
                    "kernel launch's blocks apart: sharing is measured within a launch). ",
                    numfmt_grouped_count(distinct).s, block_text,
                    numfmt_grouped_count(per_launch).s);
        else
            fprintf(out,
                    "The kernel launches touched %s blocks of %s bytes, each launch's counted "
                    "apart. ",
                    numfmt_grouped_count(per_launch).s, block_text);
        fprintf(
            out,
            "%s of a launch's blocks are touched by two or more SMs; a shared block is "
            "touched by %s SMs on average.</p>\n",
            numfmt_percent(report_num(doc, "summary.sharing.shared_fraction")).s,
            numfmt(NUMFMT_PLAIN, report_num(doc, "summary.sharing.mean_sms_per_shared_block")).s);
        draw_sharing(out, &m);
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
        draw_shares(out, &m);
        matrix_free(&m);
    }
    html_section_end(out);
}

void html_cta_distance(FILE *out, const json_t *doc, double largest_cta_distance)
{
    html_section_begin(out, "cta-distance-chart");
    cta_bin bins[CTA_BINS_MAX];
    int present;
    unsigned n = cta_bins_read(doc, largest_cta_distance, bins, &present);
    if (!present) {
        html_absent(out, "This report has no CTA-distance histogram.");
    } else if (n == 0) {
        html_absent(out, "No block is touched by two CTAs: there is no inter-CTA sharing.");
    } else {
        fprintf(out, "<p class=\"how\">%s CTA pairs over %s blocks; %s of the pairs are at "
                     "distance &lt; 5.</p>\n",
                numfmt_count(report_num(doc, "summary.sharing.cta_pairs")).s,
                numfmt_count(report_num(doc, "summary.sharing.multi_cta_blocks")).s,
                numfmt_percent(report_num(doc, "summary.sharing.neighbour_pair_share")).s);
        double density[CTA_BINS_MAX];
        const char *labels[CTA_BINS_MAX], *tips[CTA_BINS_MAX];
        char tip_text[CTA_BINS_MAX][120];
        for (unsigned i = 0; i < n; i++) {
            density[i] = bins[i].density;
            labels[i] = bins[i].label;
            if (bins[i].high > bins[i].low)
                snprintf(tip_text[i], sizeof tip_text[i],
                         "distances %s: %.0f pairs over %.0f distances, %g per distance",
                         bins[i].label, bins[i].pairs, bins[i].high - bins[i].low + 1, bins[i].density);
            else
                snprintf(tip_text[i], sizeof tip_text[i], "distance %s: %.0f pairs", bins[i].label,
                         bins[i].pairs);
            tips[i] = tip_text[i];
        }
        bar_series s = {"CTA pairs per distance", density};
        bar_chart c = {.label = "CTA pairs sharing a block per unit of CTA distance",
                       .categories = n, .category_labels = labels, .series_count = 1, .series = &s,
                       .x_title = "CTA distance |a - b| (wider bins from 16 on)",
                       .y_title = "CTA pairs per unit distance", .format = NUMFMT_COUNT, .tips = tips};
        chart_bars(out, &c);
    }
    html_section_end(out);
}
