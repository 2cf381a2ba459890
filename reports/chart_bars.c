/* reports/chart_bars.c: bars per category, side by side or stacked (see
 * chart.h). */
#include <math.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/colour.h"
#include "reports/svg.h"

#define CHAR_PX 6.5
#define PLOT_WIDTH 640.0
#define PLOT_HEIGHT 220.0

/* The largest bar (or stack) top, so the axis covers every bar. */
static double top_of(const bar_chart *c)
{
    double top = 0;
    for (unsigned k = 0; k < c->categories; k++) {
        double stack = 0;
        for (unsigned s = 0; s < c->series_count; s++) {
            double v = c->series[s].values[k];
            if (!(v > 0))
                continue;
            stack = c->stacked ? stack + v : fmax(stack, v);
        }
        top = fmax(top, stack);
    }
    return top > 0 ? top : 1;
}

static void bars(FILE *out, const bar_chart *c, const chart_plot *p, double hi)
{
    double band = p->w / c->categories, group = band * 0.7;
    double bar_w = c->stacked ? group : group / c->series_count;
    char tip[256];
    for (unsigned k = 0; k < c->categories; k++) {
        double x = p->x + k * band + (band - group) / 2, base = 0;
        for (unsigned s = 0; s < c->series_count; s++) {
            double v = c->series[s].values[k];
            if (isnan(v))
                continue;
            double bottom = c->stacked ? base : 0, top = bottom + (v > 0 ? v : 0);
            double y_top = chart_y(p, 0, hi, top), y_bottom = chart_y(p, 0, hi, bottom);
            if (c->tips)
                snprintf(tip, sizeof tip, "%s", c->tips[k]);
            else
                snprintf(tip, sizeof tip, "%s, %s: %s", c->category_labels[k],
                         c->series[s].name, numfmt(c->format, v).s);
            svg_rect(out, c->stacked ? x : x + s * bar_w, y_top, bar_w, y_bottom - y_top,
                     colour_series(s), tip);
            base = top;
        }
    }
}

static void category_labels(FILE *out, const bar_chart *c, const chart_plot *p, int rotate)
{
    double band = p->w / c->categories;
    for (unsigned k = 0; k < c->categories; k++) {
        double x = p->x + (k + 0.5) * band, y = p->y + p->h + 15;
        if (rotate)
            svg_text(out, x + 4, y, "end", -40, "tick", c->category_labels[k]);
        else
            svg_text(out, x, y, "middle", 0, "tick", c->category_labels[k]);
    }
}

void chart_bars(FILE *out, const bar_chart *c)
{
    size_t widest = 1;
    for (unsigned k = 0; k < c->categories; k++)
        widest = fmax(widest, strlen(c->category_labels[k]));
    double band = PLOT_WIDTH / (c->categories ? c->categories : 1);
    int rotate = widest * CHAR_PX + 6 > band; /* slanted labels when they would collide */
    double label_drop = rotate ? 0.65 * widest * CHAR_PX + 18 : 18;
    chart_plot p = {80, c->series_count > 1 ? 36 : 16, PLOT_WIDTH, PLOT_HEIGHT};
    double hi_raw = c->y_max > 0 ? c->y_max : top_of(c), ticks[8];
    unsigned n = chart_ticks(0, hi_raw, 6, ticks);
    double hi = fmax(hi_raw, ticks[n - 1]);
    svg_open(out, p.x + p.w + 20, p.y + p.h + label_drop + 30, c->label);
    chart_y_axis(out, &p, 0, hi, ticks, n, c->format, c->y_title);
    if (c->categories)
        bars(out, c, &p, hi);
    category_labels(out, c, &p, rotate);
    chart_x_title(out, &p, label_drop + 18, c->x_title, 0);
    if (c->series_count > 1) {
        svg_group_open(out, "legend");
        double x = p.x;
        for (unsigned s = 0; s < c->series_count; s++)
            x = chart_legend_entry(out, x, 16, s, c->series[s].name);
        svg_group_close(out);
    }
    svg_close(out);
}
