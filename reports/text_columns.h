/* reports/text_columns.h: aligned terminal columns of text that may hold
 * UTF-8 (μRC, →): padded by characters, not bytes. */
#ifndef WS_TEXT_COLUMNS_H
#define WS_TEXT_COLUMNS_H

#include <stdio.h>

/* The characters of a UTF-8 string. */
int text_chars(const char *s);
/* text, then spaces up to width characters (at least one after it). */
void text_column(FILE *out, const char *text, int width);

#endif
