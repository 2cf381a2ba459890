/* util/json_print.h: a jansson document printed compact, byte for byte as
 * json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(precision)) prints it,
 * at a fraction of the cost; and values of it left to be written when it
 * is printed.
 *
 * jansson's printer checks every object and array for a loop by printing
 * its address into a key of a hash table, and prints every integer with
 * snprintf: most of the cost of writing a report of many small objects.
 * Here the tree is walked once by util/json_write.h's json_write_tree,
 * beside the formatting rules it holds: members in insertion order, the
 * same separators, escapes, integers and reals as json_dumps.
 *
 * A report's big regular parts (a timed run's per-scheduler stalls: 640
 * objects on an 80-SM GPU with two policies) need no tree at all: such a
 * part is a deferred value, a placeholder in the tree that the printer
 * replaces with what its function writes:
 *
 *   json_deferred_set *later = json_deferred_new();
 *   json_object_set_new(doc, "timed", json_deferred_value(later, write_timed, r));
 *   char *text = json_print_compact_deferred(doc, 10, later);
 *
 * A reader of the tree (the HTML page) asks for the value itself instead:
 * json_deferred_value(NULL, write_timed, r) builds it from the same
 * function, so each part's layout is written down once. */
#ifndef WS_JSON_PRINT_H
#define WS_JSON_PRINT_H

#include <jansson.h>

#include "util/json_write.h"

/* The text (free() it), or NULL when out of memory, a real is not finite
 * or precision is not 1 to 31 (as json_dumps fails). */
char *json_print_compact(const json_t *doc, int precision);

/* Writes one JSON value (w's precision is the printer's). */
typedef void (*json_deferred_fn)(json_writer *w, const void *ctx);
typedef struct json_deferred_set json_deferred_set;

json_deferred_set *json_deferred_new(void);
void json_deferred_free(json_deferred_set *s);
/* A new reference to put in a document where fn(w, ctx) will write its
 * value when the document is printed with s (ctx must live until then):
 * a placeholder, an empty object to any other reader.  With s NULL (or
 * no memory for a placeholder), the value itself as a tree: what fn
 * writes, read back with every digit of its reals.  NULL when out of
 * memory. */
json_t *json_deferred_value(json_deferred_set *s, json_deferred_fn fn, const void *ctx);
/* json_print_compact, with s's placeholders in doc replaced by what their
 * functions write (s may be NULL). */
char *json_print_compact_deferred(const json_t *doc, int precision, json_deferred_set *s);

#endif
