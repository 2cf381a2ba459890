/* reports/chart_axes.c: axis pieces every chart shares (see chart.h). */
#include <math.h>
#include <string.h>

#include "reports/chart.h"
#include "reports/colour.h"
#include "reports/svg.h"

unsigned chart_ticks(double lo, double hi, unsigned max_ticks, double *ticks)
{
    if (!(hi > lo) || max_ticks < 2) {
        ticks[0] = lo;
        return 1;
    }
    double raw = (hi - lo) / (max_ticks - 1), mag = pow(10, floor(log10(raw))), step = 10 * mag;
    static const double nice[] = {1, 2, 2.5, 5, 10};
    for (unsigned i = 0; i < sizeof nice / sizeof nice[0]; i++)
        if (nice[i] * mag >= raw) {
            step = nice[i] * mag;
            break;
        }
    unsigned n = 0;
    double first = ceil(lo / step) * step;
    /* Up to the first tick at or above hi, so the top grid line closes the plot. */
    for (double v = first; n <= max_ticks; v = first + n * step) {
        ticks[n++] = v;
        if (v >= hi - step * 1e-9)
            break;
    }
    return n;
}

double chart_y(const chart_plot *p, double lo, double hi, double v)
{
    double t = hi > lo ? (v - lo) / (hi - lo) : 0;
    return p->y + p->h * (1 - t);
}

void chart_y_axis(FILE *out, const chart_plot *p, double lo, double hi, const double *ticks,
                  unsigned tick_count, numfmt_kind format, const char *title)
{
    for (unsigned i = 0; i < tick_count; i++) {
        double y = chart_y(p, lo, hi, ticks[i]);
        svg_line(out, p->x, y, p->x + p->w, y, "grid");
        svg_text(out, p->x - 6, y + 4, "end", 0, "tick", numfmt(format, ticks[i]).s);
    }
    svg_line(out, p->x, p->y, p->x, p->y + p->h, "axis");
    svg_line(out, p->x, p->y + p->h, p->x + p->w, p->y + p->h, "axis");
    svg_text(out, 14, p->y + p->h / 2, "middle", -90, "title", title);
}

void chart_x_title(FILE *out, const chart_plot *p, double drop, const char *title, double right)
{
    double centre = p->x + p->w / 2, half = CHART_TITLE_CHAR_PX * (double)strlen(title) / 2;
    if (right > 0 && centre + half > right - 8)
        centre = fmax(right - 8 - half, half + 4);
    svg_text(out, centre, p->y + p->h + drop, "middle", 0, "title", title);
}

double chart_legend_entry(FILE *out, double x, double y, unsigned i, const char *name)
{
    svg_rect(out, x, y - 10, 12, 12, colour_series(i), NULL);
    svg_text(out, x + 17, y, "start", 0, "tick", name);
    return x + 17 + 7.0 * (double)strlen(name) + 20;
}

/* Continuation bytes of UTF-8 are 10xxxxxx. */
static int continuation(char c)
{
    return ((unsigned char)c & 0xc0) == 0x80;
}

/* The byte offset where character n of s starts (strlen when shorter). */
static size_t char_start(const char *s, unsigned n)
{
    size_t at = 0;
    for (unsigned chars = 0; s[at]; at++)
        if (!continuation(s[at]) && chars++ == n)
            return at;
    return at;
}

void chart_clip(char *dst, size_t size, const char *label, unsigned max_chars)
{
    const char *s = label ? label : "";
    size_t len = strlen(s), keep = char_start(s, max_chars);
    if (keep == len && len < size) {
        memcpy(dst, s, len + 1);
        return;
    }
    keep = char_start(s, max_chars > 1 ? max_chars - 1 : 0);
    while (keep > 0 && keep + 4 > size) /* room for the 3-byte ellipsis and NUL */
        while (--keep > 0 && continuation(s[keep]))
            ;
    snprintf(dst, size, "%.*s\xe2\x80\xa6", (int)keep, s);
}
