/* util/digits.c: see digits.h. */
#include "util/digits.h"

#include <stdio.h>

void ws_group_digits(char *dst, size_t cap, unsigned long long value)
{
    if (!cap)
        return;
    char digits[24];
    int n = snprintf(digits, sizeof digits, "%llu", value);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < cap; i++) {
        if (i && (n - i) % 3 == 0)
            dst[o++] = ',';
        dst[o++] = digits[i];
    }
    dst[o] = '\0';
}
