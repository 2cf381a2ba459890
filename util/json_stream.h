/* util/json_stream.h: a JSON document read with one of its arrays taken
 * an element at a time (issue 42: memory bounded by live state).
 *
 * jansson builds a whole document, about four times the size of its text:
 * a report of many kernels (report.json's "kernels") or a trace's
 * metadata of many launches ("kernels") would be held whole.  Here the
 * text is scanned as it is read: the elements of the top-level object's
 * array `key` are cut out and each is parsed alone and handed to a
 * callback, then freed; the rest of the document is parsed at the end with
 * that array empty.  Memory follows the largest element, not the array.
 *
 *   json_t *doc = json_stream_load(read_file, f, "kernels", add_kernel, ctx,
 *                                  &limits, &err);
 */
#ifndef WS_JSON_STREAM_H
#define WS_JSON_STREAM_H

#include <jansson.h>
#include <stddef.h>
#include <sys/types.h>

#include "util/error.h"

/* Up to n bytes of the text into buf; 0 at its end, -1 with err set. */
typedef ssize_t (*json_stream_read_fn)(void *ctx, char *buf, size_t n, ws_error *err);
/* One element (freed after the call); non-zero stops the load (err set). */
typedef int (*json_stream_element_fn)(void *ctx, size_t index, json_t *element, ws_error *err);

typedef struct json_stream_limits {
    size_t flags;      /* jansson decoding flags (JSON_REJECT_DUPLICATES) */
    size_t max_string; /* the longest string's bytes, escapes as written; 0: no limit */
} json_stream_limits;

/* The document, its `key` an empty array when it had one (whose elements
 * went to fn in order); NULL with err "not JSON: line L column C: ..."
 * (or the reader's, fn's or the string limit's message). */
json_t *json_stream_load(json_stream_read_fn read, void *read_ctx, const char *key,
                         json_stream_element_fn fn, void *fn_ctx,
                         const json_stream_limits *limits, ws_error *err);

/* The same, and each element, an object, scanned as it is read too: the
 * elements of its own array `inner_key` go to inner_fn (index from 0 in
 * each element, the same ctx) as they are read, before fn gets the element
 * with that array empty, so that one element of a huge array (a launch of
 * millions of PCs: issue 42) is never one JSON tree either. */
json_t *json_stream_load_nested(json_stream_read_fn read, void *read_ctx, const char *key,
                                json_stream_element_fn fn, void *fn_ctx, const char *inner_key,
                                json_stream_element_fn inner_fn, const json_stream_limits *limits,
                                ws_error *err);

/* The '[' of `"key":[]` among the top-level object's members in text, a
 * compact dump (found by depth, as the same key may sit deeper, and inside
 * strings as text), or NULL: where the elements of an array written one at
 * a time go (a report's kernels, a kernel's PCs, a trace's launches), as a
 * compact dump of an array is its elements' dumps joined by commas. */
const char *json_empty_array_at(const char *text, const char *key);

/* A read_fn over a FILE (ctx). */
ssize_t json_stream_read_file(void *ctx, char *buf, size_t n, ws_error *err);

#endif
