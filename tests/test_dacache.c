/* tests/test_dacache.c: DaCache (S4 §4, docs/metrics.md §9) on S4's known answers:
 * gauged insertion, the partition, the FCW rules of S4 Fig. 7 step by
 * step, constrained replacement with bypass and with stall, promotion by
 * G = 4, and the locality detector. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/cache.h"
#include "analyzer/policies/dacache.h"

Test(dacache, gauged_insertion_of_s4)
{
    /* S4 §4.2: 2 schedulers, 32 lanes, 32 sets: priorities 0 and 2 insert
     * at ways 0 and 4. */
    cr_expect_eq(dacache_gauged_way(0, 2, 32, 8), 0);
    cr_expect_eq(dacache_gauged_way(1, 2, 32, 8), 2);
    cr_expect_eq(dacache_gauged_way(2, 2, 32, 8), 4);
    cr_expect_eq(dacache_gauged_way(9, 2, 32, 8), 7, "clamped at the LRU way");
    cr_expect_eq(dacache_gauged_way(1, 2, 64, 8), 1, "64 sets halve the spread");
}

Test(dacache, partition_p)
{
    /* p = FCW x 32 / sets - 1: FCW 4 on 32 sets gives the locality region
     * ways 0..3, two warps per scheduler (S4 §4.4). */
    cr_expect_eq(dacache_partition(4, 32, 8), 3);
    cr_expect_eq(dacache_partition(2, 32, 8), 1);
    cr_expect_eq(dacache_partition(0, 32, 8), -1, "Static0: no locality region");
    cr_expect_eq(dacache_partition(48, 32, 8), 6, "a thrashing region always remains");
    /* Locality warps: gauged way <= p. */
    cr_expect_leq((int32_t)dacache_gauged_way(1, 2, 32, 8), dacache_partition(4, 32, 8));
    cr_expect_gt((int32_t)dacache_gauged_way(2, 2, 32, 8), dacache_partition(4, 32, 8));
}

Test(dacache, fcw_rules_of_s4_fig7_step_by_step)
{
    dacache_fcw f = dacache_fcw_start();
    cr_assert_eq(f.fcw, 4);
    cr_assert_eq(f.cnt, 128);
    /* (1)+(2): 128 fully cached divergent loads saturate CNT: FCW + 1, CNT = Cmax / 2. */
    for (int i = 0; i < 127; i++)
        dacache_fcw_update(&f, 1, 1, 0);
    cr_expect_eq(f.fcw, 4);
    cr_expect_eq(f.cnt, 255);
    dacache_fcw_update(&f, 1, 1, 0);
    cr_expect_eq(f.fcw, 5);
    cr_expect_eq(f.cnt, 128);
    /* (3): a thrashing warp's partially cached load: CNT - 1. */
    dacache_fcw_update(&f, 0, 0, 4);
    cr_expect_eq(f.cnt, 127);
    /* (5): a locality warp's: CNT - (FCW - prio). */
    dacache_fcw_update(&f, 0, 1, 0);
    cr_expect_eq(f.cnt, 122);
    dacache_fcw_update(&f, 0, 1, 3);
    cr_expect_eq(f.cnt, 120);
    /* (6): CNT reaches 0: FCW - 1, CNT = Cmax / 2. */
    while (f.fcw == 5)
        dacache_fcw_update(&f, 0, 0, 4);
    cr_expect_eq(f.fcw, 4);
    cr_expect_eq(f.cnt, 128);
    cr_expect_eq(f.increases, 1);
    cr_expect_eq(f.decreases, 1);
    /* (7): at the bounds CNT saturates without moving FCW. */
    f = (dacache_fcw){.fcw = DACACHE_WMAX, .cnt = 255};
    dacache_fcw_update(&f, 1, 1, 0);
    dacache_fcw_update(&f, 1, 1, 0);
    cr_expect_eq(f.fcw, DACACHE_WMAX);
    cr_expect_eq(f.cnt, 256);
    f = (dacache_fcw){.fcw = 1, .cnt = 1};
    dacache_fcw_update(&f, 0, 0, 3);
    dacache_fcw_update(&f, 0, 0, 3);
    cr_expect_eq(f.fcw, 1, "at least one locality warp");
    cr_expect_eq(f.cnt, 0);
}

/* A DaCache L1 of `sets` sets × 8 ways on a 2-scheduler SM. */
static cache *dacache_l1(const char *variant, uint32_t sets, int pending)
{
    ws_error err;
    cache_options o = {.sets = sets, .ways = 8, .line_bytes = 128, .policy = policy_find(variant),
                       .policy_geometry = {.schedulers = 2}, .track_pending = pending};
    cr_assert_not_null(o.policy, "%s", variant);
    cache *c = cache_new(&o, &err);
    cr_assert_not_null(c, "%s", err.msg);
    return c;
}

/* A load of one request (coherent, Req 1) or of `req` requests. */
static cache_result access(cache *c, uint64_t line, uint32_t warp, uint32_t prio, uint8_t req,
                           uint64_t now)
{
    cache_req q = {.line = line, .warp = warp, .age_rank = prio, .req_count = req,
                   .coherent = req <= 2, .pc = req <= 2 ? 1 : 2};
    cache_result r;
    cache_read(c, &q, 1, now, &r);
    return r;
}

/* Fills set 0 (of 32) with lines 0, 32, ..., 224 by coherent loads of a
 * PC without locality: each goes to the LRU end, so line 32k sits at
 * position k and line 224 is the LRU line. */
static void fill_set0(cache *c)
{
    for (uint64_t k = 0; k < 8; k++)
        access(c, 32 * k, 100 + (uint32_t)k, 5, 1, 0);
}

/* Whether the line is in the cache: its slot, or -1 (without a lookup,
 * which would promote it). */
static int64_t position_of(cache *c, uint64_t line)
{
    return cache_contains(c, line) ? 0 : -1;
}

Test(dacache, insertion_positions)
{
    cache *c = dacache_l1("dacache-uncon", 32, 0);
    fill_set0(c);
    /* A divergent load (Req 8) of the oldest warp inserts at way 0 (MRU):
     * the next miss evicts the LRU end, line 224 then 192, never it. */
    access(c, 256, 1, 0, 8, 0);
    cr_expect_eq(position_of(c, 224), -1, "the LRU line made room");
    for (uint64_t k = 0; k < 6; k++)
        access(c, 288 + 32 * k, 200, 5, 1, 0);
    cr_expect_geq(position_of(c, 256), 0, "MRU insertion survived six LRU fills");
    cache_free(c);
}

Test(dacache, thrashing_warps_divergent_loads_insert_at_lru)
{
    cache *c = dacache_l1("dacache-uncon", 32, 0);
    fill_set0(c);
    /* Priority 2 gauges way 4 > p = 3: a thrashing warp, inserted at LRU, so
     * the very next miss evicts it. */
    access(c, 256, 1, 2, 8, 0);
    cr_expect_geq(position_of(c, 256), 0);
    access(c, 288, 200, 5, 1, 0);
    cr_expect_eq(position_of(c, 256), -1, "evicted first");
    cache_free(c);
}

/* A thrashing warp's small divergent load (Req 4, at most 5) goes to LRU
 * too (docs/metrics.md §9): only a locality warp's goes to MRU. */
Test(dacache, thrashing_warps_small_divergent_loads_insert_at_lru)
{
    cache *c = dacache_l1("dacache-uncon", 32, 0);
    fill_set0(c);
    access(c, 256, 1, 2, 4, 0); /* priority 2: a thrashing warp */
    access(c, 288, 200, 5, 1, 0);
    cr_expect_eq(position_of(c, 256), -1, "evicted first: it was at LRU");
    cache_free(c);
    c = dacache_l1("dacache-uncon", 32, 0);
    fill_set0(c);
    access(c, 256, 1, 0, 4, 0); /* the oldest warp: a locality warp, MRU */
    for (uint64_t k = 0; k < 6; k++)
        access(c, 288 + 32 * k, 200, 5, 1, 0);
    cr_expect_geq(position_of(c, 256), 0, "MRU insertion survived six LRU fills");
    cache_free(c);
}

Test(dacache, constrained_replacement_bypasses_or_stalls)
{
    /* One set: p is capped at 6, so only position 7 (the LRU line) is in
     * the thrashing region.  Reserve it: dacache bypasses, dacache-stall
     * waits for it, dacache-uncon takes the next line up. */
    const char *variants[] = {"dacache", "dacache-stall", "dacache-uncon"};
    for (int v = 0; v < 3; v++) {
        cache *c = dacache_l1(variants[v], 1, 1);
        cache_result r;
        for (uint64_t k = 0; k < 8; k++)
            r = access(c, k, 100 + (uint32_t)k, 5, 1, 0);
        cache_set_ready(c, r.slot, 100); /* line 7, at the LRU end, is reserved */
        r = access(c, 50, 1, 0, 1, 10);
        if (v == 0) {
            cr_expect(!r.allocated && r.bypassed, "dacache bypasses");
        } else if (v == 1) {
            cr_expect(r.allocated && r.stalled && r.stall_until == 100, "dacache-stall waits");
            cr_expect_eq(r.victim_line, 7);
        } else {
            cr_expect(r.allocated && !r.stalled);
            cr_expect_eq(r.victim_line, 6, "uncon: the replaceable line nearest LRU");
        }
        policy_stat stats[POLICY_MAX_STATS];
        uint32_t n = 0;
        cache_add_policy_stats(c, stats, &n);
        for (uint32_t i = 0; i < n; i++) {
            if (strcmp(stats[i].name, "constrained_bypasses") == 0 ||
                strcmp(stats[i].name, "stalls") == 0)
                cr_expect_eq(stats[i].value, 1, "%s %s", variants[v], stats[i].name);
            if (strcmp(stats[i].name, "stall_steps") == 0)
                cr_expect_eq(stats[i].value, 90);
        }
        cache_free(c);
    }
}

Test(dacache, promotion_by_four_positions)
{
    /* One set, lines 0..7 at positions 0..7.  A hit on line 7 moves it to
     * position 3, pushing 3..6 down: then four misses inserting at MRU
     * (small divergent loads of the oldest warp, a locality warp) evict 6,
     * 5, 4, 3, and line 7 survives them. */
    cache *c = dacache_l1("dacache-uncon", 1, 0);
    for (uint64_t k = 0; k < 8; k++)
        access(c, k, 100, 5, 1, 0);
    access(c, 7, 100, 5, 1, 0);
    uint64_t expected[4] = {6, 5, 4, 3};
    for (int i = 0; i < 4; i++) {
        cache_result r = access(c, 20 + (uint64_t)i, 100, 0, 4, 0);
        cr_expect_eq(r.victim_line, expected[i], "miss %d evicted %llu", i,
                     (unsigned long long)r.victim_line);
    }
    cr_expect_geq(position_of(c, 7), 0);
    cache_free(c);
}

Test(dacache, locality_detector_marks_a_coherent_pc)
{
    /* The oldest warp (3, age rank 0) loads line 0 with a coherent load; the
     * line is evicted, then misses again: the victim tag cache knows warp 3
     * filled it, so PC 1 has intra-warp locality and its lines now insert
     * at MRU.  (Only the age-rank-0 warp is sampled, S4 §4.2.) */
    cache *c = dacache_l1("dacache-uncon", 1, 0);
    access(c, 0, 3, 0, 1, 0);
    for (uint64_t k = 1; k < 9; k++) /* eight lines inserted at MRU push 0 out */
        access(c, k, 100, 0, 4, 0);
    cr_assert_eq(position_of(c, 0), -1);
    access(c, 0, 3, 0, 1, 0); /* the detector's hit: MRU from now on */
    access(c, 30, 100, 0, 4, 0);
    cr_expect_geq(position_of(c, 0), 0, "inserted at MRU, not evicted by the next miss");
    policy_stat stats[POLICY_MAX_STATS];
    uint32_t n = 0;
    cache_add_policy_stats(c, stats, &n);
    cr_assert_gt(n, 0);
    cr_expect_str_eq(stats[0].name, "locality_pcs");
    cr_expect_eq(stats[0].value, 1);
    cache_free(c);
}

Test(dacache, the_detector_samples_only_the_oldest_warp)
{
    /* The same, but warp 3 has age rank 1: its line is not sampled, the PC
     * is not marked, and line 0 goes back in at LRU. */
    cache *c = dacache_l1("dacache-uncon", 1, 0);
    access(c, 0, 3, 1, 1, 0);
    for (uint64_t k = 1; k < 9; k++)
        access(c, k, 100, 0, 4, 0);
    access(c, 0, 3, 1, 1, 0);
    access(c, 30, 100, 0, 4, 0);
    cr_expect_eq(position_of(c, 0), -1, "inserted at LRU and evicted by the next miss");
    cache_free(c);
}
