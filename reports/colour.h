/* reports/colour.h: the report's colours.
 *
 * A sequential scale for heatmaps (light = little, dark = much, so a white
 * page reads at a glance) and a categorical palette for series, chosen to
 * stay distinct for colour-blind readers. */
#ifndef WS_COLOUR_H
#define WS_COLOUR_H

typedef struct colour_hex {
    char s[8]; /* "#rrggbb" */
} colour_hex;

/* t in [0, 1]; values outside are clamped, NaN gives the "no data" grey. */
colour_hex colour_scale(double t);

/* Series i of a chart; repeats after COLOUR_SERIES. */
#define COLOUR_SERIES 6
const char *colour_series(unsigned i);

/* Cells that hold no value, or a value off the scale (a matrix diagonal). */
#define COLOUR_NONE "#f2f2f2"
#define COLOUR_OFF_SCALE "#bdbdbd"

#endif
