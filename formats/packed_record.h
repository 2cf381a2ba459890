/* formats/packed_record.h: resident CTAs' records, packed.
 *
 * The scheduler holds every record of the resident CTAs (docs/metrics.md §6), and a
 * wst_record is 288 bytes, most of it 32 lane addresses.  Most warp
 * instructions address their lanes affinely (lane l at base + l × stride:
 * coalesced, strided and broadcast accesses), so a packed record keeps base
 * and stride in 32 bytes (two to a cache line: reading them back when warps
 * issue is a cache miss each, the scheduler's main cost); the others keep
 * their active lanes' addresses in a side pool, except the lanes of a 2D
 * thread block's tile (formats/lane_tile.h), kept as (base, step, row
 * step, width) in the same 32 bytes; timestamps, which only
 * some collectors record, sit in a side array, and so does the timing of
 * docs/metrics.md §12 (gap and waits), which a CTA without any never
 * allocates.  A record is expanded back, exactly, when it issues (an
 * affine one to lane 0 and its stride: packed_cta_expand_head). */
#ifndef WS_PACKED_RECORD_H
#define WS_PACKED_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "formats/lane_tile.h"
#include "formats/trace.h"
#include "formats/wst.h"
#include "util/error.h"
#include "util/grow.h"

typedef struct packed_record {
    uint32_t pc, mask;
    uint16_t warp, sm;
    /* kind (bits 0-1), space, has_sm, has_time, affine, tiled, timed (bits 2-7): read
     * through the accessors below.  One plain byte rather than bitfields,
     * so a record is written with stores alone: a bitfield is a
     * read-modify-write, and the read waits for the line (a third of the
     * decoder's time, perf). */
    uint8_t bits;
    uint8_t cache_op, size;
    uint8_t tile_log2; /* tiled: log2 of the tile's width; else 0 */
    uint64_t base;     /* affine, tiled: lane 0's address (extrapolated); else the pool index */
    uint64_t stride;   /* affine: per lane, modulo 2^64; tiled: the step (low 32 bits) and the
                        * row step (high), each a signed 32-bit number */
} packed_record;
_Static_assert(sizeof(packed_record) == 32, "two packed records to a cache line");

enum { PACKED_SPACE = 1u << 2, PACKED_HAS_SM = 1u << 3, PACKED_HAS_TIME = 1u << 4,
       PACKED_AFFINE = 1u << 5, PACKED_TILED = 1u << 6, PACKED_TIMED = 1u << 7 };

/* A timed record's gap and waits (docs/metrics.md §12), beside it. */
typedef struct packed_timing {
    uint32_t gap, waits;
    uint8_t has_waits;
} packed_timing;

static inline unsigned packed_kind(const packed_record *q) { return q->bits & 3u; }
static inline unsigned packed_space(const packed_record *q) { return (q->bits >> 2) & 1u; }
static inline int packed_has_sm(const packed_record *q) { return (q->bits & PACKED_HAS_SM) != 0; }
static inline int packed_has_time(const packed_record *q)
{
    return (q->bits & PACKED_HAS_TIME) != 0;
}
static inline int packed_affine(const packed_record *q) { return (q->bits & PACKED_AFFINE) != 0; }
static inline int packed_timed(const packed_record *q) { return (q->bits & PACKED_TIMED) != 0; }
static inline int packed_tiled(const packed_record *q) { return (q->bits & PACKED_TILED) != 0; }

typedef struct packed_cta {
    packed_record *records;
    size_t count, capacity;
    uint64_t *lanes; /* active lanes of the non-affine records */
    size_t lane_count, lane_capacity;
    uint64_t *timestamps; /* [capacity] once a record has one */
    size_t timestamp_capacity;
    packed_timing *timing; /* [capacity] once a record carries timing */
    size_t timing_capacity;
    uint64_t accounted; /* bytes it adds to the resident CTAs' total (packed_cta_limit) */
} packed_cta;

/* Empties p for the next CTA, keeping its memory. */
void packed_cta_clear(packed_cta *p);
/* Packs records[0..n) after the ones p holds: a CTA arrives in batches, so
 * its records are packed while the decoder's batch is still in cache. */
int packed_cta_append(packed_cta *p, const wst_record *records, size_t n, ws_error *err);
/* Room for n more records (and the one past them a reader may touch):
 * what packed_cta_push_affine needs first. */
int packed_cta_reserve(packed_cta *p, size_t n, ws_error *err);

/* Appends a record of head h and lanes addr[] (its active lanes by
 * h->mask), packed as packed_cta_append packs it; room comes from
 * packed_cta_reserve. */
int packed_cta_push(packed_cta *p, const wst_head *h, const uint64_t *addr, ws_error *err);

/* Appends a record of head h with base and stride as given and `shape`
 * (PACKED_AFFINE; PACKED_TILED with the width's log2 in tile_log2; or 0
 * when base is the index of its lanes in the pool); room comes from
 * packed_cta_reserve.  Written field by field into place, from registers
 * (see wst_head). */
static inline int packed_cta_push_head(packed_cta *p, const wst_head *h, uint64_t base,
                                       uint64_t stride, uint8_t shape, uint8_t tile_log2,
                                       ws_error *err)
{
    packed_record *q = &p->records[p->count++];
    q->pc = h->pc;
    q->mask = h->mask;
    q->warp = (uint16_t)h->warp;
    q->sm = (uint16_t)h->sm;
    int timed = wst_head_timed(h);
    q->bits = (uint8_t)((h->kind & 3u) | (h->space & 1u) << 2 | (h->has_sm ? PACKED_HAS_SM : 0) |
                        (h->has_time ? PACKED_HAS_TIME : 0) | (timed ? PACKED_TIMED : 0) | shape);
    q->cache_op = (uint8_t)h->cache_op;
    q->size = (uint8_t)h->size;
    q->tile_log2 = tile_log2;
    q->base = base;
    q->stride = stride;
    if (h->has_time) {
        if (ws_grow_exact((void **)&p->timestamps, &p->timestamp_capacity, p->capacity,
                          sizeof *p->timestamps) != 0)
            return ws_fail(err, "out of memory");
        p->timestamps[p->count - 1] = h->timestamp;
    }
    if (timed) {
        if (ws_grow_exact((void **)&p->timing, &p->timing_capacity, p->capacity,
                          sizeof *p->timing) != 0)
            return ws_fail(err, "out of memory");
        p->timing[p->count - 1] =
            (packed_timing){.gap = h->gap, .waits = h->waits, .has_waits = (uint8_t)h->has_waits};
    }
    return 0;
}

/* Appends a record of head h whose active lanes lie at base + lane ×
 * stride, without any lanes to read: how the trace decoder packs a record
 * it read as a stride (formats/wst_decode_v2.c).  (base, stride) must be
 * what packed_cta_append would find (its step, from the two lowest active
 * lanes, as a signed quotient), so both paths give the same bytes.  Room
 * comes from packed_cta_reserve; h->warp fits 16 bits (the decoder checks
 * it against the CTA's warps, at most 2048: metadata allows 65536
 * threads). */
static inline int packed_cta_push_affine(packed_cta *p, const wst_head *h, uint64_t base,
                                         uint64_t stride, ws_error *err)
{
    return packed_cta_push_head(p, h, base, stride, PACKED_AFFINE, 0, err);
}

/* Can tile t, whose lane `from` is at at_from, be kept packed (its steps
 * fit 32 bits)?  Then *base is lane 0's address and *stride the packed
 * steps. */
static inline int packed_tile_fits(const lane_tile *t, uint64_t at_from, unsigned from,
                                   uint64_t *base, uint64_t *stride)
{
    if ((uint64_t)(int64_t)(int32_t)t->step != t->step ||
        (uint64_t)(int64_t)(int32_t)t->row_step != t->row_step)
        return 0;
    *base = lane_tile_address(t, at_from, from, 0);
    *stride = (uint32_t)t->step | (uint64_t)(uint32_t)t->row_step << 32;
    return 1;
}

/* The tile of a PACKED_TILED record, lane 0 at q->base: packed_tile_fits
 * undone. */
static inline lane_tile packed_tile_of(const packed_record *q)
{
    return (lane_tile){.log2_width = q->tile_log2,
                       .step = (uint64_t)(int64_t)(int32_t)(uint32_t)q->stride,
                       .row_step = (uint64_t)(int64_t)(int32_t)(uint32_t)(q->stride >> 32)};
}

/* Appends a record of head h whose active lanes lie on tile t as
 * packed_tile_fits gave it (base, stride): how the trace decoder packs a
 * tiled record without writing out its lanes.  t must be the tile
 * packed_cta_append would find (lane_tile_find), so both paths give the
 * same bytes.  Room comes from packed_cta_reserve. */
static inline int packed_cta_push_tiled(packed_cta *p, const wst_head *h, const lane_tile *t,
                                        uint64_t base, uint64_t stride, ws_error *err)
{
    return packed_cta_push_head(p, h, base, stride, PACKED_TILED, (uint8_t)t->log2_width, err);
}

/* Reorders p's records so warp w's are [starts[w], starts[w + 1]), each
 * warp's in their order (a stable counting sort: starts[] are its prefix
 * sums, starts[warps] = count).  spare is scratch: its buffers are swapped
 * with p's, so one spare serves every slot. */
int packed_cta_group_by_warp(packed_cta *p, packed_cta *spare, const uint32_t *starts,
                             uint32_t warps, ws_error *err);
/* Record i, whole again.  Inactive lanes hold no meaningful address (as
 * everywhere: consumers read lanes by the mask). */
void packed_cta_expand(const packed_cta *p, size_t i, uint32_t cta, wst_record *out);
/* packed_cta_expand(), except that an affine record gets lane 0's address
 * alone (the others follow from its stride): returns whether it is one;
 * and a gathered record's inactive lanes are left as they were.
 * The timed replay's coalescer reads an affine record's lanes from addr[0]
 * and the stride, so writing the 32 lanes out is work for nobody
 * (bench/RESULTS.md, "Branch dec41"). */
int packed_cta_expand_head(const packed_cta *p, size_t i, uint32_t cta, wst_record *out);
/* Writes every lane of an affine record from its addr[0] and stride. */
void packed_affine_lanes(wst_record *r, uint64_t stride);
/* Record i's timestamp (0 if it has none), without expanding it. */
static inline uint64_t packed_cta_timestamp(const packed_cta *p, size_t i)
{
    return packed_has_time(&p->records[i]) ? p->timestamps[i] : 0;
}
/* Record i's gap and waits (all 0 if it carries none), without expanding
 * it: what the timed replay asks of a warp's next record, once an issue
 * (inline: a call and a 12-byte return cost bfs 0.3% of its instructions). */
static inline packed_timing packed_cta_timing(const packed_cta *p, size_t i)
{
    return packed_timed(&p->records[i]) ? p->timing[i] : (packed_timing){0};
}
/* Bytes p's records take: the records, their lane pool, timestamps and
 * timing. */
uint64_t packed_cta_bytes(const packed_cta *p);
void packed_cta_free(packed_cta *p);

/* The most the packed records of all CTAs held at once may take, in bytes:
 * WARPSCOPE_CTA_LIMIT MiB, 1024 by default (README, "Limits").  A command
 * that holds CTAs whole (the scheduler's resident CTAs, the exporter's one)
 * refuses one that would pass it in one line, so a crafted CTA of billions
 * of identical records, a few KB compressed, cannot exhaust memory, nor
 * can a hundred resident CTAs each under the limit.  A CTA counts from its
 * grouping (cta_grouping_take/read) until packed_cta_clear or _free. */
#define PACKED_CTA_LIMIT_DEFAULT_MIB 1024
uint64_t packed_cta_limit(void);

/* One CTA's records packed as they arrive in batches, each record checked
 * and counted per warp (starts[w + 1], zeroed by the caller), then grouped
 * by warp: the scheduler's layout, built by the scheduler itself or, once
 * for several, by analyzer/cta_cache.c. */
typedef struct cta_grouping {
    packed_cta *records; /* cleared by the caller */
    uint32_t *starts;    /* [warps + 1] */
    uint32_t warps, kernel, cta;
    /* Whether a record came after one of a higher warp (the caller zeroes
     * both): if none did, the records are already grouped by warp. */
    uint32_t last_warp;
    int unordered;
} cta_grouping;

/* Takes a batch (sched_take_fn's shape): a warp outside the CTA, or records
 * past packed_cta_limit(), is an error naming the kernel and CTA. */
int cta_grouping_take(void *grouping, const wst_record *records, size_t n, ws_error *err);
/* Reads every record c has left (one CTA's cursor) into g, decoded
 * straight into the packed form (wst_cursor_next_packed), with the same
 * checks as cta_grouping_take, and that the records match the index. */
int cta_grouping_read(cta_grouping *g, wst_cursor *c, ws_error *err);
/* After the last batch: starts become prefix sums and the records are
 * grouped by warp (a counting sort: each warp's in trace order, so a warp
 * that keeps issuing reads memory sequentially).  spare is scratch,
 * untouched when the records came in warp order already. */
int cta_grouping_finish(cta_grouping *g, packed_cta *spare, ws_error *err);

/* One CTA of a .wst trace at a time, packed and grouped by warp as the
 * scheduler holds it, about 32 bytes a record rather than a wst_record's
 * 288: how export and diff read a trace. */
typedef struct cta_buffer {
    packed_cta records, spare;
    uint32_t *starts; /* [warps + 1]: warp w's records are [starts[w], starts[w + 1]) */
    uint32_t warps;
} cta_buffer;

/* For CTAs of `warps` warps: 0, or -1 out of memory (b can still be freed). */
int cta_buffer_init(cta_buffer *b, uint32_t warps, ws_error *err);
/* Holds no records (a CTA the trace has none of). */
void cta_buffer_empty(cta_buffer *b);
/* Reads (kernel, cta) of r into b: 0, or -1 with err (a CTA past
 * packed_cta_limit() is refused naming the kernel and CTA). */
int cta_buffer_read(cta_buffer *b, wst_reader *r, uint32_t kernel, uint32_t cta, ws_error *err);
void cta_buffer_free(cta_buffer *b);

#endif
