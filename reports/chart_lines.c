/* reports/chart_lines.c: curves over a log2 x axis, for the miss-ratio
 * curves whose capacities double from point to point (see chart.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/colour.h"
#include "reports/svg.h"

#define PLOT_WIDTH 640.0
#define PLOT_HEIGHT 240.0

typedef struct log_axis {
    double lo, hi; /* log2 of the ends */
} log_axis;

static double x_of(const chart_plot *p, const log_axis *a, double v)
{
    return p->x + (log2(v) - a->lo) / (a->hi - a->lo) * p->w;
}

static log_axis x_domain(const line_chart *c, double *y_top)
{
    double lo = INFINITY, hi = 0, top = 0;
    for (unsigned s = 0; s < c->series_count; s++)
        for (unsigned i = 0; i < c->series[s].n; i++) {
            double x = c->series[s].x[i], y = c->series[s].y[i];
            if (!(x > 0) || isnan(y))
                continue;
            lo = fmin(lo, x);
            hi = fmax(hi, x);
            top = fmax(top, y);
        }
    if (!(hi > 0))
        lo = hi = 1;
    *y_top = c->y_max > 0 ? c->y_max : top > 0 ? top : 1;
    log_axis a = {floor(log2(lo)), ceil(log2(hi))};
    if (a.hi <= a.lo)
        a.hi = a.lo + 1;
    return a;
}

/* A grid line at every power of two, a label on every stride-th. */
static void x_axis(FILE *out, const line_chart *c, const chart_plot *p, const log_axis *a)
{
    unsigned powers = (unsigned)(a->hi - a->lo) + 1, stride = (powers + 9) / 10;
    for (unsigned k = 0; k < powers; k++) {
        double v = exp2(a->lo + k), x = x_of(p, a, v);
        svg_line(out, x, p->y, x, p->y + p->h, "grid");
        if (k % stride == 0)
            svg_text(out, x, p->y + p->h + 15, "middle", 0, "tick", numfmt(c->x_format, v).s);
    }
    chart_x_title(out, p, 36, c->x_title, 0);
}

static void markers(FILE *out, const line_chart *c, const chart_plot *p, const log_axis *a)
{
    for (unsigned m = 0; m < c->marker_count; m++) {
        double v = c->markers[m].x;
        if (!(v > 0) || log2(v) < a->lo || log2(v) > a->hi)
            continue;
        double x = x_of(p, a, v), y = p->y + 12 + 14 * m;
        svg_line(out, x, p->y, x, p->y + p->h, "marker");
        /* Right of the line, unless that runs off the plot. */
        if (x + 8 + 6.2 * (double)strlen(c->markers[m].label) > p->x + p->w)
            svg_text(out, x - 4, y, "end", 0, "note", c->markers[m].label);
        else
            svg_text(out, x + 4, y, "start", 0, "note", c->markers[m].label);
    }
}

static void series(FILE *out, const line_chart *c, const chart_plot *p, const log_axis *a,
                   double y_top, unsigned s)
{
    const line_series *ls = &c->series[s];
    double *xs = malloc((ls->n + 1) * sizeof *xs), *ys = malloc((ls->n + 1) * sizeof *ys);
    unsigned n = 0;
    for (unsigned i = 0; xs && ys && i < ls->n; i++)
        if (ls->x[i] > 0 && !isnan(ls->y[i])) {
            xs[n] = x_of(p, a, ls->x[i]);
            ys[n++] = chart_y(p, 0, y_top, ls->y[i]);
        }
    svg_polyline(out, xs, ys, n, colour_series(s));
    char tip[200];
    for (unsigned i = 0, k = 0; i < ls->n && k < n; i++) {
        if (!(ls->x[i] > 0) || isnan(ls->y[i]))
            continue;
        int exact = !ls->exact || ls->exact[i];
        snprintf(tip, sizeof tip, "%s at %s: %s%s", ls->name, numfmt(c->x_format, ls->x[i]).s,
                 numfmt(c->y_format, ls->y[i]).s, exact ? "" : " (bound)");
        svg_circle(out, xs[k], ys[k], 3.5, colour_series(s), !exact, tip);
        k++;
    }
    free(xs);
    free(ys);
}

void chart_lines(FILE *out, const line_chart *c)
{
    double y_top;
    log_axis a = x_domain(c, &y_top);
    chart_plot p = {80, 36, PLOT_WIDTH, PLOT_HEIGHT};
    double ticks[8];
    unsigned n = chart_ticks(0, y_top, 5, ticks);
    y_top = fmax(y_top, ticks[n - 1]);
    svg_open(out, p.x + p.w + 30, p.y + p.h + 50, c->label);
    chart_y_axis(out, &p, 0, y_top, ticks, n, c->y_format, c->y_title);
    x_axis(out, c, &p, &a);
    markers(out, c, &p, &a);
    for (unsigned s = 0; s < c->series_count; s++)
        series(out, c, &p, &a, y_top, s);
    svg_group_open(out, "legend");
    double x = p.x;
    for (unsigned s = 0; s < c->series_count; s++)
        x = chart_legend_entry(out, x, 16, s, c->series[s].name);
    svg_group_close(out);
    svg_close(out);
}
