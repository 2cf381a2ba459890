/* util/json_print.c: see json_print.h. */
#include "util/json_print.h"

#include <stdint.h>
#include <stdlib.h>

typedef struct deferred {
    const json_t *at; /* the placeholder */
    json_deferred_fn fn;
    const void *ctx;
} deferred;

struct json_deferred_set {
    deferred *items;
    size_t count, cap;
    int sorted; /* by the placeholder's address, for the printer's search */
};

json_deferred_set *json_deferred_new(void) { return calloc(1, sizeof(json_deferred_set)); }

void json_deferred_free(json_deferred_set *s)
{
    if (s)
        free(s->items);
    free(s);
}

/* The most significant digits a double needs to read back the same. */
enum { EXACT_PRECISION = 17 };

json_t *json_deferred_value(json_deferred_set *s, json_deferred_fn fn, const void *ctx)
{
    if (!s) {
        json_writer w;
        json_writer_init(&w, EXACT_PRECISION);
        fn(&w, ctx);
        char *text = json_writer_finish(&w);
        json_t *v = text ? json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL) : NULL;
        free(text);
        return v;
    }
    if (s->count == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 8;
        deferred *items = realloc(s->items, cap * sizeof *items);
        if (!items)
            return NULL;
        s->items = items;
        s->cap = cap;
    }
    json_t *at = json_object();
    if (at) {
        s->items[s->count++] = (deferred){at, fn, ctx};
        s->sorted = 0;
    }
    return at;
}

static int by_address(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const deferred *)a)->at, y = (uintptr_t)((const deferred *)b)->at;
    return (x > y) - (x < y);
}

static const deferred *find_deferred(const json_deferred_set *s, const json_t *v)
{
    const deferred key = {v, NULL, NULL};
    return bsearch(&key, s->items, s->count, sizeof *s->items, by_address);
}

static void put_value(json_writer *w, const json_t *v, const json_deferred_set *s)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        /* A placeholder is an empty object: only those are looked up. */
        const deferred *d = s && s->count && json_object_size(v) == 0 ? find_deferred(s, v) : NULL;
        if (d) {
            d->fn(w, d->ctx);
            return;
        }
        const char *key;
        size_t key_len;
        json_t *member;
        json_write_object(w);
        /* jansson's foreach takes a non-const object; it changes nothing. */
        json_object_keylen_foreach((json_t *)v, key, key_len, member) {
            json_write_keyn(w, key, key_len);
            put_value(w, member, s);
        }
        json_write_object_end(w);
        return;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        json_write_array(w);
        for (size_t i = 0; i < n; i++)
            put_value(w, json_array_get(v, i), s);
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

void json_write_tree(json_writer *w, const json_t *v) { put_value(w, v, NULL); }

char *json_print_compact_deferred(const json_t *doc, int precision, json_deferred_set *s)
{
    if (!doc || precision < 1 || precision > 31)
        return NULL;
    if (s && s->count && !s->sorted) { /* qsort may not be given NULL */
        qsort(s->items, s->count, sizeof *s->items, by_address);
        s->sorted = 1;
    }
    json_writer w;
    json_writer_init(&w, precision);
    put_value(&w, doc, s);
    return json_writer_finish(&w);
}

char *json_print_compact(const json_t *doc, int precision)
{
    return json_print_compact_deferred(doc, precision, NULL);
}
