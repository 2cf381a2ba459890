/* util/json_print.c: see json_print.h. */
#include "util/json_print.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct text {
    char *bytes;
    size_t len, cap;
    int failed;
} text;

/* Room for n more bytes and the closing NUL. */
static int reserve(text *t, size_t n)
{
    if (t->failed)
        return -1;
    if (t->len + n + 1 <= t->cap)
        return 0;
    size_t cap = t->cap ? t->cap : 4096;
    while (cap < t->len + n + 1)
        cap *= 2;
    char *bytes = realloc(t->bytes, cap);
    if (!bytes) {
        t->failed = 1;
        return -1;
    }
    t->bytes = bytes;
    t->cap = cap;
    return 0;
}

static void put(text *t, const char *s, size_t n)
{
    if (reserve(t, n) != 0)
        return;
    memcpy(t->bytes + t->len, s, n);
    t->len += n;
}

static void put_char(text *t, char c) { put(t, &c, 1); }

static void put_integer(text *t, json_int_t v)
{
    char digits[24];
    size_t at = sizeof digits;
    /* The magnitude as unsigned, so the most negative value prints too. */
    unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[--at] = (char)('0' + m % 10);
        m /= 10;
    } while (m);
    if (v < 0)
        digits[--at] = '-';
    put(t, digits + at, sizeof digits - at);
}

/* As jansson's jsonp_dtostr: "%.*g", then ".0" when there is neither a
 * point nor an exponent, and the exponent's '+' and leading zeros cut. */
static void put_real(text *t, double v, int precision)
{
    char buf[64];
    if (!isfinite(v)) {
        t->failed = 1;
        return;
    }
    int n = snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (n < 0 || (size_t)n >= sizeof buf - 3) {
        t->failed = 1;
        return;
    }
    size_t len = (size_t)n;
    if (!strchr(buf, '.') && !strchr(buf, 'e')) {
        memcpy(buf + len, ".0", 3);
        len += 2;
    }
    char *e = strchr(buf, 'e');
    if (e) {
        char *start = e + 1, *end = start + 1;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, len - (size_t)(end - buf) + 1);
            len -= (size_t)(end - start);
        }
    }
    put(t, buf, len);
}

/* Quote, backslash and control characters escaped, as jansson does
 * without JSON_ENSURE_ASCII or JSON_ESCAPE_SLASH (its strings are valid
 * UTF-8, so looking byte by byte finds the same characters). */
static void put_string(text *t, const char *s, size_t len)
{
    put_char(t, '"');
    size_t from = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c != '"' && c != '\\' && c >= 0x20)
            continue;
        put(t, s + from, i - from);
        from = i + 1;
        char esc[8];
        switch (c) {
        case '"': put(t, "\\\"", 2); break;
        case '\\': put(t, "\\\\", 2); break;
        case '\b': put(t, "\\b", 2); break;
        case '\f': put(t, "\\f", 2); break;
        case '\n': put(t, "\\n", 2); break;
        case '\r': put(t, "\\r", 2); break;
        case '\t': put(t, "\\t", 2); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c);
            put(t, esc, 6);
        }
    }
    put(t, s + from, len - from);
    put_char(t, '"');
}

static void put_value(text *t, const json_t *v, int precision)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *key;
        size_t key_len;
        json_t *member;
        int first = 1;
        put_char(t, '{');
        /* jansson's foreach takes a non-const object; it changes nothing. */
        json_object_keylen_foreach((json_t *)v, key, key_len, member) {
            if (!first)
                put_char(t, ',');
            first = 0;
            put_string(t, key, key_len);
            put_char(t, ':');
            put_value(t, member, precision);
        }
        put_char(t, '}');
        return;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        put_char(t, '[');
        for (size_t i = 0; i < n; i++) {
            if (i)
                put_char(t, ',');
            put_value(t, json_array_get(v, i), precision);
        }
        put_char(t, ']');
        return;
    }
    case JSON_STRING:
        put_string(t, json_string_value(v), json_string_length(v));
        return;
    case JSON_INTEGER:
        put_integer(t, json_integer_value(v));
        return;
    case JSON_REAL:
        put_real(t, json_real_value(v), precision);
        return;
    case JSON_TRUE:
        put(t, "true", 4);
        return;
    case JSON_FALSE:
        put(t, "false", 5);
        return;
    case JSON_NULL:
        put(t, "null", 4);
        return;
    }
}

char *json_print_compact(const json_t *doc, int precision)
{
    if (!doc || precision < 1 || precision > 31)
        return NULL;
    text t = {0};
    put_value(&t, doc, precision);
    if (t.failed || reserve(&t, 0) != 0) {
        free(t.bytes);
        return NULL;
    }
    t.bytes[t.len] = '\0';
    return t.bytes;
}
