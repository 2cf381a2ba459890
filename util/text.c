/* util/text.c: see text.h. */
#include "util/text.h"

#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at s, or 0 (RFC 3629, Table 3-7
 * of the Unicode standard: each lead byte's allowed second byte). */
static size_t sequence_length(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return 1;
    size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80; /* no overlong form */
        hi = c == 0xED ? 0x9F : 0xBF; /* no surrogate */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF; /* at most U+10FFFF */
    } else
        return 0;
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

int ws_text_is_utf8(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t n = sequence_length(p);
        if (!n)
            return 0;
        p += n;
    }
    return 1;
}

unsigned long ws_text_mend(char *s)
{
    unsigned long mended = 0;
    for (unsigned char *p = (unsigned char *)s; *p;) {
        size_t n = sequence_length(p);
        int control = n == 1 ? (*p < 0x20 || *p == 0x7F) : n == 2 && p[0] == 0xC2 && p[1] < 0xA0;
        if (n && !control) {
            p += n;
            continue;
        }
        for (size_t i = 0; i < (n ? n : 1); i++, p++, mended++)
            *p = '?';
    }
    return mended;
}
