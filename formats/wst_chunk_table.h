/* formats/wst_chunk_table.h: version 2's chunk table (docs/trace-format.md,
 * "Chunk table"): each chunk's kernel, CTA and record count, coded against
 * the chunk before it in one flag byte plus what differs, so the common run
 * (same kernel, next CTA, as many records) takes one byte.  Every entry
 * takes at least one byte, so a table's entry count is bounded by its size
 * before anything is allocated. */
#ifndef WS_WST_CHUNK_TABLE_H
#define WS_WST_CHUNK_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "formats/wst.h"
#include "formats/wst_codec.h"
#include "util/error.h"

/* The chunk before the first: kernel 0, CTA −1 (so CTA 0 is the next),
 * 0 records. */
typedef struct wst_chunk_cursor {
    uint32_t kernel, records;
    int64_t cta;
} wst_chunk_cursor;

#define WST_CHUNK_CURSOR_START ((wst_chunk_cursor){0, 0, -1})

/* Appends one entry to out. */
int wst_chunk_table_put(wst_bytes *out, wst_chunk_cursor *previous, uint32_t kernel, uint32_t cta,
                        uint32_t records);
/* Reads `count` entries that must fill [p, p + len) exactly into
 * chunks[i].kernel, .cta and .records. */
int wst_chunk_table_read(const uint8_t *p, size_t len, size_t count, wst_chunk_info *chunks,
                         ws_error *err);

#endif
