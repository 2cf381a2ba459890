/* formats/wst_meta.h: the metadata document of a .wst file (JSON):
 * origin, kernels with their dimensions and PC tables, record counts, and
 * the device allocations when the collector saw them. */
#ifndef WS_WST_META_H
#define WS_WST_META_H

#include <stddef.h>

#include "formats/trace.h"
#include "util/error.h"
#include "util/json_stream.h"

/* The JSON text in pieces, for a writer that spools its kernels
 * (wst_write.c): the document without kernels (trace->kernels are not
 * read), with *kernels_at the offset just inside its empty "kernels" array,
 * where the kernels' entries go, comma-separated in launch order (only one
 * kernel is ever a JSON tree: a trace of 200,000 launches held them all,
 * issue 42); and one kernel's entry.  The bytes are those of the whole
 * document's compact dump (util/json_stream.h).  Both malloc'd and
 * NUL-terminated, or NULL. */
char *wst_meta_outside(const wst_trace *trace, size_t *kernels_at);
char *wst_meta_kernel_entry(const wst_kernel *kernel);

/* Parses and validates, the document's format version against the
 * header's; fills trace (owned by the caller). */
int wst_meta_decode(const char *text, size_t len, unsigned version, wst_trace *trace,
                    ws_error *err);
/* The same, the text read as it is decoded: its kernels one at a time,
 * strings of at most WST_MAX_STRING_BYTES (issue 42: a few KB of zstd
 * that expand to a name of 256 MiB, or to a million launches, cost
 * what they decode to, not four times their text).  A text of at most
 * 1 MiB in the writer's compact form is read whole and decoded without a
 * JSON parser (wst_meta_compact.h), with the same result. */
int wst_meta_decode_stream(json_stream_read_fn read, void *read_ctx, unsigned version,
                           wst_trace *trace, ws_error *err);

#endif
