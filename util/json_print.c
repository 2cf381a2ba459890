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

/* What fn writes, read back as a tree with every digit of its reals. */
static json_t *written_tree(json_deferred_fn fn, const void *ctx)
{
    json_writer w;
    json_writer_init(&w, EXACT_PRECISION);
    fn(&w, ctx);
    char *text = json_writer_finish(&w);
    json_t *v = text ? json_loads(text, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL) : NULL;
    free(text);
    return v;
}

/* Room for one more placeholder in s. */
static int make_room(json_deferred_set *s)
{
    if (s->count < s->cap)
        return 0;
    size_t cap = s->cap ? 2 * s->cap : 8;
    deferred *items = realloc(s->items, cap * sizeof *items);
    if (!items)
        return -1;
    s->items = items;
    s->cap = cap;
    return 0;
}

json_t *json_deferred_value(json_deferred_set *s, json_deferred_fn fn, const void *ctx)
{
    json_t *at = s && make_room(s) == 0 ? json_object() : NULL;
    if (!at) /* no set, or no memory for a placeholder: the tree prints the same */
        return written_tree(fn, ctx);
    s->items[s->count++] = (deferred){at, fn, ctx};
    s->sorted = 0;
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

/* The printer's question at each empty object: a placeholder of s? */
static int write_if_deferred(json_writer *w, const json_t *empty, const void *set)
{
    const json_deferred_set *s = set;
    const deferred *d = find_deferred(s, empty);
    if (d)
        d->fn(w, d->ctx);
    return d != NULL;
}

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
    json_write_tree(&w, doc, s && s->count ? write_if_deferred : NULL, s);
    return json_writer_finish(&w);
}

char *json_print_compact(const json_t *doc, int precision)
{
    return json_print_compact_deferred(doc, precision, NULL);
}
