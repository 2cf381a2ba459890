/* util/json_write.c: see json_write.h. */
#include "util/json_write.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fmt_g.h"

void json_writer_init(json_writer *w, int precision)
{
    memset(w, 0, sizeof *w);
    w->precision = precision;
    w->failed = precision < 1 || precision > 31;
}

char *json_writer_finish(json_writer *w)
{
    char *text = w->bytes;
    if (!w->failed && !text) /* nothing written: an empty text */
        text = calloc(1, 1);
    else if (w->failed) {
        free(text);
        text = NULL;
    } else {
        text[w->len] = '\0'; /* room kept by reserve */
    }
    w->bytes = NULL;
    w->len = w->cap = 0;
    return text;
}

/* Room for n more bytes and the closing NUL. */
static int reserve(json_writer *w, size_t n)
{
    if (w->failed)
        return -1;
    if (w->len + n + 1 <= w->cap)
        return 0;
    size_t cap = w->cap ? w->cap : 4096;
    while (cap < w->len + n + 1)
        cap *= 2;
    char *bytes = realloc(w->bytes, cap);
    if (!bytes) {
        w->failed = 1;
        return -1;
    }
    w->bytes = bytes;
    w->cap = cap;
    return 0;
}

static void put(json_writer *w, const char *s, size_t n)
{
    if (reserve(w, n) != 0)
        return;
    memcpy(w->bytes + w->len, s, n);
    w->len += n;
}

static void put_char(json_writer *w, char c)
{
    if (reserve(w, 1) == 0)
        w->bytes[w->len++] = c;
}

/* A value or key begins: ',' after a previous member or element. */
static void begin(json_writer *w)
{
    if (w->after_value)
        put_char(w, ',');
}

static void open_with(json_writer *w, char c)
{
    begin(w);
    put_char(w, c);
    w->after_value = 0;
}

static void close_with(json_writer *w, char c)
{
    put_char(w, c);
    w->after_value = 1;
}

void json_write_object(json_writer *w) { open_with(w, '{'); }
void json_write_object_end(json_writer *w) { close_with(w, '}'); }
void json_write_array(json_writer *w) { open_with(w, '['); }
void json_write_array_end(json_writer *w) { close_with(w, ']'); }

/* The bytes escaped in a string: the control characters, quote and
 * backslash (a table: one look per byte of every key). */
static const unsigned char escaped[256] = {
    [0x00 ... 0x1f] = 1,
    ['"'] = 1,
    ['\\'] = 1,
};

static int plain(unsigned char c) { return !escaped[c]; }

/* Quote, backslash and control characters escaped, as jansson does
 * without JSON_ENSURE_ASCII or JSON_ESCAPE_SLASH (its strings are valid
 * UTF-8, so looking byte by byte finds the same characters). */
static void put_string(json_writer *w, const char *s, size_t len)
{
    size_t i = 0;
    while (i < len && plain((unsigned char)s[i]))
        i++;
    if (i == len) { /* nothing to escape (a report's keys): one copy */
        if (reserve(w, len + 2) == 0) {
            char *at = w->bytes + w->len;
            at[0] = '"';
            memcpy(at + 1, s, len);
            at[len + 1] = '"';
            w->len += len + 2;
        }
        return;
    }
    put_char(w, '"');
    size_t from = 0;
    for (; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (plain(c))
            continue;
        put(w, s + from, i - from);
        from = i + 1;
        char esc[8];
        switch (c) {
        case '"': put(w, "\\\"", 2); break;
        case '\\': put(w, "\\\\", 2); break;
        case '\b': put(w, "\\b", 2); break;
        case '\f': put(w, "\\f", 2); break;
        case '\n': put(w, "\\n", 2); break;
        case '\r': put(w, "\\r", 2); break;
        case '\t': put(w, "\\t", 2); break;
        default:
            snprintf(esc, sizeof esc, "\\u%04X", (unsigned)c);
            put(w, esc, 6);
        }
    }
    put(w, s + from, len - from);
    put_char(w, '"');
}

void json_write_keyn(json_writer *w, const char *key, size_t len)
{
    begin(w);
    put_string(w, key, len);
    put_char(w, ':');
    w->after_value = 0;
}

void json_write_stringn(json_writer *w, const char *s, size_t len)
{
    begin(w);
    put_string(w, s, len);
    w->after_value = 1;
}

/* "00" to "99": an integer is written two digits a division. */
static const char digit_pairs[] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Written in place (a report is mostly integers): no buffer of digits to
 * copy, and none on the stack for its guard to check. */
void json_write_integer(json_writer *w, json_int_t v)
{
    begin(w);
    w->after_value = 1;
    if (reserve(w, 20) != 0) /* "-9223372036854775808" */
        return;
    char *out = w->bytes + w->len;
    /* The magnitude as unsigned, so the most negative value prints too. */
    unsigned long long m = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    if (v < 0)
        *out++ = '-';
    size_t n = 1;
    for (unsigned long long t = m; t >= 10; t /= 10)
        n++;
    char *at = out + n;
    for (; m >= 100; m /= 100) {
        at -= 2;
        memcpy(at, digit_pairs + 2 * (m % 100), 2);
    }
    if (m >= 10) {
        at -= 2;
        memcpy(at, digit_pairs + 2 * m, 2);
    } else {
        *--at = (char)('0' + m);
    }
    w->len = (size_t)(out + n - w->bytes);
}

/* As jansson's jsonp_dtostr: "%.*g", then ".0" when there is neither a
 * point nor an exponent, and the exponent's '+' and leading zeros cut. */
void json_write_real(json_writer *w, double v)
{
    char buf[64];
    if (!isfinite(v)) {
        w->failed = 1;
        return;
    }
    int n = fmt_g(buf, sizeof buf, w->precision, v);
    if (n < 0 || (size_t)n >= sizeof buf - 3) {
        w->failed = 1;
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
    begin(w);
    put(w, buf, len);
    w->after_value = 1;
}

void json_write_bool(json_writer *w, int v)
{
    begin(w);
    if (v)
        put(w, "true", 4);
    else
        put(w, "false", 5);
    w->after_value = 1;
}

void json_write_null(json_writer *w)
{
    begin(w);
    put(w, "null", 4);
    w->after_value = 1;
}

void json_write_tree(json_writer *w, const json_t *v, json_placeholder_fn placeholder,
                     const void *ctx)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        if (placeholder && json_object_size(v) == 0 && placeholder(w, v, ctx))
            return;
        const char *key;
        size_t key_len;
        json_t *member;
        json_write_object(w);
        /* jansson's foreach takes a non-const object; it changes nothing. */
        json_object_keylen_foreach((json_t *)v, key, key_len, member) {
            json_write_keyn(w, key, key_len);
            json_write_tree(w, member, placeholder, ctx);
        }
        json_write_object_end(w);
        return;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        json_write_array(w);
        for (size_t i = 0; i < n; i++)
            json_write_tree(w, json_array_get(v, i), placeholder, ctx);
        json_write_array_end(w);
        return;
    }
    case JSON_STRING:
        json_write_stringn(w, json_string_value(v), json_string_length(v));
        return;
    case JSON_INTEGER:
        json_write_integer(w, json_integer_value(v));
        return;
    case JSON_REAL:
        json_write_real(w, json_real_value(v));
        return;
    case JSON_TRUE:
        json_write_bool(w, 1);
        return;
    case JSON_FALSE:
        json_write_bool(w, 0);
        return;
    case JSON_NULL:
        json_write_null(w);
        return;
    }
}
