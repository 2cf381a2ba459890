/* util/fmt_g.h: snprintf(buf, size, "%.*g", precision, v), the same
 * bytes, a tenth of the instructions where it can be sure of them.
 *
 * A report's reals (hit rates, means, ratios: ten significant digits) were
 * most of the cost of printing it, each a trip through printf's exact
 * multi-precision conversion.  Here v's digits come from one long double
 * product v * 10^k (exact powers of ten: 64-bit significands) and are used
 * only when the rounding they imply cannot be wrong (zero aside, written
 * at once): precision at most 15,
 * |v| between 1e-10 and 1e20, and the part rounded off not within 1e-4 of
 * a half (the product's error is below 6e-5 of a unit there).  Anything
 * else, ties included, goes to snprintf itself. */
#ifndef WS_FMT_G_H
#define WS_FMT_G_H

#include <stddef.h>

/* As snprintf(buf, size, "%.*g", precision, v): the length it would have. */
int fmt_g(char *buf, size_t size, int precision, double v);
/* The fast way alone: its text's length in out (48 bytes), or 0 where it
 * is not sure of the rounding or v is out of its range. */
int fmt_g_fast(char *out, int precision, double v);

#endif
