/* reports/html_access.c: the address-region × time heatmap of the
 * report's `access_map` (analyzer/access_map.h). */
#include <math.h>
#include <stdlib.h>

#include "reports/chart.h"
#include "reports/html_page.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define MAX_TIME_BINS 4096
#define MAX_REGIONS 1024

typedef struct access_grid {
    unsigned regions, bins;
    double *values; /* [regions * bins]: rows are regions, as drawn */
    char (*row_text)[48], (*col_text)[32];
    const char **row_labels, **col_labels;
} access_grid;

static void grid_free(access_grid *g)
{
    free(g->values);
    free(g->row_text);
    free(g->col_text);
    free(g->row_labels);
    free(g->col_labels);
}

/* counts[t][r] turned to rows of regions; 0 when the object is malformed. */
static int grid_read(const json_t *map, access_grid *g)
{
    *g = (access_grid){0};
    json_t *counts = report_at(map, "counts"), *regions = report_at(map, "regions");
    size_t bins = json_array_size(counts), rows = json_array_size(regions);
    if (bins == 0 || rows == 0 || bins > MAX_TIME_BINS || rows > MAX_REGIONS)
        return 0;
    g->values = malloc(rows * bins * sizeof *g->values);
    g->row_text = malloc(rows * sizeof *g->row_text);
    g->col_text = malloc(bins * sizeof *g->col_text);
    g->row_labels = malloc(rows * sizeof *g->row_labels);
    g->col_labels = malloc(bins * sizeof *g->col_labels);
    double *column = malloc(rows * sizeof *column);
    int ok = g->values && g->row_text && g->col_text && g->row_labels && g->col_labels && column;
    double width = report_num(map, "issues_per_bin");
    for (size_t t = 0; ok && t < bins; t++) {
        ok = report_nums(json_array_get(counts, t), "", column, rows) == rows;
        for (size_t r = 0; ok && r < rows; r++)
            g->values[r * bins + t] = column[r];
        snprintf(g->col_text[t], sizeof g->col_text[t], "%s", numfmt_count(t * width).s);
        g->col_labels[t] = g->col_text[t];
    }
    for (size_t r = 0; ok && r < rows; r++) {
        json_t *region = json_array_get(regions, r);
        json_t *low = report_at(region, "low"), *allocation = report_at(region, "allocation");
        if (json_is_integer(allocation))
            snprintf(g->row_text[r], sizeof g->row_text[r], "alloc %lld +%s",
                     (long long)json_integer_value(allocation),
                     numfmt_bytes(report_num(region, "offset")).s);
        else
            snprintf(g->row_text[r], sizeof g->row_text[r], "0x%llx",
                     json_is_integer(low) ? (unsigned long long)json_integer_value(low) : 0ull);
        g->row_labels[r] = g->row_text[r];
    }
    free(column);
    if (!ok) {
        grid_free(g);
        return 0;
    }
    g->regions = (unsigned)rows;
    g->bins = (unsigned)bins;
    return 1;
}

void html_access_map(FILE *out, const json_t *doc)
{
    html_section_begin(out, "access-heatmap");
    json_t *map = report_at(doc, "access_map");
    access_grid g;
    if (!json_is_object(map)) {
        html_absent(out, "Not in this report: it has no access_map (reports written before "
                         "warpscope recorded one).");
    } else if (!grid_read(map, &g)) {
        html_absent(out, "The access map is empty: no counted requests.");
    } else {
        fprintf(out, "<p class=\"how\">%u regions of %s pages; each column is %s issued "
                     "instructions.</p>\n",
                g.regions, numfmt_bytes(report_num(map, "region_bytes")).s,
                numfmt_count(report_num(map, "issues_per_bin")).s);
        heatmap h = {.label = "line requests by address region and time",
                     .rows = g.regions,
                     .cols = g.bins,
                     .values = g.values,
                     .row_labels = g.row_labels,
                     .col_labels = g.col_labels,
                     .x_title = "issued instructions",
                     .y_title = "address region (start)",
                     .legend_title = "line requests",
                     .format = NUMFMT_COUNT,
                     .log_scale = 1,
                     .x_max = g.bins * report_num(map, "issues_per_bin"),
                     .x_format = NUMFMT_COUNT,
                     .label_width = 110,
                     .plot_width = 640,
                     .plot_height = 440};
        chart_heatmap(out, &h);
        grid_free(&g);
    }
    html_section_end(out);
}
