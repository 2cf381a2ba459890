/* reports/colour.c: see colour.h. */
#include "reports/colour.h"

#include <math.h>
#include <stdio.h>

/* Pale yellow through green and blue to deep indigo: lightness falls
 * steadily, so the order of two cells is clear without the legend. */
static const unsigned char stops[][3] = {
    {255, 255, 217}, {199, 233, 180}, {127, 205, 187}, {65, 182, 196},
    {29, 145, 192},  {34, 94, 168},   {37, 52, 148},   {8, 29, 88},
};
#define STOPS (sizeof stops / sizeof stops[0])

colour_hex colour_scale(double t)
{
    colour_hex c;
    if (isnan(t)) {
        snprintf(c.s, sizeof c.s, "%s", COLOUR_NONE);
        return c;
    }
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    double at = t * (STOPS - 1);
    unsigned i = (unsigned)at;
    if (i >= STOPS - 1)
        i = STOPS - 2;
    double f = at - i;
    int rgb[3];
    for (int k = 0; k < 3; k++)
        rgb[k] = (int)lround(stops[i][k] + f * (stops[i + 1][k] - stops[i][k]));
    snprintf(c.s, sizeof c.s, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
    return c;
}

/* Okabe and Ito's palette for colour-blind readers, darkest first. */
static const char *const series[COLOUR_SERIES] = {"#0072b2", "#e69f00", "#009e73",
                                                  "#cc79a7", "#56b4e9", "#d55e00"};

const char *colour_series(unsigned i)
{
    return series[i % COLOUR_SERIES];
}
