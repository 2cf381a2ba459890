/* util/json_write.h: compact JSON written as it goes, token by token, into
 * one growing buffer: the bytes json_dumps(doc, JSON_COMPACT |
 * JSON_REAL_PRECISION(precision)) would print for the same document, with
 * no jansson tree built, printed and freed.
 *
 * The one definition of how a report's JSON looks: a jansson tree is
 * printed through these same calls (json_write_tree, util/json_print.h;
 * reals through util/fmt_g.h).  What jansson prints, and so
 * what is written here: no space anywhere; ',' between members and
 * elements, ':' after a key; strings with quote, backslash and control
 * characters escaped (\b \f \n \r \t, else \u00XX) and nothing else
 * (without JSON_ENSURE_ASCII or JSON_ESCAPE_SLASH); integers in decimal;
 * reals as "%.*g" with `precision` significant digits, given ".0" when
 * they would read as an integer, the exponent without '+' or leading
 * zeros.
 *
 * A report's big regular parts (a timed run's per-scheduler stalls on an
 * 80-SM GPU) are written with it directly:
 *
 *   json_writer w;
 *   json_writer_init(&w, 10);
 *   json_write_object(&w);
 *   json_write_key(&w, "cycles");
 *   json_write_integer(&w, 1038);
 *   json_write_object_end(&w);
 *   char *text = json_writer_finish(&w);   // {"cycles":1038}, or NULL
 *
 * The caller keeps the nesting right (a key before each member's value);
 * the writer places the separators. */
#ifndef WS_JSON_WRITE_H
#define WS_JSON_WRITE_H

#include <jansson.h>
#include <stddef.h>
#include <string.h>

typedef struct json_writer {
    char *bytes;
    size_t len, cap;
    int precision;  /* a real's significant digits, 1 to 31 */
    int failed;     /* out of memory, a real not finite or a bad precision */
    int after_value; /* the next member or element needs a ',' first */
} json_writer;

/* An empty writer; a precision outside 1 to 31 fails it (as json_dumps). */
void json_writer_init(json_writer *w, int precision);
/* The text written, NUL-terminated (free() it), or NULL when the writer
 * failed; either way the writer is left empty. */
char *json_writer_finish(json_writer *w);

void json_write_object(json_writer *w);
void json_write_object_end(json_writer *w);
void json_write_array(json_writer *w);
void json_write_array_end(json_writer *w);
/* A member's key (escaped as a string is); its value comes next. */
void json_write_keyn(json_writer *w, const char *key, size_t len);
/* Inline, so that a literal key's length is the compiler's to count. */
static inline void json_write_key(json_writer *w, const char *key)
{
    json_write_keyn(w, key, strlen(key));
}

void json_write_integer(json_writer *w, json_int_t v);
/* Not finite fails the writer, as json_dumps fails. */
void json_write_real(json_writer *w, double v);
void json_write_stringn(json_writer *w, const char *s, size_t len);
static inline void json_write_string(json_writer *w, const char *s)
{
    json_write_stringn(w, s, strlen(s));
}
void json_write_bool(json_writer *w, int v);
void json_write_null(json_writer *w);

/* A jansson value in place, as json_dumps prints it (members in insertion
 * order).  `placeholder`, when given, is asked about each empty object
 * first and returns non-zero when it wrote that value itself
 * (util/json_print.h's deferred values). */
typedef int (*json_placeholder_fn)(json_writer *w, const json_t *empty_object, const void *ctx);
void json_write_tree(json_writer *w, const json_t *v, json_placeholder_fn placeholder,
                     const void *ctx);

#endif
