/* formats/wst_codec.h: one chunk's records <-> bytes.
 *
 * The writer buffers a CTA's records as packed rows (a fixed head plus the
 * addresses of active lanes only), then encodes them column by column and
 * compresses the result with zstd.  The reader undoes both steps straight
 * into an array of wst_record, checking every length against the chunk.
 * docs/trace-format.md specifies the raw chunk layout. */
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
size_t wst_packed_size(const wst_record *rec);
/* Appends rec to rows; -1 on out of memory. */
int wst_pack(wst_bytes *rows, const wst_record *rec);

/* Encodes `count` packed rows (CTA `cta`) into the raw chunk layout. */
int wst_chunk_encode(const wst_bytes *rows, uint32_t count, wst_bytes *raw, ws_error *err);

/* Incremental decoding of one raw chunk, a few records at a time, so the
 * records being produced stay in the CPU cache while the caller uses them.
 * The raw buffer must outlive the decoder.  pc_count and warps_per_cta bound
 * the PC and warp columns. */
typedef struct wst_decoder {
    const void *columns[2 * 9]; /* begin/end of each column (private) */
    uint32_t remaining, decoded;
    uint32_t cta, pc_count, warps_per_cta;
    uint64_t previous_base, previous_time;
} wst_decoder;

int wst_decoder_start(wst_decoder *d, const uint8_t *raw, size_t raw_len, uint32_t count,
                      uint32_t cta, uint32_t pc_count, uint32_t warps_per_cta, ws_error *err);
/* Up to max records into out; returns how many (0 at the end), -1 on error. */
int64_t wst_decoder_next(wst_decoder *d, wst_record *out, uint32_t max, ws_error *err);

/* The whole chunk at once into out[count]. */
int wst_chunk_decode(const uint8_t *raw, size_t raw_len, uint32_t count, uint32_t cta,
                     uint32_t pc_count, uint32_t warps_per_cta, wst_record *out,
                     ws_error *err);

/* zstd with its content checksum on; level 0 = default. */
typedef struct wst_compressor wst_compressor;
wst_compressor *wst_compressor_new(int level);
void wst_compressor_free(wst_compressor *c);
int wst_compress(wst_compressor *c, const wst_bytes *raw, wst_bytes *out, ws_error *err);

typedef struct wst_decompressor wst_decompressor;
wst_decompressor *wst_decompressor_new(void);
void wst_decompressor_free(wst_decompressor *d);
/* Decompresses exactly raw_len bytes into out (reserved by the caller). */
int wst_decompress(wst_decompressor *d, const uint8_t *src, size_t src_len, uint8_t *out,
                   size_t raw_len, ws_error *err);

#endif
