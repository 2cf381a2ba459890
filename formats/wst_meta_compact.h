/* formats/wst_meta_compact.h: the metadata text exactly as warpscope
 * writes it, read without a JSON parser.
 *
 * The writer (wst_meta_outside, wst_meta_kernel_entry) dumps the document
 * compactly, its keys always in one order.  Read through jansson, such a
 * text cost about 375 instructions a byte: bfs's 14.7 KB of metadata took
 * 3% of a timed compare (bench/RESULTS.md, "Branch dec42").  This reader
 * accepts only that form (no blanks, the keys in the writer's order,
 * strings of printable ASCII without escapes, integers without sign or
 * exponent) and every rule of docs/trace-format.md, "Metadata"; any other
 * text, valid or not, it leaves to the JSON reader, which then gives the
 * same trace or the same error as always. */
#ifndef WS_WST_META_COMPACT_H
#define WS_WST_META_COMPACT_H

#include <stddef.h>

#include "formats/trace.h"

/* 1 with trace filled (owned by the caller) as the JSON reader fills it
 * from the same text; 0 with trace empty when the text is not in the
 * writer's form, breaks a rule, or memory ran out. */
int wst_meta_decode_compact(const char *text, size_t len, unsigned version, wst_trace *trace);

#endif
