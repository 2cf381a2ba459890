/* formats/wst_layout.h: the fixed-size parts of a .wst file, byte by byte
 * (docs/trace-format.md is the normative text).  All integers little-endian.
 *
 * Version 2 (written):
 *   header   16 B   "WSTRACE\0", u32 version, u32 flags (0)
 *   frames          zstd frames of several chunks each (wst_codec.h)
 *   metadata        JSON text (wst_meta.c)
 *   frame table     WST_FRAME_ENTRY_BYTES per frame
 *   chunk table     1 byte or more per chunk, in file order (wst_chunk_table.h)
 *   trailer  72 B   see below, ends with "WSTEND\0\0"
 * Version 1 (read): one zstd frame per chunk, an index of
 * WST_V1_INDEX_ENTRY_BYTES per chunk, a 64-byte trailer.
 */
#ifndef WS_WST_LAYOUT_H
#define WS_WST_LAYOUT_H

#include <stdint.h>
#include <string.h>

#define WST_HEADER_BYTES 16
#define WST_FRAME_ENTRY_BYTES 32
#define WST_TRAILER_BYTES 72
#define WST_V1_INDEX_ENTRY_BYTES 40
#define WST_V1_TRAILER_BYTES 64
#define WST_TRAILER_MAGIC "WSTEND\0\0"

/* Limits a reader enforces before allocating anything. */
#define WST_MAX_CHUNK_RAW_BYTES (64u << 20) /* version 1 */
#define WST_MAX_FRAME_RAW_BYTES (64u << 20)
#define WST_MAX_CHUNK_RECORDS (1u << 20)
#define WST_MAX_METADATA_BYTES (256u << 20)
#define WST_MAX_KERNELS (1u << 20)
#define WST_MAX_PCS_PER_KERNEL (1u << 24)
#define WST_MAX_ALLOCATIONS (1u << 20)
/* A string of the metadata (a kernel name, SASS text, a path), as written
 * in its JSON: longer ones are refused by the writer and the reader. */
#define WST_MAX_STRING_BYTES (1u << 20)
/* Allocations end at or below 2^63: the metadata's JSON integers are
 * signed 64-bit, and GPUs' virtual addresses are under 2^57. */
#define WST_MAX_ALLOCATION_END (1ull << 63)

/* Version 2 frame entry (32 B):
 *   0 u64 offset   8 u32 compressed_bytes  12 u32 raw_bytes
 *  16 u32 chunks  20 u32 reserved (0)
 *  24 u64 hash64 of the compressed bytes (seed = offset)
 * Version 2 trailer (72 B):
 *   0 u64 metadata_offset   8 u64 metadata_bytes
 *  16 u64 tables_offset    24 u64 frames   32 u64 chunks
 *  40 u64 hash64(metadata)  48 u64 hash64(frame and chunk tables)
 *  56 u64 hash64(trailer bytes 0..55)   64 "WSTEND\0\0" */
/* Version 1 index entry (40 B):
 *   0 u32 kernel   4 u32 cta   8 u32 records   12 u32 raw_bytes
 *  16 u64 offset  24 u32 compressed_bytes  28 u32 reserved (0)
 *  32 u64 hash64 of the compressed bytes (seed = offset)
 * Version 1 trailer (64 B):
 *   0 u64 metadata_offset   8 u64 metadata_bytes
 *  16 u64 index_offset     24 u64 index_entries
 *  32 u64 hash64(metadata)  40 u64 hash64(index)
 *  48 u64 hash64(trailer bytes 0..47)   56 "WSTEND\0\0" */

static inline void wst_put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void wst_put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint32_t wst_get_u32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

static inline uint64_t wst_get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

#endif
