/* formats/wst_meta.h: the metadata document of a .wst file (JSON):
 * origin, kernels with their dimensions and PC tables, record counts, and
 * the device allocations when the collector saw them. */
#ifndef WS_WST_META_H
#define WS_WST_META_H

#include <stddef.h>

#include "formats/trace.h"
#include "util/error.h"
#include "util/json_stream.h"

/* Serialized JSON text (malloc'd, NUL-terminated), or NULL. */
char *wst_meta_encode(const wst_trace *trace, size_t *len);

/* Parses and validates, the document's format version against the
 * header's; fills trace (owned by the caller). */
int wst_meta_decode(const char *text, size_t len, unsigned version, wst_trace *trace,
                    ws_error *err);
/* The same, the text read as it is decoded: its kernels one at a time,
 * strings of at most WST_MAX_STRING_BYTES (issue 42: a few KB of zstd
 * that expand to a name of 256 MiB, or to a million launches, cost
 * what they decode to, not four times their text). */
int wst_meta_decode_stream(json_stream_read_fn read, void *read_ctx, unsigned version,
                           wst_trace *trace, ws_error *err);

#endif
