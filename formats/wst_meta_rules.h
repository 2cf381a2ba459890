/* formats/wst_meta_rules.h: the metadata's rules on a launch's values
 * (docs/trace-format.md, "Metadata"), defined once for both readers of
 * the text: the JSON reader (wst_meta.c) and the reader of the compact
 * text warpscope writes (wst_meta_compact.c). */
#ifndef WS_WST_META_RULES_H
#define WS_WST_META_RULES_H

#include <stdint.h>

#include "formats/trace.h"
#include "util/error.h"

/* A 32-bit count: shared_mem_bytes, registers_per_thread, ctas, line. */
static inline int wst_meta_count32_ok(long long v) { return v >= 0 && v <= UINT32_MAX; }
/* A grid's or block's dimension. */
static inline int wst_meta_dimension_ok(long long v) { return v >= 1 && v <= UINT32_MAX; }

/* records_by_kind (k->records_by_kind, each read as a count) adds up to
 * k->record_count: 0, or -1 with err naming `where`. */
int wst_meta_check_by_kind(const wst_kernel *k, const char *where, ws_error *err);
/* The error of records by kind that add up to more than k's records. */
int wst_meta_by_kind_too_many(const wst_kernel *k, const char *where, ws_error *err);
/* k's grid numbers its CTAs in 32 bits and its block has at most 65,536
 * threads: 0, or -1 with err naming `where`. */
int wst_meta_check_shape(const wst_kernel *k, const char *where, ws_error *err);

#endif
