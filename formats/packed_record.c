/* formats/packed_record.c: see packed_record.h. */
#include "formats/packed_record.h"

#include <stdlib.h>
#include <string.h>

#include "util/env_limit.h"
#include "util/grow.h"
#include "util/spare.h"

/* Affine iff every active lane l sits at first + (l - f) × stride, with the
 * stride taken from the first two active lanes f and g. */
static int affine(uint32_t mask, const uint64_t *addr, uint64_t *base, uint64_t *stride)
{
    if (!mask) {
        *base = *stride = 0;
        return 1;
    }
    uint32_t f = (uint32_t)__builtin_ctz(mask), rest = mask & (mask - 1);
    uint64_t step = 0;
    if (rest) {
        uint32_t g = (uint32_t)__builtin_ctz(rest);
        uint64_t diff = addr[g] - addr[f];
        if (g - f == 1) { /* adjacent lanes, the common case: no 64-bit division */
            step = diff;
        } else {
            if (diff % (g - f) != 0 && (0 - diff) % (g - f) != 0)
                return 0;
            /* The exact per-lane step, as a signed quotient, modulo 2^64. */
            step = (int64_t)diff < 0 ? 0 - ((0 - diff) / (g - f)) : diff / (g - f);
        }
    }
    uint64_t b = addr[f] - (uint64_t)f * step;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        if (addr[l] != b + (uint64_t)l * step)
            return 0;
    }
    *base = b;
    *stride = step;
    return 1;
}

/* The capacity that holds `needed` records, from `capacity`: exactly
 * `needed` the first time, at least double after (reserve_records); the
 * side arrays (timestamps, timing) follow it exactly (ws_grow_exact). */
static size_t grown_capacity(size_t capacity, size_t needed)
{
    return capacity && 2 * capacity > needed ? 2 * capacity : needed;
}

/* Room for n records, cache-line aligned: malloc's 16-byte alignment would
 * put every other 32-byte record across two cache lines, so reading it back
 * would miss twice.  Keeps the first `keep` records.  The first room is
 * what is asked (a CTA's records arrive in one batch when they fit one
 * chunk), later rooms at least double: rounding a CTA of 81 records up to
 * 128 touched a third more pages than it used, one page fault each
 * (bench/RESULTS.md, "Branch coal43").  Where the caches' huge page has
 * room the records come from it instead (util/spare.h), rounded up to a
 * power of two that costs no page more, and the memory of a CTA that
 * retired is the next one's. */
static int reserve_records(packed_cta *p, size_t n, size_t keep)
{
    if (n <= p->capacity)
        return 0;
    size_t capacity = grown_capacity(p->capacity, n), bytes = capacity * sizeof *p->records;
    void *records = ws_spare_take(&bytes);
    if (records)
        capacity = bytes / sizeof *p->records;
    else if (posix_memalign(&records, 64, bytes) != 0)
        return -1;
    if (keep)
        memcpy(records, p->records, keep * sizeof *p->records);
    ws_spare_release(p->records, p->capacity * sizeof *p->records);
    p->records = records;
    p->capacity = capacity;
    return 0;
}

/* Room for `needed` lanes in the pool, doubling as ws_grow does; from the
 * caches' huge page where it has room, as the records (reserve_records). */
static int reserve_lanes(packed_cta *p, size_t needed)
{
    if (needed <= p->lane_capacity)
        return 0;
    size_t bytes = ws_grown_capacity(p->lane_capacity, needed) * sizeof *p->lanes;
    uint64_t *lanes = ws_spare_resize(p->lanes, p->lane_capacity * sizeof *p->lanes, &bytes);
    if (!lanes)
        return -1;
    p->lanes = lanes;
    p->lane_capacity = bytes / sizeof *p->lanes;
    return 0;
}

/* Bytes of the CTAs being held now, across threads (packed_cta_limit). */
static uint64_t resident_bytes;

/* p's records are no longer held: out of the resident total. */
static void release(packed_cta *p)
{
    if (p->accounted)
        __atomic_sub_fetch(&resident_bytes, p->accounted, __ATOMIC_RELAXED);
    p->accounted = 0;
}

void packed_cta_clear(packed_cta *p)
{
    release(p);
    p->count = p->lane_count = 0;
}

int packed_cta_reserve(packed_cta *p, size_t n, ws_error *err)
{
    if (reserve_records(p, p->count + n + 1, p->count) != 0)
        return ws_fail(err, "out of memory");
    return 0;
}

/* Kept out of line: inlined into packed_cta_push, it slowed bfs's
 * decoding by 10%, most of whose records take neither shape. */
static __attribute__((noinline)) int tiled(uint32_t mask, const uint64_t *addr, lane_tile *tile,
                                           uint64_t *base, uint64_t *stride)
{
    unsigned first = (unsigned)__builtin_ctz(mask);
    return lane_tile_find(addr, mask, tile) &&
           packed_tile_fits(tile, addr[first], first, base, stride);
}

int packed_cta_push(packed_cta *p, const wst_head *h, const uint64_t *addr, ws_error *err)
{
    uint64_t base = 0, stride = 0;
    if (affine(h->mask, addr, &base, &stride))
        return packed_cta_push_affine(p, h, base, stride, err);
    lane_tile tile;
    if (tiled(h->mask, addr, &tile, &base, &stride))
        return packed_cta_push_tiled(p, h, &tile, base, stride, err);
    size_t lanes = (size_t)__builtin_popcount(h->mask);
    if (reserve_lanes(p, p->lane_count + lanes) != 0)
        return ws_fail(err, "out of memory");
    if (packed_cta_push_head(p, h, p->lane_count, 0, 0, 0, err) != 0)
        return -1;
    uint64_t *pool = p->lanes + p->lane_count;
    p->lane_count += lanes;
    if (h->mask == 0xffffffffu) {
        memcpy(pool, addr, WST_WARP_SIZE * sizeof *addr);
        return 0;
    }
    for (uint32_t m = h->mask; m; m &= m - 1)
        *pool++ = addr[__builtin_ctz(m)];
    return 0;
}

int packed_cta_append(packed_cta *p, const wst_record *records, size_t n, ws_error *err)
{
    if (packed_cta_reserve(p, n, err) != 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (records[i].warp > UINT16_MAX)
            return ws_fail(err, "record with warp %u beyond a CTA's 1024 warps", records[i].warp);
        wst_head head = wst_head_of(&records[i]);
        if (packed_cta_push(p, &head, records[i].addr, err) != 0)
            return -1;
    }
    return 0;
}

/* The most warps a CTA has (1024 threads per block at most): the
 * grouping's bound. */
enum { MAX_WARPS = 1024 };

static void swap_arrays(void **a, size_t *a_capacity, void **b, size_t *b_capacity)
{
    void *array = *a;
    size_t capacity = *a_capacity;
    *a = *b, *a_capacity = *b_capacity;
    *b = array, *b_capacity = capacity;
}

int packed_cta_group_by_warp(packed_cta *p, packed_cta *spare, const uint32_t *starts,
                             uint32_t warps, ws_error *err)
{
    if (warps > MAX_WARPS)
        return ws_fail(err, "%u warps: a CTA has at most %u", warps, MAX_WARPS);
    /* Once any CTA had timestamps or timing, they travel along (a record
     * with either always finds room for its own: append grows them with the
     * records). */
    int stamped = p->timestamps != NULL, timed = p->timing != NULL;
    if (reserve_records(spare, p->count + 1, 0) != 0 ||
        (stamped && ws_grow_exact((void **)&spare->timestamps, &spare->timestamp_capacity,
                                  spare->capacity, sizeof *spare->timestamps) != 0) ||
        (timed && ws_grow_exact((void **)&spare->timing, &spare->timing_capacity,
                                spare->capacity, sizeof *spare->timing) != 0))
        return ws_fail(err, "out of memory");
    uint32_t next[MAX_WARPS];
    memcpy(next, starts, warps * sizeof *next);
    for (size_t i = 0; i < p->count; i++) {
        uint32_t at = next[p->records[i].warp]++;
        spare->records[at] = p->records[i];
        if (packed_has_time(&p->records[i]))
            spare->timestamps[at] = p->timestamps[i];
        if (packed_timed(&p->records[i]))
            spare->timing[at] = p->timing[i];
    }
    swap_arrays((void **)&p->records, &p->capacity, (void **)&spare->records, &spare->capacity);
    if (stamped)
        swap_arrays((void **)&p->timestamps, &p->timestamp_capacity, (void **)&spare->timestamps,
                    &spare->timestamp_capacity);
    if (timed)
        swap_arrays((void **)&p->timing, &p->timing_capacity, (void **)&spare->timing,
                    &spare->timing_capacity);
    return 0;
}

void packed_affine_lanes(wst_record *r, uint64_t stride)
{
    uint64_t a = r->addr[0]; /* every lane, active or not: a loop the compiler vectorizes */
    for (uint32_t l = 0; l < WST_WARP_SIZE; l++, a += stride)
        r->addr[l] = a;
}

/* Two lanes' addresses at once (GCC's vector extension: one SSE2 register
 * on x86-64). */
typedef uint64_t lane_pair __attribute__((vector_size(16)));

/* Every lane of a tiled record by additions alone, two lanes at a time:
 * the first row's lane c at lane 0's address + c × step, and each lane of
 * a later row the row step past the lane above it (lane_tile_address from
 * lane 0: the same sums modulo 2^64).  Lane by lane through
 * lane_tile_address it took 8 instructions a lane, 5% of backprop's timed
 * compare (bench/RESULTS.md, "Branch dec42").  A row is two lanes wide at
 * least, so a pair never reads a lane of its own. */
static void packed_tile_lanes(const packed_record *q, uint64_t *addr)
{
    lane_tile tile = packed_tile_of(q);
    unsigned width = 1u << tile.log2_width;
    lane_pair pair = {q->base, q->base + tile.step};
    lane_pair two_steps = {2 * tile.step, 2 * tile.step}, row_step = {tile.row_step, tile.row_step};
    for (unsigned c = 0; c < width; c += 2, pair += two_steps)
        memcpy(&addr[c], &pair, sizeof pair);
    for (unsigned l = width; l < WST_WARP_SIZE; l += 2) {
        memcpy(&pair, &addr[l - width], sizeof pair);
        pair += row_step;
        memcpy(&addr[l], &pair, sizeof pair);
    }
}

void packed_cta_expand(const packed_cta *p, size_t i, uint32_t cta, wst_record *out)
{
    /* A gathered record's inactive lanes read 0 here, as they always
     * have: packed_cta_expand_head leaves them as they were. */
    const packed_record *q = &p->records[i];
    if (!packed_affine(q) && !packed_tiled(q))
        memset(out->addr, 0, sizeof out->addr);
    if (packed_cta_expand_head(p, i, cta, out))
        packed_affine_lanes(out, q->stride);
}

int packed_cta_expand_head(const packed_cta *p, size_t i, uint32_t cta, wst_record *out)
{
    const packed_record *q = &p->records[i];
    out->cta = cta;
    out->warp = q->warp;
    out->pc = q->pc;
    out->kind = (uint8_t)packed_kind(q);
    out->space = (uint8_t)packed_space(q);
    out->cache_op = q->cache_op;
    out->size = q->size;
    out->mask = q->mask;
    out->has_sm = (uint8_t)packed_has_sm(q);
    out->has_time = (uint8_t)packed_has_time(q);
    out->sm = q->sm;
    out->timestamp = packed_cta_timestamp(p, i);
    packed_timing timing = packed_cta_timing(p, i);
    out->has_waits = timing.has_waits;
    out->gap = timing.gap;
    out->waits = timing.waits;
    if (packed_affine(q)) {
        out->addr[0] = q->base;
        return 1;
    }
    if (packed_tiled(q)) { /* every lane */
        packed_tile_lanes(q, out->addr);
        return 0;
    }
    /* The pool holds the active lanes in lane order; the others are left
     * as they were (every reader of an issue's lanes goes by the mask):
     * clearing them was a 256-byte store an issue, 0.6% of bfs fermi's
     * timed compare (bench/RESULTS.md, "Branch fuse45").  A lane at a
     * time through the mask's set bits, not through all 32: an irregular
     * record (bfs) is often a few lanes. */
    const uint64_t *lane = p->lanes + q->base;
    if (q->mask == 0xffffffffu) {
        memcpy(out->addr, lane, WST_WARP_SIZE * sizeof *lane);
        return 0;
    }
    for (uint32_t m = q->mask; m; m &= m - 1)
        out->addr[__builtin_ctz(m)] = *lane++;
    return 0;
}

/* Records [from, count) of g have just been packed: counts them per warp
 * and holds the CTA to its limits. */
static int cta_grouping_count(cta_grouping *g, size_t from, ws_error *err)
{
    const packed_cta *p = g->records;
    uint32_t last = g->last_warp;
    int unordered = g->unordered;
    for (size_t i = from; i < p->count; i++) {
        uint32_t warp = p->records[i].warp;
        if (warp >= g->warps)
            return ws_fail(err, "kernel %u CTA %u: warp %u outside the CTA", g->kernel, g->cta,
                           warp);
        g->starts[warp + 1]++;
        unordered |= warp < last;
        last = warp;
    }
    g->last_warp = last;
    g->unordered = unordered;
    if (p->count > UINT32_MAX) /* the warps' starts[] are 32-bit */
        return ws_fail(err, "kernel %u CTA %u: more than 2^32 records", g->kernel, g->cta);
    uint64_t limit = packed_cta_limit(), bytes = packed_cta_bytes(p);
    if (bytes > limit)
        return ws_fail(err,
                       "kernel %u CTA %u: its records need more than %llu MiB in memory (set "
                       "WARPSCOPE_CTA_LIMIT=MiB to allow it)",
                       g->kernel, g->cta, (unsigned long long)(limit >> 20));
    uint64_t total = __atomic_add_fetch(&resident_bytes, bytes - g->records->accounted,
                                        __ATOMIC_RELAXED);
    g->records->accounted = bytes;
    if (total > limit)
        return ws_fail(err,
                       "kernel %u CTA %u: with the CTAs resident beside it, the records need more "
                       "than %llu MiB in memory (set WARPSCOPE_CTA_LIMIT=MiB to allow it)",
                       g->kernel, g->cta, (unsigned long long)(limit >> 20));
    return 0;
}

int cta_grouping_take(void *grouping, const wst_record *records, size_t n, ws_error *err)
{
    cta_grouping *g = grouping;
    size_t from = g->records->count;
    for (size_t i = 0; i < n; i++)
        if (records[i].warp >= g->warps) /* before packing: a warp past 16 bits */
            return ws_fail(err, "kernel %u CTA %u: warp %u outside the CTA", g->kernel, g->cta,
                           records[i].warp);
    if (packed_cta_append(g->records, records, n, err) != 0)
        return -1;
    return cta_grouping_count(g, from, err);
}

int cta_grouping_read(cta_grouping *g, wst_cursor *c, ws_error *err)
{
    /* The cursor stops at the CTA's last chunk; the index says how many
     * records that is, so a short chunk is caught. */
    uint64_t left = wst_cursor_records_left(c);
    while (left > 0) {
        size_t from = g->records->count;
        int64_t n = wst_cursor_next_packed(c, g->records, NULL, err);
        if (n < 0)
            return -1;
        if (n == 0)
            return ws_fail(err, "kernel %u CTA %u: fewer records than the index says", g->kernel,
                           g->cta);
        if ((uint64_t)n > left)
            return ws_fail(err, "kernel %u CTA %u: more records than the index says", g->kernel,
                           g->cta);
        if (cta_grouping_count(g, from, err) != 0)
            return -1;
        left -= (uint64_t)n;
    }
    return 0;
}

int cta_grouping_finish(cta_grouping *g, packed_cta *spare, ws_error *err)
{
    for (uint32_t w = 0; w < g->warps; w++)
        g->starts[w + 1] += g->starts[w];
    /* Most traces hold a CTA warp by warp (Accel-Sim's list a CTA's warps
     * one after another; 18 of the 23 small traces of bench/RESULTS.md,
     * "Branch dec44"): records that never stepped back to a lower warp
     * are where the sort would put them, so its copy and the spare's pages
     * (each first touch a page fault) are skipped.  Past MAX_WARPS the
     * sort refuses the CTA, in order or not. */
    if (!g->unordered && g->warps <= MAX_WARPS)
        return 0;
    return packed_cta_group_by_warp(g->records, spare, g->starts, g->warps, err);
}

uint64_t packed_cta_bytes(const packed_cta *p)
{
    return (uint64_t)p->count * sizeof *p->records + (uint64_t)p->lane_count * sizeof *p->lanes +
           (p->timestamps ? (uint64_t)p->count * sizeof *p->timestamps : 0) +
           (p->timing ? (uint64_t)p->count * sizeof *p->timing : 0);
}

uint64_t packed_cta_limit(void)
{
    return ws_env_limit_bytes("WARPSCOPE_CTA_LIMIT", PACKED_CTA_LIMIT_DEFAULT_MIB);
}

void packed_cta_free(packed_cta *p)
{
    release(p);
    ws_spare_release(p->records, p->capacity * sizeof *p->records);
    ws_spare_release(p->lanes, p->lane_capacity * sizeof *p->lanes);
    free(p->timestamps);
    free(p->timing);
    *p = (packed_cta){0};
}

int cta_buffer_init(cta_buffer *b, uint32_t warps, ws_error *err)
{
    *b = (cta_buffer){.warps = warps, .starts = calloc((size_t)warps + 1, sizeof *b->starts)};
    return b->starts ? 0 : ws_fail(err, "out of memory");
}

void cta_buffer_empty(cta_buffer *b)
{
    packed_cta_clear(&b->records);
    memset(b->starts, 0, ((size_t)b->warps + 1) * sizeof *b->starts);
}

int cta_buffer_read(cta_buffer *b, wst_reader *r, uint32_t kernel, uint32_t cta, ws_error *err)
{
    cta_buffer_empty(b);
    cta_grouping g = {.records = &b->records, .starts = b->starts, .warps = b->warps,
                      .kernel = kernel, .cta = cta};
    wst_cursor *c = wst_cursor_cta(r, kernel, cta, err);
    if (!c)
        return -1;
    int rc = cta_grouping_read(&g, c, err);
    wst_cursor_free(c);
    return rc != 0 ? -1 : cta_grouping_finish(&g, &b->spare, err);
}

void cta_buffer_free(cta_buffer *b)
{
    packed_cta_free(&b->records);
    packed_cta_free(&b->spare);
    free(b->starts);
    b->starts = NULL;
}
