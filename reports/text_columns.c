/* reports/text_columns.c: see text_columns.h. */
#include "reports/text_columns.h"

int text_chars(const char *s)
{
    int chars = 0;
    for (const char *c = s; *c; c++)
        chars += ((unsigned char)*c & 0xc0) != 0x80;
    return chars;
}

void text_column(FILE *out, const char *text, int width)
{
    int chars = text_chars(text);
    fprintf(out, "%s%*s", text, chars < width ? width - chars : 1, "");
}
