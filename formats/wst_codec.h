/* formats/wst_codec.h: records <-> the bytes of a .wst frame.
 *
 * The writer buffers a CTA's records as packed rows (a fixed head plus the
 * addresses of active lanes only).  When a CTA's buffer is flushed its rows
 * are encoded column by column into a frame builder as one chunk; a full
 * frame is laid out column-major across its chunks and compressed with
 * zstd (versions 2 to 4).  The reader undoes both steps straight into an array of
 * wst_record, checking every length.  Version 1 files (one chunk per frame,
 * its own layout) are still decoded.  docs/trace-format.md gives the bytes. */
#ifndef WS_WST_CODEC_H
#define WS_WST_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "formats/trace.h"
#include "util/error.h"

typedef struct wst_bytes {
    uint8_t *data;
    size_t len, cap;
} wst_bytes;

int wst_bytes_reserve(wst_bytes *b, size_t extra);
void wst_bytes_free(wst_bytes *b);

/* ---- packed rows (writer side) ---- */
/* A row: this head, then the active lanes' addresses (8 bytes each, in
 * lane order). */
typedef struct wst_packed_head {
    uint32_t warp, pc, mask;
    uint8_t kind, space, cache_op, size, has_sm, has_time, has_waits;
    uint16_t sm;
    uint64_t timestamp;
    uint32_t gap, waits; /* docs/metrics.md §12; waits only with has_waits */
} wst_packed_head;
size_t wst_packed_size(const wst_record *rec);
/* Appends rec to rows; -1 on out of memory. */
int wst_pack(wst_bytes *rows, const wst_record *rec);

/* ---- frames of versions 2 to 4 (writer side) ---- */
typedef struct wst_frame_builder wst_frame_builder;
wst_frame_builder *wst_frame_builder_new(void);
void wst_frame_builder_free(wst_frame_builder *f);
/* Encodes `count` packed rows as the frame's next chunk. */
int wst_frame_add_chunk(wst_frame_builder *f, const wst_bytes *rows, uint32_t count,
                        ws_error *err);
uint32_t wst_frame_chunk_count(const wst_frame_builder *f);
/* The frame's raw (uncompressed) length so far. */
size_t wst_frame_raw_bytes(const wst_frame_builder *f);
/* Lays the frame out in raw and empties the builder. */
int wst_frame_finish(wst_frame_builder *f, wst_bytes *raw, ws_error *err);

/* ---- frames of versions 2 to 4 (reader side) ---- */
/* Where each chunk's columns lie in a decompressed frame. */
typedef struct wst_frame_layout {
    const uint8_t *raw;
    uint32_t chunks;
    int timed;              /* the chunk heads list the timing columns (version 4) */
    uint32_t *column_begin; /* [chunks × 11]: offsets into raw (timing columns empty when
                             * the frame has none) */
    uint32_t *column_bytes; /* [chunks × 11] */
} wst_frame_layout;

/* Checks a frame's head against what the chunk table says (chunk count,
 * records of each) and that its columns fill it exactly.  raw must outlive
 * the layout. */
int wst_frame_parse(wst_frame_layout *f, const uint8_t *raw, size_t raw_len, uint32_t chunks,
                    const uint32_t *records, ws_error *err);
void wst_frame_layout_free(wst_frame_layout *f);

/* ---- decoding, both versions ---- */
struct wst_history; /* formats/wst_history.h */

/* Incremental decoding of one chunk, a few records at a time, so the
 * records being produced stay in the CPU cache while the caller uses them.
 * The raw bytes must outlive the decoder.  pc_count and warps_per_cta bound
 * the PC and warp columns. */
typedef struct wst_decoder {
    const void *columns[2 * 11]; /* begin/end of each column (private) */
    uint32_t remaining, decoded;
    uint32_t cta, pc_count, warps_per_cta;
    unsigned version; /* the file's format version */
    uint64_t previous_base, previous_time;
    struct wst_history *history; /* versions 2 to 4; NULL for version 1 */
} wst_decoder;

/* A version 1 chunk: its whole raw layout. */
int wst_decoder_start_v1(wst_decoder *d, const uint8_t *raw, size_t raw_len, uint32_t count,
                         uint32_t cta, uint32_t pc_count, uint32_t warps_per_cta, ws_error *err);
/* Chunk `index` of a parsed frame of version 2 or later; history is the
 * decoder's table (emptied here). */
int wst_decoder_start_v2(wst_decoder *d, const wst_frame_layout *f, uint32_t index,
                         uint32_t count, uint32_t cta, uint32_t pc_count, uint32_t warps_per_cta,
                         unsigned version, struct wst_history *history, ws_error *err);
/* Up to max records into out; returns how many (0 at the end), -1 on error. */
int64_t wst_decoder_next(wst_decoder *d, wst_record *out, uint32_t max, ws_error *err);
/* The versions' record loops (wst_decoder_next picks one). */
int64_t wst_decoder_next_v1(wst_decoder *d, wst_record *out, uint32_t max, ws_error *err);
int64_t wst_decoder_next_v2(wst_decoder *d, wst_record *out, uint32_t max, ws_error *err);
/* Up to max records appended to out in the scheduler's packed form
 * (formats/packed_record.h), the same bytes packed_cta_append gives the
 * decoded records, without writing out the lanes of strides. */
struct packed_cta;
int64_t wst_decoder_next_packed(wst_decoder *d, struct packed_cta *out, uint32_t max,
                                ws_error *err);

/* zstd with its content checksum on; level 0 = default. */
typedef struct wst_compressor wst_compressor;
wst_compressor *wst_compressor_new(int level);
void wst_compressor_free(wst_compressor *c);
int wst_compress(wst_compressor *c, const wst_bytes *raw, wst_bytes *out, ws_error *err);
/* One frame of `total` bytes given in pieces, appended to out (emptied by
 * begin), the last piece with last = 1: the frame states its size, as
 * wst_compress's does, so a reader learns it before inflating. */
int wst_compress_begin(wst_compressor *c, uint64_t total, wst_bytes *out, ws_error *err);
int wst_compress_piece(wst_compressor *c, const void *data, size_t len, int last, wst_bytes *out,
                       ws_error *err);

typedef struct wst_decompressor wst_decompressor;
wst_decompressor *wst_decompressor_new(void);
void wst_decompressor_free(wst_decompressor *d);
/* Decompresses exactly raw_len bytes into out (reserved by the caller). */
int wst_decompress(wst_decompressor *d, const uint8_t *src, size_t src_len, uint8_t *out,
                   size_t raw_len, ws_error *err);

#endif
