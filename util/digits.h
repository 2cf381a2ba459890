/* util/digits.h: whole numbers with thousands separators ("1,234,567"),
 * for the terminal (reports/numfmt.h's numfmt_grouped, the progress bar). */
#ifndef WS_DIGITS_H
#define WS_DIGITS_H

#include <stddef.h>

/* Writes value grouped by threes into dst (cap >= 27 holds any value). */
void ws_group_digits(char *dst, size_t cap, unsigned long long value);

#endif
