/* reports/chart_heatmap.c: a matrix of coloured cells with its colour
 * legend (see chart.h). */
#include <math.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/colour.h"
#include "reports/svg.h"

#define CHAR_PX 6.2 /* width of a label character at the page's font size */
#define LEGEND_STEPS 32

/* The bottom of the scale: h->min on a linear scale below the top. */
static double bottom_of(const heatmap *h)
{
    return !h->log_scale && h->min > 0 && h->min < h->max ? h->min : 0;
}

/* Where v sits on the colour scale, 0..1. */
static double scale_of(const heatmap *h, double v)
{
    if (!(h->max > 0))
        return 0;
    double low = bottom_of(h);
    return h->log_scale ? log1p(v) / log1p(h->max) : fmax(0, v - low) / (h->max - low);
}

/* The value at scale position t: the inverse of scale_of, for legend ticks. */
static double value_at(const heatmap *h, double t)
{
    double low = bottom_of(h);
    return h->log_scale ? expm1(t * log1p(h->max)) : low + t * (h->max - low);
}

static unsigned longest(const char *const *labels, unsigned n)
{
    size_t most = 1;
    for (unsigned i = 0; labels && i < n; i++)
        if (labels[i] && strlen(labels[i]) > most)
            most = strlen(labels[i]);
    return (unsigned)most;
}

static void cells(FILE *out, const heatmap *h, const chart_plot *p, double cw, double ch)
{
    /* Empty cells are the background: only cells with a value are drawn. */
    svg_rect(out, p->x, p->y, p->w, p->h, COLOUR_NONE, NULL);
    char tip[320];
    for (unsigned r = 0; r < h->rows; r++)
        for (unsigned c = 0; c < h->cols; c++) {
            size_t i = (size_t)r * h->cols + c;
            double v = h->values[i];
            int off = h->off_scale && h->off_scale[i];
            if (!off && !(v > 0))
                continue;
            snprintf(tip, sizeof tip, "%s, %s: %s", h->row_labels[r], h->col_labels[c],
                     numfmt(h->format, v).s);
            svg_rect(out, p->x + c * cw, p->y + r * ch, cw, ch,
                     off ? COLOUR_OFF_SCALE : colour_scale(scale_of(h, v)).s, tip);
        }
}

/* legend_x: where the legend starts, which the x title must not reach. */
static void labels(FILE *out, const heatmap *h, const chart_plot *p, double cw, double ch,
                   double label_width, double legend_x)
{
    char text[160];
    unsigned row_stride = (unsigned)ceil(12 / ch);
    for (unsigned r = 0; r < h->rows; r += row_stride) {
        chart_clip(text, sizeof text, h->row_labels[r], (unsigned)(label_width / CHAR_PX));
        svg_text(out, p->x - 6, p->y + (r + 0.5) * ch + 4, "end", 0, "tick", text);
    }
    /* Every stride-th column is labelled, and always the last (the cold
     * column of a reuse heatmap), dropping its neighbour if they would touch. */
    double label_px = longest(h->col_labels, h->cols) * CHAR_PX + 4;
    unsigned col_stride = (unsigned)ceil(label_px / cw), last = h->cols - 1;
    for (unsigned c = 0; c < h->cols; c += col_stride)
        if (c == last || (last - c) * cw >= label_px)
            svg_text(out, p->x + (c + 0.5) * cw, p->y + p->h + 15, "middle", 0, "tick", h->col_labels[c]);
    if (last % col_stride != 0)
        svg_text(out, p->x + (last + 0.5) * cw, p->y + p->h + 15, "middle", 0, "tick", h->col_labels[last]);
    chart_x_title(out, p, 36, h->x_title, legend_x);
    /* A y title longer than a short plot would be cut off: it goes on top. */
    if (strlen(h->y_title) * CHAR_PX > p->h)
        svg_text(out, 4, p->y - 10, "start", 0, "title", h->y_title);
    else
        svg_text(out, 14, p->y + p->h / 2, "middle", -90, "title", h->y_title);
}

/* Values to mark on the legend: quarters of a linear scale, powers of ten
 * on a log one (3.82 says less than 1, 10, 100); the top is always marked. */
static unsigned legend_ticks(const heatmap *h, double *ticks)
{
    unsigned n = 0;
    if (!h->log_scale) {
        for (int k = 0; k <= 4; k++) {
            double v = value_at(h, k / 4.0);
            ticks[n++] = h->format == NUMFMT_COUNT && v >= 10 ? round(v) : v; /* counts are whole */
        }
        return n;
    }
    ticks[n++] = 0;
    for (double p = 1; p < h->max && n < 8; p *= 10)
        ticks[n++] = p;
    ticks[n++] = h->max;
    return n;
}

/* A vertical colour bar, top = max, with its value ticks; returns its
 * bottom so the notes go below. */
static double legend(FILE *out, const heatmap *h, double x, double y, double height)
{
    svg_text(out, x, y - 12, "start", 0, "title", h->legend_title);
    double step = height / LEGEND_STEPS;
    for (int i = 0; i < LEGEND_STEPS; i++) {
        double t = 1 - (i + 0.5) / LEGEND_STEPS;
        svg_rect(out, x, y + i * step, 14, step + 0.5, colour_scale(t).s, NULL);
    }
    double ticks[10];
    unsigned n = legend_ticks(h, ticks);
    double last_y = INFINITY;
    for (unsigned k = 0; k < n; k++) {
        double ty = y + height * (1 - scale_of(h, ticks[k]));
        /* Skip a tick whose label would touch the previous one, but not the top. */
        if (last_y - ty < 12 && k + 1 < n)
            continue;
        svg_line(out, x + 14, ty, x + 18, ty, "axis");
        svg_text(out, x + 21, ty + 4, "start", 0, "tick", numfmt(h->format, ticks[k]).s);
        last_y = ty;
    }
    double at = y + height + 20;
    svg_rect(out, x, at - 10, 14, 12, COLOUR_NONE, NULL);
    svg_text(out, x + 20, at, "start", 0, "tick", "none");
    if (h->off_scale && h->off_scale_note) {
        at += 18;
        svg_rect(out, x, at - 10, 14, 12, COLOUR_OFF_SCALE, NULL);
        svg_text(out, x + 20, at, "start", 0, "tick", h->off_scale_note);
    }
    if (h->scale_note) {
        at += 18;
        svg_text(out, x, at, "start", 0, "note", h->scale_note);
    }
    return at;
}

void chart_heatmap(FILE *out, const heatmap *h)
{
    double label_width = h->label_width > 0 ? h->label_width : 120;
    double max_w = h->plot_width > 0 ? h->plot_width : 600, max_h = h->plot_height > 0 ? h->plot_height : 420;
    if (h->rows == 0 || h->cols == 0) {
        svg_open(out, 300, 40, h->label);
        svg_text(out, 10, 24, "start", 0, "note", "no data");
        svg_close(out);
        return;
    }
    unsigned rows = h->rows, cols = h->cols;
    double cw = fmin(32, max_w / cols), ch = fmin(18, max_h / rows);
    if (h->square)
        cw = ch = fmin(cw, max_h / rows);
    chart_plot p = {28 + label_width, 24, cols * cw, rows * ch};
    double legend_x = p.x + p.w + 24, legend_h = fmax(120, fmin(p.h, 240));
    const char *notes[] = {h->legend_title, h->off_scale ? h->off_scale_note : NULL, h->scale_note};
    double legend_w = 90;
    for (int i = 0; i < 3; i++)
        if (notes[i])
            legend_w = fmax(legend_w, 24 + CHAR_PX * (double)strlen(notes[i]));
    double legend_bottom = p.y + legend_h + 20 + (h->off_scale && h->off_scale_note ? 18 : 0) +
                           (h->scale_note ? 18 : 0);
    double height = fmax(p.y + p.h + 48, legend_bottom + 10);
    svg_open(out, legend_x + legend_w, height, h->label);
    cells(out, h, &p, cw, ch);
    labels(out, h, &p, cw, ch, label_width, legend_x);
    svg_group_open(out, "legend");
    legend(out, h, legend_x, p.y, legend_h);
    svg_group_close(out);
    svg_close(out);
}
