/* reports/numfmt.c: see numfmt.h. */
#include "reports/numfmt.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

#include "util/digits.h"

/* value / base^k with the largest k that keeps it >= 1; one decimal below
 * 100 so "1.2M" and "123M" both stay short. */
static numtext scaled(double value, double base, const char *const *units, int unit_count,
                      const char *sep)
{
    numtext t;
    double mag = fabs(value);
    int k = 0;
    while (k + 1 < unit_count && mag >= base) {
        mag /= base;
        value /= base;
        k++;
    }
    if (value == floor(value)) /* 512 B, 16 KiB, 12k: no ".0" */
        snprintf(t.s, sizeof t.s, "%.0f%s%s", value, sep, units[k]);
    else
        snprintf(t.s, sizeof t.s, mag < 100 ? "%.1f%s%s" : "%.0f%s%s", value, sep, units[k]);
    return t;
}

numtext numfmt_count(double value)
{
    static const char *const units[] = {"", "k", "M", "G", "T", "P"};
    if (isnan(value))
        return (numtext){"n/a"};
    if (fabs(value) < 1000 && value != floor(value))
        return numfmt(NUMFMT_PLAIN, value);
    return scaled(value, 1000, units, 6, "");
}

numtext numfmt_bytes(double bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    if (isnan(bytes))
        return (numtext){"n/a"};
    return scaled(bytes, 1024, units, 6, " ");
}

numtext numfmt_percent(double ratio)
{
    numtext t;
    double p = 100 * ratio;
    if (isnan(ratio))
        return (numtext){"n/a"};
    /* Small shares keep a significant digit instead of rounding to 0.0%. */
    snprintf(t.s, sizeof t.s, p != 0 && fabs(p) < 1 ? "%.2f%%" : "%.1f%%", p);
    return t;
}

numtext numfmt(numfmt_kind kind, double value)
{
    numtext t;
    if (isnan(value))
        return (numtext){"n/a"};
    switch (kind) {
    case NUMFMT_COUNT:
        return numfmt_count(value);
    case NUMFMT_PERCENT:
        return numfmt_percent(value);
    case NUMFMT_BYTES:
        return numfmt_bytes(value);
    case NUMFMT_TIMES:
        snprintf(t.s, sizeof t.s, "%.2f\xc3\x97", value); /* U+00D7 multiplication sign */
        return t;
    case NUMFMT_PLAIN:
    default:
        snprintf(t.s, sizeof t.s, "%.3g", value);
        return t;
    }
}

numtext numfmt_grouped_count(double value)
{
    if (!(value > 0))
        return numfmt_grouped(0);
    return numfmt_grouped(value >= 0x1p64 ? ULLONG_MAX : (unsigned long long)value);
}

numtext numfmt_grouped(unsigned long long value)
{
    numtext t;
    ws_group_digits(t.s, sizeof t.s, value);
    return t;
}

numtext numfmt_share(double num, double den) { return numfmt_percent(den > 0 ? num / den : NAN); }
