/* reports/chart.h: the charts of the HTML report, drawn as inline SVG.
 *
 * Each chart takes plain arrays (the sections pull them out of the report
 * JSON) and writes one <svg> with labelled axes; heatmaps carry their own
 * colour legend.  Hover text on every cell, bar and point gives the exact
 * value, so the drawing can stay uncluttered. */
#ifndef WS_CHART_H
#define WS_CHART_H

#include <stdio.h>

#include "reports/numfmt.h"

/* ---- shared axis pieces (chart_axes.c) ---- */

typedef struct chart_plot {
    double x, y, w, h; /* the plotting area inside the SVG */
} chart_plot;

/* "Nice" ticks (steps of 1, 2, 2.5 or 5 × 10^k) from lo up to the first one
 * at or above hi; ticks must hold max_ticks + 1.  Returns how many. */
unsigned chart_ticks(double lo, double hi, unsigned max_ticks, double *ticks);
/* The SVG y of value v on a linear axis lo..hi. */
double chart_y(const chart_plot *p, double lo, double hi, double v);
/* Grid lines, tick labels and the rotated title of a y axis lo..hi. */
void chart_y_axis(FILE *out, const chart_plot *p, double lo, double hi, const double *ticks,
                  unsigned tick_count, numfmt_kind format, const char *title);
/* Width of a title of n characters at the page's title font (12 px). */
#define CHART_TITLE_CHAR_PX 6.8
/* The title centred under the plot, below its tick labels (drop px),
 * moved left as far as it must to end before x = right (a legend beside
 * the plot; 0: nothing there). */
void chart_x_title(FILE *out, const chart_plot *p, double drop, const char *title, double right);
/* The legend entry of series i (its colour swatch and name) at (x, y);
 * returns the x of the next entry, so a row is one loop. */
double chart_legend_entry(FILE *out, double x, double y, unsigned i, const char *name);
/* label shortened to max_chars (UTF-8 safe), with "…" when cut. */
void chart_clip(char *dst, size_t size, const char *label, unsigned max_chars);

/* ---- heatmap (chart_heatmap.c) ---- */

/* A vertical line across a heatmap at a column position (2.5: half way
 * into column 2), labelled at its top: a cache's capacity on a reuse map. */
typedef struct heatmap_marker {
    double column;
    const char *label;
} heatmap_marker;

/* Every heatmap follows one colour-scale rule (heatmap_scale_rule in
 * chart_heatmap.c, docs/html-report.md "Colour scales"), from its format:
 * counts and bytes from 0 to the largest cell, shares and ratios over the
 * range of the data; the legend states the range. */
typedef struct heatmap {
    const char *label; /* what it shows, for screen readers */
    unsigned rows, cols;
    const double *values; /* [rows * cols], row-major; NaN = no data */
    const char *const *row_labels, *const *col_labels;
    /* Optional [rows * cols]: cells drawn grey, off the colour scale (a
     * diagonal that would drown the rest); their value stays in the tip. */
    const unsigned char *off_scale;
    const char *off_scale_note;
    const char *x_title, *y_title, *legend_title;
    numfmt_kind format;
    int log_scale;   /* counts spanning decades: colour by log(1 + v), still from 0 */
    int square;      /* square cells (an SM × SM matrix) */
    double label_width; /* px for the row labels (0: 120) */
    double plot_width, plot_height; /* largest plotting area (0: 600 × 420) */
    /* > 0: the columns are equal bins of a continuous x from 0 to x_max,
     * labelled at round values (chart_ticks) instead of col_labels. */
    double x_max;
    numfmt_kind x_format;
    unsigned marker_count;
    const heatmap_marker *markers;
    /* Optional [rows]: each row's weight, a share in [0, 1] (a PC's share of
     * the requests), drawn as a bar beside the row under row_weight_title. */
    const double *row_weights;
    const char *row_weight_title;
} heatmap;

void chart_heatmap(FILE *out, const heatmap *h);

/* ---- bars (chart_bars.c) ---- */

typedef struct bar_series {
    const char *name;
    const double *values; /* [categories]; NaN = no bar */
} bar_series;

typedef struct bar_chart {
    const char *label;
    unsigned categories;
    const char *const *category_labels;
    unsigned series_count;
    const bar_series *series;
    int stacked; /* else side by side */
    const char *x_title, *y_title;
    numfmt_kind format;
    double y_max; /* 0: from the data */
    /* Optional [categories]: the hover text of each category's bars, in
     * place of "category, series: value". */
    const char *const *tips;
} bar_chart;

void chart_bars(FILE *out, const bar_chart *c);

/* ---- lines over a log2 x axis (chart_lines.c) ---- */

typedef struct line_series {
    const char *name;
    unsigned n;
    const double *x, *y; /* x > 0; NaN y = no point */
    const unsigned char *exact; /* optional: 0 draws a hollow point (a bound) */
} line_series;

typedef struct line_marker {
    double x;
    const char *label; /* e.g. "L1 16 KiB" */
} line_marker;

typedef struct line_chart {
    const char *label;
    unsigned series_count;
    const line_series *series;
    unsigned marker_count;
    const line_marker *markers;
    const char *x_title, *y_title;
    numfmt_kind x_format, y_format;
    double y_max; /* 0: from the data */
} line_chart;

void chart_lines(FILE *out, const line_chart *c);

#endif
