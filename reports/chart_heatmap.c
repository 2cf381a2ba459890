/* reports/chart_heatmap.c: a matrix of coloured cells with its colour
 * legend (see chart.h). */
#include <math.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/colour.h"
#include "reports/svg.h"

#define CHAR_PX 6.2 /* width of a label character at the page's font size */
#define LEGEND_STEPS 32
#define WEIGHT_BAR_PX 40    /* the longest row-weight bar */
#define WEIGHT_COLUMN_PX 92 /* the bar and its percentage */

/* The colour scale of one heatmap: values low..high map to the scale's
 * ends, and note says so under the legend. */
typedef struct heatmap_scale {
    double low, high;
    int log;
    char note[96];
} heatmap_scale;

static int is_count(numfmt_kind format) { return format == NUMFMT_COUNT || format == NUMFMT_BYTES; }

/* The one colour-scale rule (docs/html-report.md, "Colour scales").
 * Counts start at 0: a colour then says how many, and two cells of one
 * colour hold about as many, so a field of near-equal counts reads as one
 * colour rather than a checkerboard of small differences.  Shares and
 * ratios are bounded and a few points matter (94% against 97% hits), so
 * their colours span the data's own range, which the legend states. */
static heatmap_scale heatmap_scale_rule(const heatmap *h)
{
    double least = INFINITY, most = 0;
    for (size_t i = 0; i < (size_t)h->rows * h->cols; i++)
        if (!(h->off_scale && h->off_scale[i]) && h->values[i] > 0) {
            least = fmin(least, h->values[i]);
            most = fmax(most, h->values[i]);
        }
    heatmap_scale s = {.low = 0, .high = most > 0 ? most : 1, .log = h->log_scale};
    if (is_count(h->format)) {
        snprintf(s.note, sizeof s.note, "%scolours from 0 to the largest cell",
                 s.log ? "log " : "");
    } else if (most > least) {
        s.low = least;
        s.log = 0;
        snprintf(s.note, sizeof s.note, "colours span the data: %s to %s",
                 numfmt(h->format, least).s, numfmt(h->format, most).s);
    } else {
        s.log = 0;
        snprintf(s.note, sizeof s.note, "every cell %s", numfmt(h->format, s.high).s);
    }
    return s;
}

/* Where v sits on the colour scale, 0..1. */
static double scale_of(const heatmap_scale *s, double v)
{
    if (s->log)
        return log1p(fmax(v, 0)) / log1p(s->high);
    return s->high > s->low ? fmax(0, v - s->low) / (s->high - s->low) : 1;
}

static unsigned longest(const char *const *labels, unsigned n)
{
    size_t most = 1;
    for (unsigned i = 0; labels && i < n; i++)
        if (labels[i] && strlen(labels[i]) > most)
            most = strlen(labels[i]);
    return (unsigned)most;
}

static void cells(FILE *out, const heatmap *h, const heatmap_scale *s, const chart_plot *p,
                  double cw, double ch)
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
                     off ? COLOUR_OFF_SCALE : colour_scale(scale_of(s, v)).s, tip);
        }
}

/* Column labels: every stride-th one, and always the last (the cold column
 * of a reuse heatmap), dropping its neighbour if they would touch. */
static void column_labels(FILE *out, const heatmap *h, const chart_plot *p, double cw)
{
    double label_px = longest(h->col_labels, h->cols) * CHAR_PX + 4;
    unsigned col_stride = (unsigned)ceil(label_px / cw), last = h->cols - 1;
    for (unsigned c = 0; c < h->cols; c += col_stride)
        if (c == last || (last - c) * cw >= label_px)
            svg_text(out, p->x + (c + 0.5) * cw, p->y + p->h + 15, "middle", 0, "tick",
                     h->col_labels[c]);
    if (last % col_stride != 0)
        svg_text(out, p->x + (last + 0.5) * cw, p->y + p->h + 15, "middle", 0, "tick",
                 h->col_labels[last]);
}

/* A continuous x axis 0..x_max under the columns, at round values. */
static void x_ticks(FILE *out, const heatmap *h, const chart_plot *p)
{
    double ticks[12];
    unsigned n = chart_ticks(0, h->x_max, 6, ticks);
    for (unsigned k = 0; k < n; k++) {
        if (ticks[k] > h->x_max * (1 + 1e-9))
            break;
        double x = p->x + p->w * ticks[k] / h->x_max;
        svg_line(out, x, p->y + p->h, x, p->y + p->h + 4, "axis");
        svg_text(out, x, p->y + p->h + 15, "middle", 0, "tick", numfmt(h->x_format, ticks[k]).s);
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
    if (h->x_max > 0)
        x_ticks(out, h, p);
    else
        column_labels(out, h, p, cw);
    chart_x_title(out, p, 36, h->x_title, legend_x);
    /* A y title longer than a short plot would be cut off: it goes on top. */
    if (strlen(h->y_title) * CHAR_PX > p->h)
        svg_text(out, 4, p->y - 10, "start", 0, "title", h->y_title);
    else
        svg_text(out, 14, p->y + p->h / 2, "middle", -90, "title", h->y_title);
}

/* Dashed lines at the markers' columns, labelled above the plot, the label
 * on the side with more room. */
static void markers(FILE *out, const heatmap *h, const chart_plot *p, double cw)
{
    for (unsigned m = 0; m < h->marker_count; m++) {
        double x = p->x + h->markers[m].column * cw;
        if (x < p->x || x > p->x + p->w)
            continue;
        svg_line(out, x, p->y - 4, x, p->y + p->h, "capacity");
        int right_half = x > p->x + p->w / 2;
        svg_text(out, right_half ? x - 3 : x + 3, p->y - 6, right_half ? "end" : "start", 0, "tick",
                 h->markers[m].label);
    }
}

/* Each row's weight as a bar and a percentage beside the plot. */
static void row_weights(FILE *out, const heatmap *h, const chart_plot *p, double ch)
{
    double x = p->x + p->w + 8;
    svg_text(out, x, p->y - 6, "start", 0, "tick", h->row_weight_title ? h->row_weight_title : "");
    unsigned row_stride = (unsigned)ceil(12 / ch);
    for (unsigned r = 0; r < h->rows; r++) {
        double w = h->row_weights[r];
        if (!(w >= 0))
            continue;
        char tip[320];
        snprintf(tip, sizeof tip, "%s: %s of the requests", h->row_labels[r], numfmt_percent(w).s);
        double bar_h = fmax(1, fmin(ch - 2, 10));
        svg_rect(out, x, p->y + (r + 0.5) * ch - bar_h / 2, fmax(0.5, WEIGHT_BAR_PX * fmin(w, 1)),
                 bar_h, colour_series(0), tip);
        if (r % row_stride == 0)
            svg_text(out, x + WEIGHT_BAR_PX + 4, p->y + (r + 0.5) * ch + 4, "start", 0, "tick",
                     numfmt_percent(w).s);
    }
}

/* Values to mark on the legend: the ends of the scale and round values
 * between them (chart_ticks); powers of ten on a log scale. */
static unsigned legend_ticks(const heatmap_scale *s, double *ticks)
{
    unsigned n = 0;
    ticks[n++] = s->low;
    if (s->log) {
        for (double p = 1; p < s->high && n < 8; p *= 10)
            ticks[n++] = p;
    } else {
        double round_ticks[12];
        unsigned k = chart_ticks(s->low, s->high, 5, round_ticks);
        for (unsigned i = 0; i < k && n < 8; i++)
            if (round_ticks[i] > s->low && round_ticks[i] < s->high)
                ticks[n++] = round_ticks[i];
    }
    if (s->high > s->low)
        ticks[n++] = s->high;
    return n;
}

/* A vertical colour bar, top = high, with its value ticks; returns its
 * bottom so the notes go below. */
static double legend(FILE *out, const heatmap *h, const heatmap_scale *s, double x, double y,
                     double height)
{
    svg_text(out, x, y - 12, "start", 0, "title", h->legend_title);
    double step = height / LEGEND_STEPS;
    for (int i = 0; i < LEGEND_STEPS; i++) {
        double t = 1 - (i + 0.5) / LEGEND_STEPS;
        svg_rect(out, x, y + i * step, 14, step + 0.5, colour_scale(t).s, NULL);
    }
    double ticks[12];
    unsigned n = legend_ticks(s, ticks);
    /* From the top down, skipping a tick whose label would touch the one
     * drawn above it: the top (the largest cell) is always marked. */
    double last_y = -INFINITY;
    for (unsigned k = n; k-- > 0;) {
        double ty = y + height * (1 - scale_of(s, ticks[k]));
        if (ty - last_y < 12)
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
    at += 18;
    svg_text(out, x, at, "start", 0, "note", s->note); /* the rule, stated */
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
    heatmap_scale s = heatmap_scale_rule(h);
    unsigned rows = h->rows, cols = h->cols;
    double cw = fmin(32, max_w / cols), ch = fmin(18, max_h / rows);
    if (h->square)
        cw = ch = fmin(cw, max_h / rows);
    chart_plot p = {28 + label_width, 24, cols * cw, rows * ch};
    double weights_w = h->row_weights ? WEIGHT_COLUMN_PX : 0;
    double legend_x = p.x + p.w + weights_w + 24, legend_h = fmax(120, fmin(p.h, 240));
    double legend_w = fmax(90, 24 + CHAR_PX * (double)strlen(h->legend_title));
    if (h->off_scale && h->off_scale_note)
        legend_w = fmax(legend_w, 24 + CHAR_PX * (double)strlen(h->off_scale_note));
    legend_w = fmax(legend_w, 8 + CHAR_PX * (double)strlen(s.note));
    double legend_bottom = p.y + legend_h + 20 + (h->off_scale && h->off_scale_note ? 18 : 0) + 18;
    double height = fmax(p.y + p.h + 48, legend_bottom + 10);
    svg_open(out, legend_x + legend_w, height, h->label);
    cells(out, h, &s, &p, cw, ch);
    markers(out, h, &p, cw);
    labels(out, h, &p, cw, ch, label_width, legend_x);
    if (h->row_weights)
        row_weights(out, h, &p, ch);
    svg_group_open(out, "legend");
    legend(out, h, &s, legend_x, p.y, legend_h);
    svg_group_close(out);
    svg_close(out);
}
