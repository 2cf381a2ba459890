/* util/json_print.h: a jansson document printed compact, byte for byte as
 * json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(precision)) prints it,
 * at a fraction of the cost.
 *
 * jansson's printer checks every object and array for a loop by printing
 * its address into a key of a hash table, and prints every integer with
 * snprintf: most of the cost of writing a report of many small objects
 * (a timed compare's per-scheduler stalls on an 80-SM GPU).  Here the
 * tree is walked once into one growing buffer; the text is the same:
 * members in insertion order, strings escaped as jansson escapes them
 * (quote, backslash, control characters; nothing else without
 * JSON_ENSURE_ASCII or JSON_ESCAPE_SLASH), integers in decimal, reals with
 * `precision` significant digits ("%.*g", given ".0" when they would read
 * as an integer, the exponent without '+' or leading zeros). */
#ifndef WS_JSON_PRINT_H
#define WS_JSON_PRINT_H

#include <jansson.h>

/* The text (free() it), or NULL when out of memory, a real is not finite
 * or precision is not 1 to 31 (as json_dumps fails). */
char *json_print_compact(const json_t *doc, int precision);

#endif
