/* util/json_stream.c: see json_stream.h. */
#include "util/json_stream.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

typedef struct text_buffer {
    char *bytes;
    size_t len, capacity;
} text_buffer;

/* Where the scan is: in the document (OUTSIDE), between the elements of the
 * array cut out (BETWEEN), or inside one of them (ELEMENT). */
typedef enum where { OUTSIDE, BETWEEN, ELEMENT } where;

typedef struct scan scan;
struct scan {
    const char *key;
    json_stream_element_fn fn;
    void *fn_ctx;
    const json_stream_limits *limits;
    /* Set: each element is itself scanned as it comes, its own array
     * (inner->key) cut out a piece at a time, and its text is what the
     * inner scan leaves (inner->outside); unset, it is element. */
    scan *inner;
    text_buffer outside, element;
    where at;
    int depth, in_string, escaped, comma_due;
    size_t string_bytes, index;
    int line, column;                 /* of the byte being scanned, from 1 */
    int element_line, element_column; /* where the element began */
};

static int append(text_buffer *t, char c)
{
    if (ws_grow((void **)&t->bytes, &t->capacity, t->len + 2, 1) != 0)
        return -1;
    t->bytes[t->len++] = c;
    return 0;
}

static int not_json(const scan *s, ws_error *err, const char *what)
{
    return ws_fail(err, "not JSON: line %d column %d: %s", s->line, s->column, what);
}

/* The text outside ends with `"key" :` as a member name of the top-level
 * object (after '{' or ','), so the '[' being read opens the array. */
static int opens_the_array(const scan *s)
{
    const char *b = s->outside.bytes;
    size_t n = s->outside.len, key_len = strlen(s->key);
    while (n && strchr(" \t\r\n", b[n - 1]))
        n--;
    if (!n || b[--n] != ':')
        return 0;
    while (n && strchr(" \t\r\n", b[n - 1]))
        n--;
    if (n < key_len + 2 || b[n - 1] != '"' || b[n - key_len - 2] != '"' ||
        memcmp(b + n - key_len - 1, s->key, key_len) != 0)
        return 0;
    n -= key_len + 2;
    while (n && strchr(" \t\r\n", b[n - 1]))
        n--;
    return n && (b[n - 1] == '{' || b[n - 1] == ',');
}

/* The element's text, as scanned alone or as its inner scan left it. */
static text_buffer *element_text(scan *s) { return s->inner ? &s->inner->outside : &s->element; }

/* An inner scan ready for the next element. */
static void inner_restart(scan *inner)
{
    inner->outside.len = inner->element.len = 0;
    inner->at = OUTSIDE;
    inner->depth = inner->in_string = inner->escaped = inner->comma_due = 0;
    inner->index = 0;
}

static int element_done(scan *s, ws_error *err)
{
    if (s->inner && s->inner->at != OUTSIDE)
        return not_json(s, err, "an element ends inside its array");
    text_buffer *text = element_text(s);
    json_error_t jerr;
    json_t *e = json_loadb(text->bytes ? text->bytes : "", text->len,
                           s->limits->flags | JSON_DECODE_ANY, &jerr);
    if (!e)
        return ws_fail(err, "not JSON: line %d column %d: %s", s->element_line + jerr.line - 1,
                       jerr.line == 1 ? s->element_column + jerr.column - 1 : jerr.column,
                       jerr.text);
    int rc = s->fn(s->fn_ctx, s->index++, e, err);
    json_decref(e);
    s->element.len = 0;
    if (s->inner)
        inner_restart(s->inner);
    s->at = BETWEEN;
    s->comma_due = 1;
    return rc;
}

/* Between elements: commas, blanks, the closing ']' or an element's start. */
static int between(scan *s, char c, ws_error *err)
{
    if (strchr(" \t\r\n", c))
        return 0;
    if (c == ',') {
        if (!s->comma_due)
            return not_json(s, err, "',' where an element was expected");
        s->comma_due = 0;
        return 0;
    }
    if (c == ']') {
        if (!s->comma_due && s->index)
            return not_json(s, err, "']' after ','");
        s->at = OUTSIDE;
        s->depth = 1;
        return append(&s->outside, ']') ? ws_fail(err, "out of memory") : 0;
    }
    if (s->comma_due)
        return not_json(s, err, "',' or ']' expected after an element");
    s->at = ELEMENT;
    s->element_line = s->line;
    s->element_column = s->column;
    return 1; /* scan c as the element's first byte */
}

static int scan_byte(scan *s, char c, ws_error *err);

/* A byte of the element: to its text, or to the inner scan that cuts its
 * own array out. */
static int element_byte(scan *s, text_buffer *t, char c, ws_error *err)
{
    if (!s->inner || t != &s->element)
        return append(t, c) ? ws_fail(err, "out of memory") : 0;
    s->inner->line = s->line;
    s->inner->column = s->column;
    return scan_byte(s->inner, c, err);
}

static int scan_byte(scan *s, char c, ws_error *err)
{
    if (s->at == BETWEEN) {
        int rc = between(s, c, err);
        if (rc <= 0)
            return rc;
    }
    if (s->at == ELEMENT && !s->in_string && s->depth == 2 && (c == ',' || c == ']')) {
        /* the end of an element that is no object or array */
        if (element_done(s, err) != 0)
            return -1;
        return between(s, c, err);
    }
    text_buffer *t = s->at == OUTSIDE ? &s->outside : &s->element;
    if (s->in_string) {
        if (s->escaped)
            s->escaped = 0;
        else if (c == '\\')
            s->escaped = 1;
        else if (c == '"')
            s->in_string = 0;
        if (s->limits->max_string && ++s->string_bytes > s->limits->max_string + 1)
            return ws_fail(err, "line %d: a string longer than %zu bytes", s->line,
                           s->limits->max_string);
    } else if (c == '"') {
        s->in_string = 1;
        s->string_bytes = 0;
    } else if (c == '{' || c == '[') {
        if (c == '[' && s->at == OUTSIDE && s->depth == 1 && s->key && opens_the_array(s)) {
            s->at = BETWEEN;
            s->comma_due = 0;
            s->depth = 2;
            return append(t, c) ? ws_fail(err, "out of memory") : 0;
        }
        s->depth++;
    } else if (c == '}' || c == ']') {
        s->depth--;
        if (s->at == ELEMENT && s->depth == 2)
            return element_byte(s, t, c, err) ? -1 : element_done(s, err);
    }
    return element_byte(s, t, c, err);
}

json_t *json_stream_load(json_stream_read_fn read, void *read_ctx, const char *key,
                         json_stream_element_fn fn, void *fn_ctx,
                         const json_stream_limits *limits, ws_error *err)
{
    return json_stream_load_nested(read, read_ctx, key, fn, fn_ctx, NULL, NULL, limits, err);
}

json_t *json_stream_load_nested(json_stream_read_fn read, void *read_ctx, const char *key,
                                json_stream_element_fn fn, void *fn_ctx, const char *inner_key,
                                json_stream_element_fn inner_fn, const json_stream_limits *limits,
                                ws_error *err)
{
    scan inner = {.key = inner_key, .fn = inner_fn, .fn_ctx = fn_ctx, .limits = limits};
    scan s = {.key = key, .fn = fn, .fn_ctx = fn_ctx, .limits = limits, .line = 1, .column = 1,
              .inner = inner_key ? &inner : NULL};
    char block[1 << 16];
    ssize_t n;
    int rc = 0;
    while (rc == 0 && (n = read(read_ctx, block, sizeof block, err)) != 0) {
        if (n < 0) {
            rc = -1;
            break;
        }
        for (ssize_t i = 0; rc == 0 && i < n; i++) {
            rc = scan_byte(&s, block[i], err);
            if (block[i] == '\n')
                s.line++, s.column = 0;
            s.column++;
        }
    }
    if (rc == 0 && s.at != OUTSIDE)
        rc = not_json(&s, err, "the text ends inside an array");
    json_t *doc = NULL;
    if (rc == 0) {
        json_error_t jerr;
        doc = json_loadb(s.outside.bytes ? s.outside.bytes : "", s.outside.len, limits->flags,
                         &jerr);
        if (!doc)
            ws_fail(err, "not JSON: line %d column %d: %s", jerr.line, jerr.column, jerr.text);
    }
    free(s.outside.bytes);
    free(s.element.bytes);
    free(inner.outside.bytes);
    free(inner.element.bytes);
    return doc;
}

ssize_t json_stream_read_file(void *ctx, char *buf, size_t n, ws_error *err)
{
    size_t got = fread(buf, 1, n, ctx);
    if (got == 0 && ferror(ctx))
        return ws_fail_errno(err, "cannot read");
    return (ssize_t)got;
}

const char *json_empty_array_at(const char *text, const char *key)
{
    size_t key_len = strlen(key);
    int depth = 0, in_string = 0;
    for (const char *p = text; *p; p++) {
        if (in_string) {
            if (*p == '\\')
                p++;
            else if (*p == '"')
                in_string = 0;
        } else if (*p == '"') {
            if (depth == 1 && strncmp(p + 1, key, key_len) == 0 &&
                strncmp(p + 1 + key_len, "\":[]", 4) == 0)
                return p + key_len + 3;
            in_string = 1;
        } else if (*p == '{' || *p == '[') {
            depth++;
        } else if (*p == '}' || *p == ']') {
            depth--;
        }
    }
    return NULL;
}
