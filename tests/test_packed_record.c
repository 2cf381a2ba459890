/* tests/test_packed_record.c: packing the resident CTAs' records is exact. */
#include <criterion/criterion.h>
#include <string.h>

#include "formats/packed_record.h"
#include "tests/trace_gen.h"

/* Packs into p (which may hold an earlier CTA: slots are refilled), in
 * batches of `batch` records as a source hands them over, and checks every
 * record and timestamp comes back. */
static void refill_round_trip(packed_cta *p, const wst_record *records, size_t n, size_t batch)
{
    ws_error err;
    packed_cta_clear(p);
    for (size_t at = 0; at < n; at += batch)
        cr_assert_eq(packed_cta_append(p, records + at, n - at < batch ? n - at : batch, &err), 0,
                     "%s", err.msg);
    cr_assert_eq(p->count, n);
    for (size_t i = 0; i < n; i++) {
        wst_record got;
        packed_cta_expand(p, i, records[i].cta, &got);
        cr_assert(test_records_equal(&records[i], &got), "record %zu", i);
        cr_assert_eq(packed_cta_timestamp(p, i), records[i].has_time ? records[i].timestamp : 0);
        /* The head alone: the same record once an affine one's lanes are
         * written from lane 0 and its stride. */
        wst_record head;
        memset(&head, 0xa5, sizeof head);
        int affine = packed_cta_expand_head(p, i, records[i].cta, &head);
        cr_assert_eq(affine, packed_affine(&p->records[i]), "record %zu", i);
        if (affine)
            packed_affine_lanes(&head, p->records[i].stride);
        cr_assert(test_records_equal(&records[i], &head), "record %zu", i);
    }
}

static void round_trip(const wst_record *records, size_t n)
{
    packed_cta p = {0};
    refill_round_trip(&p, records, n, n ? n : 1);
    packed_cta_free(&p);
}

Test(packed_record, random_traces_round_trip)
{
    for (uint64_t seed = 1; seed <= 5; seed++) {
        wst_memtrace *m = test_random_trace(seed, 2, 3000);
        packed_cta reused = {0};
        for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
            round_trip(m->per_kernel[k].records, m->per_kernel[k].count);
            refill_round_trip(&reused, m->per_kernel[k].records, m->per_kernel[k].count, 7);
        }
        packed_cta_free(&reused);
        wst_memtrace_free(m);
    }
}

/* Timing (docs/metrics.md §12) travels beside the 32 bytes: packed,
 * grouped by warp (test_records_equal compares it) and expanded back. */
Test(packed_record, timing_round_trips)
{
    wst_memtrace *m = test_random_trace(41, 2, 3000);
    test_add_timing(m, 41);
    packed_cta reused = {0};
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        round_trip(m->per_kernel[k].records, m->per_kernel[k].count);
        refill_round_trip(&reused, m->per_kernel[k].records, m->per_kernel[k].count, 7);
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            const wst_record *r = &m->per_kernel[k].records[i];
            packed_timing t = packed_cta_timing(&reused, i);
            cr_assert(t.gap == r->gap && t.has_waits == r->has_waits &&
                      t.waits == (r->has_waits ? r->waits : 0));
        }
    }
    packed_cta_free(&reused);
    wst_memtrace_free(m);
}

/* A CTA without timing never allocates its side array. */
Test(packed_record, untimed_records_cost_nothing)
{
    wst_memtrace *m = test_random_trace(3, 1, 500);
    packed_cta p = {0};
    ws_error err;
    cr_assert_eq(packed_cta_append(&p, m->per_kernel[0].records, m->per_kernel[0].count, &err), 0);
    cr_assert_null(p.timing);
    packed_cta_free(&p);
    wst_memtrace_free(m);
}

Test(packed_record, affine_edge_cases_and_order)
{
    wst_record r[6];
    memset(r, 0, sizeof r);
    for (int i = 0; i < 6; i++)
        r[i].size = 4, r[i].warp = (uint32_t)i, r[i].pc = (uint32_t)i;
    /* Descending addresses (negative stride), sparse lanes. */
    r[0].mask = 0x80000101u;
    for (int l = 0; l < 32; l++)
        r[0].addr[l] = 0x100000 - (uint64_t)l * 8;
    /* Wrapping past 2^64. */
    r[1].mask = 0x3u;
    r[1].addr[0] = UINT64_MAX - 3;
    r[1].addr[1] = 4;
    /* A stride that does not divide: lanes 0 and 3 differ by 10. */
    r[2].mask = 0x9u;
    r[2].addr[0] = 100;
    r[2].addr[3] = 110;
    /* Broadcast, one lane, no lane. */
    r[3].mask = 0xffffffffu;
    for (int l = 0; l < 32; l++)
        r[3].addr[l] = 4096;
    r[4].mask = 1u << 17;
    r[4].addr[17] = 77;
    r[5].mask = 0;
    round_trip(r, 6);
}

/* The head of an affine record carries lane 0's address alone: lanes
 * 0-31 at 0x100 + 8l (lane 0 inactive, extrapolated) come back as
 * addr[0] = 0x100 and stride 8, lane 1 untouched; written out, lane 31 is
 * 0x100 + 248 = 0x1f8. */
Test(packed_record, an_affine_head_has_lane_0_and_the_stride)
{
    wst_record r;
    memset(&r, 0, sizeof r);
    r.size = 4, r.mask = 0xfffffffeu;
    for (int l = 0; l < 32; l++)
        r.addr[l] = 0x100 + (uint64_t)l * 8;
    packed_cta p = {0};
    ws_error err;
    cr_assert_eq(packed_cta_append(&p, &r, 1, &err), 0, "%s", err.msg);
    wst_record head;
    memset(&head, 0xa5, sizeof head);
    cr_assert_eq(packed_cta_expand_head(&p, 0, 3, &head), 1);
    cr_assert_eq(head.addr[0], 0x100);
    cr_assert_eq(p.records[0].stride, 8);
    cr_assert_eq(head.addr[1], 0xa5a5a5a5a5a5a5a5u, "lanes past 0 are left alone");
    cr_assert_eq(head.cta, 3);
    cr_assert_eq(head.mask, 0xfffffffeu);
    packed_affine_lanes(&head, p.records[0].stride);
    cr_assert_eq(head.addr[31], 0x1f8);
    cr_assert_eq(memcmp(head.addr, r.addr, sizeof r.addr), 0);
    packed_cta_free(&p);
}

/* Lane l of the scattered record below: lanes 0, 5, 6 and 31 at at[],
 * the others `inactive`. */
static uint64_t scattered_lane(const uint64_t at[4], unsigned l, uint64_t inactive)
{
    return l == 0 ? at[0] : l == 5 ? at[1] : l == 6 ? at[2] : l == 31 ? at[3] : inactive;
}

/* A record neither affine nor tiled keeps its active lanes in the pool;
 * expanded, they come back in their lanes and every inactive lane reads 0,
 * whatever the output held before.  The head the scheduler issues from
 * (each issue into the same record) writes the active lanes alone and
 * leaves the others as they were: every reader of an issue's lanes goes by
 * the mask.  Lanes 0, 5, 6 and 31 of scattered addresses; then all 32,
 * which are copied whole. */
Test(packed_record, a_scattered_record_expands_its_lanes_and_zeros_the_rest)
{
    wst_record r[2];
    memset(r, 0, sizeof r);
    static const uint64_t at[4] = {0x9000, 0x10, 0x77777, 0x4242};
    r[0].size = 4, r[0].mask = 1u | 1u << 5 | 1u << 6 | 1u << 31;
    r[0].addr[0] = at[0], r[0].addr[5] = at[1], r[0].addr[6] = at[2], r[0].addr[31] = at[3];
    r[1].size = 8, r[1].mask = 0xffffffffu;
    for (uint64_t l = 0; l < 32; l++)
        r[1].addr[l] = (l * l * 977) ^ 0x5000;
    packed_cta p = {0};
    ws_error err;
    cr_assert_eq(packed_cta_append(&p, r, 2, &err), 0, "%s", err.msg);
    cr_assert(!packed_affine(&p.records[0]) && !packed_tiled(&p.records[0]));
    cr_assert(!packed_affine(&p.records[1]) && !packed_tiled(&p.records[1]));
    wst_record got;
    memset(&got, 0xab, sizeof got);
    packed_cta_expand(&p, 0, 0, &got);
    for (unsigned l = 0; l < 32; l++)
        cr_assert_eq(got.addr[l], scattered_lane(at, l, 0), "lane %u", l);
    memset(&got, 0xab, sizeof got);
    cr_assert_eq(packed_cta_expand_head(&p, 0, 2, &got), 0);
    for (unsigned l = 0; l < 32; l++)
        cr_assert_eq(got.addr[l], scattered_lane(at, l, UINT64_C(0xabababababababab)),
                     "head, lane %u", l);
    cr_assert_eq(got.cta, 2);
    cr_assert_eq(got.mask, r[0].mask);
    memset(&got, 0xab, sizeof got);
    packed_cta_expand(&p, 1, 0, &got);
    cr_assert_eq(memcmp(got.addr, r[1].addr, sizeof got.addr), 0);
    packed_cta_free(&p);
}

/* A record of tile (W = 1 << log2_width, step, row_step) from lane 0 at
 * base, on the lanes of mask. */
static wst_record tile_record(uint32_t mask, unsigned log2_width, uint64_t base, uint64_t step,
                              uint64_t row_step)
{
    wst_record r;
    memset(&r, 0, sizeof r);
    r.size = 4;
    r.mask = mask;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = base + (l & ((1u << log2_width) - 1)) * step + (l >> log2_width) * row_step;
    return r;
}

/* Tiles of 2D thread blocks (formats/lane_tile.h) stay in their 32 bytes:
 * lane 0's address (extrapolated), the step and the row step; steps past
 * 32 bits and three-lane records are pooled. */
Test(packed_record, tiles_pack_in_place_and_expand_exactly)
{
    wst_record r[6] = {
        tile_record(0xffffffffu, 4, 0x10000, 4, 2052),       /* srad */
        tile_record(0x0000ffffu, 2, 0x20000, 1024, 0),       /* gaussian */
        tile_record(0x3ffc3ffcu, 4, 0x30000, 4, 2052),       /* hotspot: edges out */
        tile_record(0xffffffffu, 4, 0x40000, 8, 1ull << 33), /* row step past 32 bits */
        tile_record(0x7u, 1, 0x50000, 4, 4096),              /* three lanes */
        tile_record(0xffffff00u, 3, 0x60000, (uint64_t)-4, 512), /* first row out, descending */
    };
    round_trip(r, 6);
    packed_cta p = {0};
    ws_error err;
    cr_assert_eq(packed_cta_append(&p, r, 6, &err), 0, "%s", err.msg);
    static const struct {
        int tiled;
        unsigned log2_width;
        uint64_t base, stride;
    } want[6] = {
        {1, 4, 0x10000, 4 | 2052ull << 32},
        {1, 2, 0x20000, 1024},
        {1, 4, 0x30000, 4 | 2052ull << 32}, /* lane 2 at 0x30008: lane 0 extrapolated */
        {0, 0, 0, 0},
        {0, 0, 0, 0},
        {1, 3, 0x60000, 0xfffffffcull | 512ull << 32},
    };
    for (int i = 0; i < 6; i++) {
        const packed_record *q = &p.records[i];
        cr_assert_eq(packed_tiled(q), want[i].tiled, "record %d", i);
        cr_assert(!packed_affine(q), "record %d", i);
        if (!want[i].tiled)
            continue;
        cr_assert_eq(q->tile_log2, want[i].log2_width, "record %d", i);
        cr_assert_eq(q->base, want[i].base, "record %d", i);
        cr_assert_eq(q->stride, want[i].stride, "record %d", i);
    }
    cr_assert_eq(p.lane_count, 32 + 3, "only the records that are not tiles take pool lanes");
    packed_cta_free(&p);
}

/* A record has one tile, the narrowest that fits: lanes {0, 1, 4, 5} fit
 * width 2 (rows of 2, each 50 further) and width 4 (one row 100 further);
 * with 101 the row step of width 2 is not whole, so width 4 it is. */
Test(packed_record, a_record_takes_the_narrowest_tile)
{
    uint64_t addr[32] = {0};
    lane_tile t;
    addr[0] = 1000, addr[1] = 1004, addr[4] = 1100, addr[5] = 1104;
    cr_assert(lane_tile_find(addr, 0x33u, &t));
    cr_assert(t.log2_width == 1 && t.step == 4 && t.row_step == 50);
    addr[4] = 1101, addr[5] = 1105;
    cr_assert(lane_tile_find(addr, 0x33u, &t));
    cr_assert(t.log2_width == 2 && t.step == 4 && t.row_step == 101);
    addr[5] = 1106; /* off every tile */
    cr_assert(!lane_tile_find(addr, 0x33u, &t));
}

/* Every active lane at the address tile t gives it. */
static int on_tile(const uint64_t *addr, uint32_t mask, const lane_tile *t)
{
    unsigned f = (unsigned)__builtin_ctz(mask);
    for (uint32_t m = mask; m; m &= m - 1)
        if (addr[__builtin_ctz(m)] != lane_tile_address(t, addr[f], f, (unsigned)__builtin_ctz(m)))
            return 0;
    return 1;
}

/* Random tiles of every width, step and mask are found when their width
 * shows in the mask, at that width or a narrower one that explains the
 * same lanes; whatever tile is found, for tiles or random lanes, explains
 * every lane.  (The search refuses a width by one fourth lane before it
 * divides: this keeps that from refusing a tile.) */
Test(packed_record, tiles_are_found_and_found_tiles_are_right)
{
    uint64_t s = 7;
    unsigned found = 0;
    for (int trial = 0; trial < 200000; trial++) {
        unsigned log2_width = 1 + (unsigned)(test_rand(&s) % 4);
        /* Steps past 32 bits, but whose multiples by a lane gap fit 64:
         * a step of 2^63 + 5 two lanes apart wraps, and modulo 2^64 the
         * division cannot tell it from 5. */
        uint64_t large = (test_rand(&s) % (1ull << 41)) - (1ull << 40);
        uint64_t step = test_rand(&s) % 3 == 0 ? large : test_rand(&s) % 64 - 32;
        uint64_t row_step = test_rand(&s) % 3 == 0 ? large * 3 : test_rand(&s) % 8192 - 4096;
        uint32_t mask = (uint32_t)test_rand(&s) | (trial % 2 ? 0 : 0xffff0000u);
        if (__builtin_popcount(mask) < 4)
            continue;
        wst_record r = tile_record(mask, log2_width, test_rand(&s), step, row_step);
        if (trial % 3 == 2) /* random lanes instead */
            for (int l = 0; l < 32; l++)
                r.addr[l] = test_rand(&s) % 4 ? test_rand(&s) : r.addr[l];
        /* Its own width shows when the lowest lane's row has a second
         * lane and a later row has one. */
        unsigned f = (unsigned)__builtin_ctz(mask);
        unsigned row_end = ((f >> log2_width) + 1) << log2_width;
        uint32_t later = row_end < 32 ? mask & ~((1u << row_end) - 1) : 0;
        int shows = trial % 3 != 2 && later && (mask & (mask - 1) & ~later);
        lane_tile t;
        int got = lane_tile_find(r.addr, mask, &t);
        found += (unsigned)got;
        if (got)
            cr_assert(on_tile(r.addr, mask, &t), "trial %d: a tile that misses a lane", trial);
        if (shows) {
            cr_assert(got, "trial %d: a tile of width %u was not found", trial, 1u << log2_width);
            cr_assert_leq(t.log2_width, log2_width, "trial %d", trial);
        }
    }
    cr_assert_gt(found, 50000);
}

/* A tiled record expands every lane, active or not, to the address
 * lane_tile_address gives it from lane 0 (wrapping steps included). */
Test(packed_record, a_tiled_record_expands_every_lane_on_its_tile)
{
    uint64_t s = 5;
    unsigned tiled = 0;
    packed_cta p = {0};
    ws_error err;
    for (int trial = 0; trial < 20000; trial++) {
        unsigned log2_width = 1 + (unsigned)(test_rand(&s) % 4);
        uint64_t step = test_rand(&s) % 2 ? test_rand(&s) % 64 - 32 : (uint64_t)(int32_t)test_rand(&s);
        uint64_t row_step = test_rand(&s) % 2 ? test_rand(&s) % 8192 - 4096
                                              : (uint64_t)(int32_t)test_rand(&s);
        uint32_t mask = (uint32_t)test_rand(&s) | (trial % 2 ? 0 : 0xffffffffu);
        wst_record r = tile_record(mask, log2_width, test_rand(&s), step, row_step);
        packed_cta_clear(&p);
        cr_assert_eq(packed_cta_append(&p, &r, 1, &err), 0, "%s", err.msg);
        if (!packed_tiled(&p.records[0]))
            continue;
        tiled++;
        wst_record out;
        memset(&out, 0xa5, sizeof out);
        cr_assert_eq(packed_cta_expand_head(&p, 0, 0, &out), 0);
        lane_tile t = packed_tile_of(&p.records[0]);
        for (unsigned l = 0; l < 32; l++)
            cr_assert_eq(out.addr[l], lane_tile_address(&t, p.records[0].base, 0, l),
                         "trial %d lane %u", trial, l);
    }
    packed_cta_free(&p);
    cr_assert_gt(tiled, 5000);
}

/* lane_tile_find without its test of lanes 2k and 2k + 1: every width
 * tried in turn. */
static int tile_find_every_width(const uint64_t *addr, uint32_t mask, lane_tile *t)
{
    if (__builtin_popcount(mask) < 4)
        return 0;
    for (unsigned w = LANE_TILE_MIN_LOG2; w <= LANE_TILE_MAX_LOG2; w++)
        if (lane_tile_fits(addr, mask, w, t))
            return 1;
    return 0;
}

Test(packed_record, the_pair_test_refuses_only_records_no_width_fits)
{
    uint64_t s = 11;
    unsigned found = 0, refused = 0;
    for (int trial = 0; trial < 200000; trial++) {
        unsigned log2_width = 1 + (unsigned)(test_rand(&s) % 4);
        uint64_t step = test_rand(&s) % 64 - 32, row_step = test_rand(&s) % 8192 - 4096;
        uint32_t mask = (uint32_t)test_rand(&s);
        if (trial % 4 == 0)
            mask |= 0xffffffffu >> (test_rand(&s) % 32);
        wst_record r = tile_record(mask, log2_width, test_rand(&s), step, row_step);
        switch (trial % 5) {
        case 0: /* one lane off its tile, by one or at random */
            r.addr[test_rand(&s) % 32] += test_rand(&s) % 2 ? 1 : test_rand(&s);
            break;
        case 1: /* a gather */
            for (int l = 0; l < 32; l++)
                r.addr[l] = test_rand(&s) % 4096;
            break;
        case 2: /* affine */
            for (int l = 0; l < 32; l++)
                r.addr[l] = 4096 + step * (uint64_t)l;
            break;
        default: /* the tile itself */
            break;
        }
        lane_tile fast = {0}, every = {0};
        int got = lane_tile_find(r.addr, mask, &fast);
        int want = tile_find_every_width(r.addr, mask, &every);
        cr_assert_eq(got, want, "trial %d: mask %08x", trial, mask);
        if (got)
            cr_assert(fast.log2_width == every.log2_width && fast.step == every.step &&
                          fast.row_step == every.row_step,
                      "trial %d", trial);
        found += (unsigned)got;
        refused += (unsigned)!got;
    }
    cr_assert_gt(found, 40000);
    cr_assert_gt(refused, 40000);
}

/* Grouping by warp is a stable counting sort: warp w's records land at
 * [starts[w], starts[w + 1]) in their trace order, lanes and timestamps with
 * them, and the spare's buffers serve the next CTA. */
Test(packed_record, group_by_warp_is_stable)
{
    for (uint64_t seed = 11; seed <= 13; seed++) {
        wst_memtrace *m = test_random_trace(seed, 1, 4000);
        const wst_record *records = m->per_kernel[0].records;
        size_t n = m->per_kernel[0].count;
        enum { WARPS = 16 };
        static wst_record local[4000];
        cr_assert_leq(n, 4000);
        uint32_t starts[WARPS + 1] = {0};
        for (size_t i = 0; i < n; i++) {
            local[i] = records[i];
            local[i].warp = (uint32_t)((records[i].pc * 7 + i) % WARPS);
            local[i].has_time = (i % 3) != 0;
            local[i].timestamp = local[i].has_time ? 1000 + i : 0;
            local[i].gap = (i % 5) == 0 ? (uint32_t)i : 0; /* timing moves along too */
            local[i].has_waits = (i % 7) == 0;
            local[i].waits = local[i].has_waits ? (uint32_t)i << 8 : 0;
            starts[local[i].warp + 1]++;
        }
        for (uint32_t w = 0; w < WARPS; w++)
            starts[w + 1] += starts[w];
        packed_cta p = {0}, spare = {0};
        ws_error err;
        for (int round = 0; round < 2; round++) {
            packed_cta_clear(&p);
            cr_assert_eq(packed_cta_append(&p, local, n, &err), 0, "%s", err.msg);
            cr_assert_eq(packed_cta_group_by_warp(&p, &spare, starts, WARPS, &err), 0, "%s",
                         err.msg);
            uint32_t next[WARPS];
            memcpy(next, starts, sizeof next);
            for (size_t i = 0; i < n; i++) {
                size_t at = next[local[i].warp]++;
                wst_record got;
                packed_cta_expand(&p, at, local[i].cta, &got);
                cr_assert(test_records_equal(&local[i], &got), "seed %llu record %zu",
                          (unsigned long long)seed, i);
                cr_assert_eq(packed_cta_timestamp(&p, at), local[i].timestamp);
            }
        }
        packed_cta_free(&p);
        packed_cta_free(&spare);
        wst_memtrace_free(m);
    }
}

/* Records are held in what a CTA needs (bench/RESULTS.md, "Branch
 * coal43"): 81 records reserved on an empty CTA take 82 slots (the one
 * past them a reader may touch), not 128; a later batch past them at
 * least doubles the room (164 slots for 80 more, 582 for 500), and the grouping's
 * spare and the timing beside the records are sized the same. */
Test(packed_record, records_are_sized_by_what_a_cta_needs)
{
    packed_cta p = {0}, spare = {0};
    ws_error err;
    cr_assert_eq(packed_cta_reserve(&p, 81, &err), 0);
    cr_assert_eq(p.capacity, 82);
    wst_record rec;
    memset(&rec, 0, sizeof rec);
    rec.kind = WST_LOAD;
    rec.size = 4;
    rec.mask = UINT32_MAX;
    rec.gap = 3; /* timed: the timing array follows the records' capacity */
    for (unsigned l = 0; l < WST_WARP_SIZE; l++)
        rec.addr[l] = 0x1000 + 4 * l;
    for (int i = 0; i < 81; i++)
        cr_assert_eq(packed_cta_append(&p, &rec, 1, &err), 0, "%s", err.msg);
    cr_assert_eq(p.capacity, 82);
    cr_assert_eq(p.timing_capacity, 82);
    cr_assert_eq(packed_cta_reserve(&p, 80, &err), 0);
    cr_assert_eq(p.capacity, 164);
    cr_assert_eq(packed_cta_reserve(&p, 500, &err), 0);
    cr_assert_eq(p.capacity, 81 + 500 + 1);
    uint32_t starts[2] = {0, 81};
    cr_assert_eq(packed_cta_group_by_warp(&p, &spare, starts, 1, &err), 0, "%s", err.msg);
    cr_assert_eq(spare.capacity, 582); /* p's old buffer; p has the spare's new one */
    cr_assert_eq(p.capacity, 82);
    cr_assert_eq(p.timing_capacity, 82);
    for (size_t i = 0; i < 81; i++)
        cr_assert_eq(packed_cta_timing(&p, i).gap, 3);
    packed_cta_free(&p);
    packed_cta_free(&spare);
}

/* Grouping records that came in warp order (how collectors write a CTA)
 * is the identity: cta_grouping_finish leaves them where they are and
 * never touches the spare.  Worked by hand: warps 0, 0, 1, 2 of three
 * warps give starts 0, 2, 3, 4 and the records in place; warps 0, 1 then,
 * in a second batch, 0 are out of order across the batches, and are
 * sorted through the spare to 0, 0, 1 (the third record second). */
Test(packed_record, records_in_warp_order_are_grouped_in_place)
{
    wst_record recs[4];
    memset(recs, 0, sizeof recs);
    for (unsigned i = 0; i < 4; i++) {
        recs[i].kind = WST_LOAD;
        recs[i].size = 4;
        recs[i].mask = 1;
        recs[i].pc = i;
        recs[i].addr[0] = 0x100 * (i + 1);
    }
    recs[1].warp = 0, recs[2].warp = 1, recs[3].warp = 2;
    packed_cta p = {0}, spare = {0};
    uint32_t starts[4] = {0};
    ws_error err;
    cta_grouping g = {.records = &p, .starts = starts, .warps = 3};
    cr_assert_eq(cta_grouping_take(&g, recs, 4, &err), 0, "%s", err.msg);
    cr_assert_eq(cta_grouping_finish(&g, &spare, &err), 0, "%s", err.msg);
    cr_assert(starts[0] == 0 && starts[1] == 2 && starts[2] == 3 && starts[3] == 4);
    cr_assert_null(spare.records);
    for (unsigned i = 0; i < 4; i++)
        cr_assert_eq(p.records[i].pc, i);

    packed_cta_clear(&p);
    memset(starts, 0, sizeof starts);
    recs[1].warp = 1, recs[2].warp = 0;
    g = (cta_grouping){.records = &p, .starts = starts, .warps = 2};
    cr_assert_eq(cta_grouping_take(&g, recs, 2, &err), 0, "%s", err.msg);
    cr_assert_eq(cta_grouping_take(&g, recs + 2, 1, &err), 0, "%s", err.msg);
    cr_assert_eq(cta_grouping_finish(&g, &spare, &err), 0, "%s", err.msg);
    cr_assert(starts[0] == 0 && starts[1] == 2 && starts[2] == 3);
    cr_assert_not_null(spare.records);
    cr_assert(p.records[0].pc == 0 && p.records[1].pc == 2 && p.records[2].pc == 1);
    packed_cta_free(&p);
    packed_cta_free(&spare);
}
