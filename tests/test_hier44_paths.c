/* tests/test_hier44_paths.c: the answers of the timed hierarchy's faster
 * steps (bench/RESULTS.md, "Branch hier44"), each worked by hand:
 *   - an L2's lazy-fetch write on 128 B lines (the line size a constant,
 *     cache_write_lazy) and on 64 B lines makes valid only the sectors its
 *     bytes, with those written before, cover whole (docs/metrics.md §7);
 *   - a write-evict's invalidation (its look-up inline, cache_invalidate)
 *     answers 0 for an absent line and leaves a hole the next fill takes;
 *   - when every MSHR is busy, a load waits for the soonest to free, which
 *     need not be the first by index (mshr_free's second pass, §12). */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/cache.h"
#include "analyzer/request.h"
#include "tests/timed_fixture.h"

static cache *lazy_l2(uint32_t line_bytes)
{
    ws_error err;
    cache_options o = {.sets = 4, .ways = 2, .line_bytes = line_bytes, .sector_bytes = 32,
                       .policy = policy_find("lru"), .track_written_bytes = 1};
    cache *c = cache_new(&o, &err);
    cr_assert_not_null(c, "%s", err.msg);
    return c;
}

/* Reads `sectors` of `line` (a read makes them valid); returns the result. */
static cache_result read_sectors(cache *c, uint64_t line, uint8_t sectors, uint64_t now)
{
    cache_req q = {.line = line, .sector_mask = sectors};
    cache_result r;
    cache_read(c, &q, 1, now, &r);
    return r;
}

/* 128 B lines, four sectors.  The first write covers bytes 0-95 but one
 * (byte 70): sectors 0 and 1 whole, 2 not, 3 untouched, so it allocates
 * the line with sectors 0 and 1 valid.  On line 9, a read of sector 2
 * finds the line and misses the sector.  On line 8, a read of sectors 0
 * and 1 hits; a second write of byte 70 alone completes sector 2 with the
 * bytes written before, so a read of sector 2 hits, and one of sector 3
 * (never written) misses. */
Test(hier44_paths, a_lazy_write_on_128_byte_lines_makes_whole_sectors_valid)
{
    cache *c = lazy_l2(128);
    uint64_t bytes[REQUEST_MASK_WORDS] = {~0ull, ~(1ull << 6) & 0xffffffffull};
    cache_result r;
    cache_write_lazy(c, &(cache_req){.line = 9, .sector_mask = 0x7}, bytes, 0, &r);
    cr_assert(r.allocated && !r.hit);
    cache_result b = read_sectors(c, 9, 0x4, 1);
    cr_assert(b.present && !b.hit && b.fetch_sectors == 0x4);
    cache_write_lazy(c, &(cache_req){.line = 8, .sector_mask = 0x7}, bytes, 2, &r);
    cr_assert(r.allocated && !r.hit);
    cache_result a = read_sectors(c, 8, 0x3, 3);
    cr_assert(a.hit && a.hit_sectors == 0x3);
    uint64_t rest[REQUEST_MASK_WORDS] = {0, 1ull << 6};
    cache_write_lazy(c, &(cache_req){.line = 8, .sector_mask = 0x4}, rest, 4, &r);
    cr_assert(r.present);
    cr_assert(read_sectors(c, 8, 0x4, 5).hit, "sector 2 whole with the first write's bytes");
    cache_result d = read_sectors(c, 8, 0x8, 6);
    cr_assert(!d.hit && d.fetch_sectors == 0x8, "sector 3 never written");
    cache_free(c);
}

/* 64 B lines, two sectors: bytes 0-31 whole and 32-62 (byte 63 left out)
 * make sector 0 valid, not sector 1. */
Test(hier44_paths, a_lazy_write_on_64_byte_lines_makes_whole_sectors_valid)
{
    cache *c = lazy_l2(64);
    uint64_t bytes[REQUEST_MASK_WORDS] = {~0ull >> 1};
    cache_result r;
    cache_write_lazy(c, &(cache_req){.line = 8, .sector_mask = 0x3}, bytes, 0, &r);
    cr_assert(r.allocated);
    cr_assert(read_sectors(c, 8, 0x1, 1).hit);
    cache_result b = read_sectors(c, 8, 0x2, 2);
    cr_assert(b.present && !b.hit && b.fetch_sectors == 0x2);
    cache_free(c);
}

/* Two ways a set (lines 8 and 12 share set 0 of 4).  An absent line's
 * invalidation answers 0 and changes nothing; a present one's answers 1,
 * and the next line of the set fills its way without evicting the other. */
Test(hier44_paths, an_invalidation_answers_whether_the_line_was_there)
{
    ws_error err;
    cache_options o = {.sets = 4, .ways = 2, .line_bytes = 128, .policy = policy_find("fifo")};
    cache *c = cache_new(&o, &err);
    cr_assert_not_null(c, "%s", err.msg);
    cache_result r;
    cache_read(c, &(cache_req){.line = 8}, 1, 0, &r);
    cache_read(c, &(cache_req){.line = 12}, 1, 1, &r);
    cr_assert_eq(cache_invalidate(c, 16), 0);
    cr_assert_eq(cache_valid_lines(c), 2);
    cr_assert_eq(cache_invalidate(c, 8), 1);
    cr_assert_eq(cache_find(c, 8), -1);
    cr_assert_eq(cache_invalidate(c, 8), 0, "gone");
    cache_read(c, &(cache_req){.line = 16}, 1, 2, &r);
    cr_assert(r.allocated && !r.evicted, "the hole taken, line 12 kept");
    cr_assert_geq(cache_find(c, 12), 0);
    cache_free(c);
}

/* Two MSHRs.  Warp 0 stores Y at 0 (L2 takes it).  Warp 1 loads X at 1:
 * L1 and L2 miss, MSHR 0, back from DRAM at 1 + 220 = 221.  Warp 2 loads Y
 * at 2: L1 miss, L2 hit, MSHR 1, back at 2 + 120 = 122.  Warp 3 loads Z at
 * 3: no MSHR is free, so it waits, holding the LD/ST unit, for the soonest
 * to free, MSHR 1 at 122 (not MSHR 0, the first by index, at 221), then
 * misses to DRAM: back at 122 + 220 = 342, when the kernel ends. */
Test(hier44_paths, a_load_waits_for_the_soonest_mshr_not_the_first)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {7}},
                  {.kernel = 0, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 2, .kind = WST_LOAD, .lanes = 1, .line = {7}},
                  {.kernel = 0, .warp = 3, .kind = WST_LOAD, .lanes = 1, .line = {3}}};
    wst_memtrace *m = timed_trace(recs, 4, 1, 4);
    gpu_config c = timed_tiny_gpu("fermi");
    timed_set(&c, "mshr.entries=2");
    seen order = {0};
    hierarchy *h = timed_run(m, &c, "rr,gto", NULL, &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.count, 4);
    cr_assert_eq(order.cycle[3], 3);
    cr_assert_eq(r->total.l1.reservation_fails, 1);
    cr_assert_eq(timed_kernel_cycles(h, 0), 2 + TIMED_L2 + TIMED_DRAM);
    const latency_counts *l = &r->total.latency;
    cr_assert_eq(l->requests[SERVED_DRAM], 2);
    cr_assert_eq(l->cycles[SERVED_DRAM], TIMED_DRAM + (2 + TIMED_L2 + TIMED_DRAM - 3));
    cr_assert_eq(l->cycles[SERVED_L2], TIMED_L2);
    hierarchy_free(h);
    wst_memtrace_free(m);
}
