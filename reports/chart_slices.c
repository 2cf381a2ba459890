/* reports/chart_slices.c: the L2 slice balance (see chart_memory.h).  A
 * small chart of its own rather than chart_bars: up to a hundred slices
 * need thin bars, sparse labels, and the mean drawn across them. */
#include <math.h>

#include "reports/chart.h"
#include "reports/chart_memory.h"
#include "reports/colour.h"
#include "reports/svg.h"

#define BAR_PX 14.0    /* a slice's band, up to the widest plot */
#define PLOT_MIN 240.0
#define PLOT_MAX 720.0
#define LABEL_PX 22.0  /* room a slice number needs */

void chart_slices(FILE *out, const double *requests, unsigned count)
{
    double top = 0, sum = 0;
    unsigned busiest = 0;
    for (unsigned s = 0; s < count; s++) {
        double v = requests[s] > 0 ? requests[s] : 0;
        sum += v;
        if (v > top) {
            top = v;
            busiest = s;
        }
    }
    double mean = count ? sum / count : 0, ticks[8];
    unsigned n = chart_ticks(0, top > 0 ? top : 1, 5, ticks);
    double hi = fmax(top, ticks[n - 1]);
    chart_plot p = {70, 14, fmin(PLOT_MAX, fmax(PLOT_MIN, count * BAR_PX)), 150};
    double band = p.w / (count ? count : 1);
    unsigned every = (unsigned)ceil(LABEL_PX / band); /* a label every this many slices */
    svg_open(out, p.x + p.w + 110, p.y + p.h + 46, "requests per L2 slice");
    chart_y_axis(out, &p, 0, hi, ticks, n, NUMFMT_COUNT, "requests");
    char tip[96], label[48];
    for (unsigned s = 0; s < count; s++) {
        double v = requests[s] > 0 ? requests[s] : 0, y = chart_y(&p, 0, hi, v);
        snprintf(tip, sizeof tip, "slice %u%s: %s requests", s, s == busiest ? " (the busiest)" : "",
                 numfmt_grouped_count(v).s);
        svg_rect(out, p.x + s * band + band * 0.15, y, band * 0.7, p.y + p.h - y,
                 colour_series(s == busiest ? 5 : 0), tip);
        if (s % every == 0) {
            snprintf(label, sizeof label, "%u", s);
            svg_text(out, p.x + (s + 0.5) * band, p.y + p.h + 14, "middle", 0, "tick", label);
        }
    }
    double y = chart_y(&p, 0, hi, mean);
    svg_line(out, p.x, y, p.x + p.w, y, "marker");
    snprintf(label, sizeof label, "mean %s", numfmt_count(mean).s);
    svg_text(out, p.x + p.w + 6, y + 4, "start", 0, "note", label);
    chart_x_title(out, &p, 34, "L2 slice", 0);
    svg_close(out);
}
