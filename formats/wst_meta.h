/* formats/wst_meta.h: the metadata document of a .wst file (JSON):
 * origin, kernels with their dimensions and PC tables, record counts, and
 * the device allocations when the collector saw them. */
#ifndef WS_WST_META_H
#define WS_WST_META_H

#include <stddef.h>

#include "formats/trace.h"
#include "util/error.h"

/* Serialized JSON text (malloc'd, NUL-terminated), or NULL. */
char *wst_meta_encode(const wst_trace *trace, size_t *len);

/* Parses and validates, the document's format version against the
 * header's; fills trace (owned by the caller). */
int wst_meta_decode(const char *text, size_t len, unsigned version, wst_trace *trace,
                    ws_error *err);

#endif
