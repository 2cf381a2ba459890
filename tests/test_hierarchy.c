/* tests/test_hierarchy.c: the L1/L2/DRAM rules, MPLI, miss classes and μRC
 * on constructed loads (docs/metrics.md §5, §7, §8). */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/hierarchy.h"
#include "formats/trace.h"

static hierarchy *make(const char *l1, const char *l2, uint32_t sms, int l2_sector)
{
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = sms;
    if (l1)
        cr_assert_eq(config_override(&o.config, "--l1", l1, &err), 0, "%s", err.msg);
    if (l2)
        cr_assert_eq(config_override(&o.config, "--l2", l2, &err), 0, "%s", err.msg);
    o.config.l2.sector_bytes = l2_sector ? 32 : 0;
    hierarchy *h = hierarchy_new(&o, 1, &err);
    cr_assert_not_null(h, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 4, &err), 0);
    return h;
}

/* One warp instruction touching the given line numbers (sector 0 of each
 * unless `sectors` says otherwise). */
static void issue(hierarchy *h, uint32_t sm, uint32_t warp, wst_kind kind, wst_cache_op op,
                  const uint64_t *lines, int n, uint8_t sectors)
{
    ws_request rq[64];
    for (int i = 0; i < n; i++)
        rq[i] = (ws_request){.line_addr = lines[i] * 128, .sector_mask = sectors,
                             .req_count = (uint8_t)n, .index = (uint8_t)i};
    replay_issue is = {.sm = sm, .warp = warp, .warp_slot = warp, .kind = (uint8_t)kind,
                       .space = WST_GLOBAL, .cache_op = (uint8_t)op};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, rq, n, &err), 0, "%s", err.msg);
}

static void load(hierarchy *h, uint32_t sm, uint32_t warp, const uint64_t *lines, int n)
{
    issue(h, sm, warp, WST_LOAD, WST_OP_DEFAULT, lines, n, 0x1);
}

static const replay_results *finish(hierarchy *h)
{
    ws_error err;
    cr_assert_eq(hierarchy_finish(h, &err), 0, "%s", err.msg);
    return hierarchy_results(h);
}

Test(hierarchy, divergent_load_that_half_hits)
{
    hierarchy *h = make(NULL, NULL, 1, 0);
    uint64_t lines[32];
    for (int i = 0; i < 32; i++)
        lines[i] = (uint64_t)i;
    load(h, 0, 0, lines, 16);       /* 16 requests, all miss */
    load(h, 0, 0, lines, 32);       /* 32 requests: 16 hit, 16 miss */
    load(h, 0, 0, lines, 1);        /* coherent, hits */
    const mpli_counts *m = &finish(h)->total.mpli;
    cr_expect_eq(m->loads, 3);
    cr_expect_eq(m->divergent[mpli_bucket(16)], 2, "both divergent loads have 16 misses (3-31)");
    cr_expect_eq(m->coherent[0], 1);
    cr_expect_eq(m->fully_missed, 1);
    cr_expect_eq(m->partially_cached, 1);
    cr_expect_eq(m->fully_cached, 1);
    cr_expect_eq(m->misses, 32);
    hierarchy_free(h);
}

Test(hierarchy, stores_write_evict_and_write_back_at_l2)
{
    hierarchy *h = make(NULL, NULL, 1, 0);
    uint64_t a = 7;
    load(h, 0, 0, &a, 1);
    issue(h, 0, 0, WST_STORE, WST_OP_DEFAULT, &a, 1, 0x1);
    load(h, 0, 0, &a, 1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.write_evicts, 1);
    cr_expect_eq(r->total.l1.misses, 2);
    cr_expect_eq(r->total.miss_classes.by_class[MISS_COLD], 1);
    cr_expect_eq(r->total.miss_classes.by_class[MISS_WRITE_EVICT], 1);
    cr_expect_eq(r->total.traffic.l1_to_l2_write_bytes, 32, "one 32 B sector written through");
    cr_expect_eq(r->total.traffic.dram_read_bytes, 128, "one L2 read miss of a whole line");
    cr_expect_eq(r->total.traffic.dram_write_bytes, 128, "the dirty L2 line is written back");
    hierarchy_free(h);
}

Test(hierarchy, cg_loads_bypass_l1_in_sectors)
{
    hierarchy *h = make(NULL, NULL, 1, 0);
    uint64_t a = 9;
    issue(h, 0, 0, WST_LOAD, WST_OP_CG, &a, 1, 0x3);
    load(h, 0, 0, &a, 1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.bypasses, 1);
    cr_expect_eq(r->total.l1.misses, 2, "the cg load did not allocate");
    cr_expect_eq(r->total.traffic.l1_to_l2_read_bytes, 64 + 128, "two sectors, then a line");
    cr_expect_eq(r->total.mpli.fully_missed, 2, "a bypassed request counts as a miss");
    hierarchy_free(h);
}

Test(hierarchy, sector_granularity_dram_bytes)
{
    hierarchy *h = make("16K:4:128:32", NULL, 1, 1);
    uint64_t a = 3;
    load(h, 0, 0, &a, 1);                                  /* sector 0 */
    issue(h, 0, 0, WST_LOAD, WST_OP_DEFAULT, &a, 1, 0x6);  /* sectors 1, 2: a sector miss */
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.sector_misses, 1);
    cr_expect_eq(r->total.traffic.l1_to_l2_read_bytes, 32 + 64);
    cr_expect_eq(r->total.traffic.dram_read_bytes, 32 + 64, "sectored L2 fetches sectors");
    hierarchy_free(h);
}

/* An L2 under `lazy-fetch` (docs/metrics.md §7) keeps a sector that
 * stores wrote in part unreadable: the next read of it misses and fetches
 * it from DRAM; one written whole (by one store or several), or fetched
 * since, hits.  Under the
 * default `allocate` both reads hit.  SM 0 stores, SMs 1-3 read (sectored
 * L1s, so each read asks for sector 0 only). */
static void store_bytes(hierarchy *h, uint64_t line, uint64_t bytes_mask)
{
    ws_request rq = {.line_addr = line * 128, .sector_mask = 0x1, .req_count = 1,
                     .byte_mask = {bytes_mask}};
    replay_issue is = {.sm = 0, .kind = WST_STORE, .space = WST_GLOBAL};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0, "%s", err.msg);
}

static uint64_t dram_reads_after_partial_store(write_policy l2_write, uint64_t bytes_mask,
                                               uint64_t second_store_mask)
{
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 4;
    cr_assert_eq(config_override(&o.config, "--l1", "16K:4:128:32", &err), 0, "%s", err.msg);
    o.config.l2.sector_bytes = 32;
    o.config.l2.write = l2_write;
    hierarchy *h = hierarchy_new(&o, 1, &err);
    cr_assert_not_null(h, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 4, &err), 0);
    uint64_t a = 5;
    store_bytes(h, a, bytes_mask);
    if (second_store_mask)
        store_bytes(h, a, second_store_mask);
    load(h, 1, 0, &a, 1);
    load(h, 2, 0, &a, 1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l2.accesses, second_store_mask ? 4u : 3u);
    uint64_t reads = r->total.traffic.dram_read_bytes;
    /* The second read hits in every case; a second store hits the sector
     * the first dirtied (a write to a modified sector is a hit). */
    cr_expect_eq(r->total.l2.hits, (reads ? 1u : 2u) + (second_store_mask ? 1u : 0u));
    hierarchy_free(h);
    return reads;
}

Test(hierarchy, lazy_fetch_l2_fetches_a_partly_written_sector)
{
    uint64_t four_bytes = 0xf, whole_sector = 0xffffffffu, low_half = 0xffff, high_half = 0xffff0000u;
    cr_expect_eq(dram_reads_after_partial_store(WRITE_ALLOCATE, four_bytes, 0), 0);
    cr_expect_eq(dram_reads_after_partial_store(WRITE_LAZY_FETCH, four_bytes, 0), 32,
                 "the partly written sector is read from DRAM");
    cr_expect_eq(dram_reads_after_partial_store(WRITE_LAZY_FETCH, whole_sector, 0), 0);
    cr_expect_eq(dram_reads_after_partial_store(WRITE_LAZY_FETCH, low_half, high_half), 0,
                 "two stores that write the sector whole between them make it readable");
    cr_expect_eq(dram_reads_after_partial_store(WRITE_LAZY_FETCH, low_half, low_half), 32);
}

Test(hierarchy, intra_and_inter_warp_conflicts)
{
    hierarchy *h = make("256:2:128", NULL, 1, 0); /* one set of 2 ways */
    uint64_t a = 1, b = 2, c = 3;
    load(h, 0, 0, &a, 1);
    load(h, 0, 0, &b, 1);
    load(h, 0, 0, &c, 1); /* warp 0 evicts a */
    load(h, 0, 0, &a, 1); /* intra-warp conflict (evicts b, by warp 0) */
    load(h, 0, 1, &b, 1); /* warp 1 misses on b, evicted by warp 0: inter-warp */
    const replay_results *r = finish(h);
    const miss_counts *m = &r->total.miss_classes;
    cr_expect_eq(m->by_class[MISS_COLD], 3);
    cr_expect_eq(m->by_class[MISS_INTRA_WARP], 1);
    cr_expect_eq(m->by_class[MISS_INTER_WARP], 1);
    cr_expect_eq(m->capacity, 2, "a 2-line fully-associative LRU misses them too");
    hierarchy_free(h);
}

Test(hierarchy, conflict_misses_of_the_3c_split)
{
    /* 2 sets × 1 way: lines 0 and 2 share a set, so 0,2,0 conflicts though
     * a 2-line fully-associative cache would hit. */
    hierarchy *h = make("256:1:128", NULL, 1, 0);
    uint64_t x = 0, y = 2;
    load(h, 0, 0, &x, 1);
    load(h, 0, 0, &y, 1);
    load(h, 0, 0, &x, 1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.miss_classes.conflict, 1);
    cr_expect_eq(r->total.miss_classes.capacity, 0);
    hierarchy_free(h);
}

Test(hierarchy, urc_and_remote_holders)
{
    hierarchy *h = make(NULL, NULL, 2, 0);
    uint64_t a = 5;
    load(h, 0, 0, &a, 1); /* cold, nobody holds it */
    load(h, 1, 1, &a, 1); /* SM 1 misses; SM 0 holds it */
    load(h, 1, 1, &a, 1); /* hit */
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1_load_misses, 2);
    cr_expect_eq(r->total.remote_held_misses, 1);
    cr_expect_eq(r->remote_holders[1 * 2 + 0], 1, "SM 1's miss found in SM 0");
    cr_expect_eq(r->remote_holders[0 * 2 + 1], 0);
    cr_expect_eq(r->kernels[0].end_copies, 2, "two copies of one line");
    cr_expect_eq(r->kernels[0].end_lines, 1);
    hierarchy_free(h);
}

Test(hierarchy, a_sector_miss_does_not_count_its_own_copy)
{
    hierarchy *h = make("16384:4:128:32", NULL, 3, 0); /* sectored L1s */
    uint64_t a = 5;
    issue(h, 1, 1, WST_LOAD, WST_OP_DEFAULT, &a, 1, 0x1); /* cold in SM 1 */
    issue(h, 1, 1, WST_LOAD, WST_OP_DEFAULT, &a, 1, 0x2); /* sector miss, only SM 1 holds it */
    issue(h, 2, 2, WST_LOAD, WST_OP_DEFAULT, &a, 1, 0x1); /* SM 2 misses; SM 1 holds it */
    issue(h, 2, 2, WST_LOAD, WST_OP_DEFAULT, &a, 1, 0x4); /* sector miss; SM 1 holds it */
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1_load_misses, 4);
    cr_expect_eq(r->total.remote_held_misses, 2, "the two misses of SM 2");
    cr_expect_eq(r->remote_holders[2 * 3 + 1], 2);
    cr_expect_eq(r->remote_holders[1 * 3 + 1] + r->remote_holders[2 * 3 + 2], 0,
                 "an SM's own copy is not a remote holder");
    cr_expect_eq(r->kernels[0].end_copies, 2);
    hierarchy_free(h);
}

Test(hierarchy, per_hit_intra_and_inter_warp_shares)
{
    hierarchy *h = make(NULL, NULL, 1, 0);
    uint64_t a = 4;
    load(h, 0, 0, &a, 1);
    load(h, 0, 0, &a, 1); /* same warp */
    load(h, 0, 3, &a, 1); /* another warp */
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.intra_warp_hits, 1);
    cr_expect_eq(r->total.inter_warp_hits, 1);
    cr_expect_eq(r->kernels[0].pcs[0].hits, 2);
    hierarchy_free(h);
}

Test(hierarchy, unknown_policy_and_missing_table_are_errors)
{
    hierarchy_options o = {0};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    snprintf(o.config.l1.policy, sizeof o.config.l1.policy, "nope");
    cr_expect_null(hierarchy_new(&o, 1, &err));
    cr_expect(strstr(err.msg, "nope") != NULL, "%s", err.msg);
}

static hierarchy *make_opts(hierarchy_options *o, uint32_t kernels)
{
    ws_error err;
    hierarchy *h = hierarchy_new(o, kernels, &err);
    cr_assert_not_null(h, "%s", err.msg);
    return h;
}

static void issue_at(hierarchy *h, uint32_t sm, uint32_t warp, uint64_t step, uint64_t line)
{
    ws_request rq = {.line_addr = line * 128, .sector_mask = 1, .req_count = 1};
    replay_issue is = {.sm = sm, .warp = warp, .step = step, .kind = WST_LOAD, .space = WST_GLOBAL};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0, "%s", err.msg);
}

/* The same loads with and without the locality generations: every other
 * figure agrees, and only the kept ones have per-PC locality. */
static hierarchy *spread_loads(hierarchy_options *o)
{
    cr_assert_eq(config_override(&o->config, "--l1", "512:2:128", &(ws_error){0}), 0);
    hierarchy *h = make_opts(o, 1);
    ws_error err;
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 4, &err), 0);
    for (uint64_t i = 0; i < 400; i++) {
        uint64_t line = (i * 7919) % 23;
        load(h, (uint32_t)(i % 3), (uint32_t)(i % 5), &line, 1);
    }
    finish(h);
    return h;
}

Test(hierarchy, without_generations_the_other_figures_agree)
{
    hierarchy_options with = {.seed = 1}, without = {.seed = 1, .collect = COLLECT_TOTALS};
    ws_error err;
    cr_assert_eq(config_load(&with.config, "fermi", &err), 0);
    with.config.sms = 3;
    without.config = with.config;
    hierarchy *ha = spread_loads(&with), *hb = spread_loads(&without);
    const replay_results *a = hierarchy_results(ha), *b = hierarchy_results(hb);
    cr_assert_not_null(a->kernels[0].locality);
    cr_expect_null(b->kernels[0].locality);
    cr_expect_gt(a->total.miss_classes.by_class[MISS_INTER_WARP], 0);
    cr_expect_eq(memcmp(&a->total.miss_classes, &b->total.miss_classes, sizeof a->total.miss_classes), 0);
    cr_expect_eq(a->total.l1.hits, b->total.l1.hits);
    cr_expect_eq(a->total.l1_load_misses, b->total.l1_load_misses);
    cr_expect_gt(a->total.remote_held_misses, 0);
    cr_expect_eq(a->total.remote_held_misses, b->total.remote_held_misses);
    cr_expect_eq(memcmp(a->remote_holders, b->remote_holders, 9 * sizeof *a->remote_holders), 0);
    cr_expect_eq(a->replication_sum, b->replication_sum);
    hierarchy_free(ha);
    hierarchy_free(hb);
}

/* The timed replay (docs/metrics.md §12) with one MSHR of one merge.  A
 * request that finds no MSHR or merge slot stalls until one frees: it is
 * never a bypass with a miss class, and a merge past the cap, served once
 * the line is in, is a hit, not a cold miss.  Fermi: DRAM 220 cycles. */
Test(hierarchy, timed_mshrs_merge_and_stall_when_full)
{
    hierarchy_options o = {.seed = 1, .timed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 1;
    o.config.mshr_entries = 1;
    o.config.mshr_merges = 1;
    hierarchy *h = make_opts(&o, 1);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 1, &err), 0);
    issue_at(h, 0, 0, 0, 1);    /* miss: in flight until 220 */
    issue_at(h, 0, 1, 1, 1);    /* merges into its MSHR: a pending hit */
    issue_at(h, 0, 2, 2, 1);    /* no merge slot: waits until 220, then hits */
    issue_at(h, 0, 0, 3, 2);    /* the LD/ST unit takes it at 221; the MSHR is free */
    issue_at(h, 0, 0, 4, 3);    /* no MSHR until 441: waits, then misses */
    issue_at(h, 0, 0, 1000, 3); /* a plain hit */
    cr_assert_eq(hierarchy_finish(h, &err), 0);
    const replay_results *r = hierarchy_results(h);
    const level_counts *l1 = &r->total.l1;
    cr_expect_eq(l1->pending_hits, 1);
    cr_expect_eq(l1->reservation_fails, 2);
    cr_expect_eq(l1->hits, 2);
    cr_expect_eq(l1->misses, 3);
    cr_expect_eq(l1->bypasses, 0, "a stall is never a bypass");
    cr_expect_eq(l1->accesses, l1->hits + l1->pending_hits + l1->misses);
    cr_expect_eq(r->total.miss_classes.by_class[MISS_COLD], 3);
    cr_expect_eq(r->sm_hits[0], l1->hits, "per SM as in the totals");
    cr_expect_eq(r->total.latency.cycles[SERVED_DRAM], 220 + (441 - 3) + (441 + 220 - 4));
    hierarchy_free(h);
}

static uint64_t second_kernel_l2_hits(int l2_cold)
{
    hierarchy_options o = {.seed = 1, .l2_cold = l2_cold};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 1;
    hierarchy *h = make_opts(&o, 2);
    for (uint32_t k = 0; k < 2; k++) {
        cr_assert_eq(hierarchy_kernel_begin(h, k, 1, &err), 0);
        ws_request rq = {.line_addr = 42 * 128, .sector_mask = 1, .req_count = 1};
        replay_issue is = {.kernel = k, .kind = WST_LOAD, .space = WST_GLOBAL};
        cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0);
        cr_assert_eq(hierarchy_kernel_end(h, &err), 0);
    }
    cr_assert_eq(hierarchy_finish(h, &err), 0);
    const replay_results *r = hierarchy_results(h);
    cr_expect_eq(r->kernels[1].counts.l1.misses, 1, "L1s are flushed between kernels");
    uint64_t hits = r->kernels[1].counts.l2.hits;
    hierarchy_free(h);
    return hits;
}

Test(hierarchy, l2_stays_warm_across_kernels_unless_cold)
{
    cr_expect_eq(second_kernel_l2_hits(0), 1);
    cr_expect_eq(second_kernel_l2_hits(1), 0);
}

Test(hierarchy, remote_holders_share_the_urc_denominator)
{
    /* docs/metrics.md §5: CTAs on SMs 0 and 1 both load line A, then SM 1 makes one
     * cg load of line B.  The cg load never looked L1 up: it is no μRC
     * candidate, so SM 1's row is 1 of 1, and μRC = 1 of 2. */
    hierarchy *h = make(NULL, NULL, 2, 0);
    uint64_t a = 5, b = 6;
    load(h, 0, 0, &a, 1);
    load(h, 1, 1, &a, 1);
    issue(h, 1, 1, WST_LOAD, WST_OP_CG, &b, 1, 0x1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1_load_misses, 2);
    cr_expect_eq(r->total.remote_held_misses, 1);
    cr_expect_eq(r->sm_load_misses[1], 1, "the cg load is a bypass, not a candidate");
    cr_expect_eq(r->sm_misses[1], 2, "it is still an L1 miss");
    cr_expect_eq(r->remote_holders[1 * 2 + 0], 1);
    hierarchy_free(h);
}

Test(hierarchy, cv_loads_bypass_l1_like_cg)
{
    /* docs/metrics.md §7: one warp loads a line twice with LDG.E.STRONG.SYS (cv):
     * two bypassed misses, nothing allocated. */
    hierarchy *h = make(NULL, NULL, 1, 0);
    uint64_t a = 11;
    issue(h, 0, 0, WST_LOAD, WST_OP_CV, &a, 1, 0x1);
    issue(h, 0, 0, WST_LOAD, WST_OP_CV, &a, 1, 0x1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.misses, 2);
    cr_expect_eq(r->total.l1.hits, 0);
    cr_expect_eq(r->total.l1.bypasses, 2);
    cr_expect_eq(r->total.miss_classes.by_class[MISS_COLD], 0, "bypasses get no miss class");
    hierarchy_free(h);
}

Test(hierarchy, replication_of_empty_l1s_is_undefined)
{
    /* One warp loads line C, then stores to it: the L1s end empty, so the
     * kernel's replication factor has no denominator (docs/metrics.md §5: null). */
    hierarchy *h = make(NULL, NULL, 1, 0);
    uint64_t c = 12;
    load(h, 0, 0, &c, 1);
    issue(h, 0, 0, WST_STORE, WST_OP_DEFAULT, &c, 1, 0x1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->kernels[0].end_lines, 0);
    cr_expect_eq(r->kernels[0].end_copies, 0);
    cr_expect_eq(r->replication_samples, 1, "defined after the load, not after the store");
    cr_expect_float_eq(r->replication_sum, 1.0, 1e-12);
    hierarchy_free(h);
}

Test(hierarchy, write_evict_misses_are_outside_the_3c_split)
{
    /* docs/metrics.md §8: a line invalidated by a store misses as write-evict, neither
     * capacity nor conflict. */
    hierarchy *h = make(NULL, NULL, 1, 0);
    uint64_t a = 7;
    for (int i = 0; i < 3; i++) {
        load(h, 0, 0, &a, 1);
        issue(h, 0, 0, WST_STORE, WST_OP_DEFAULT, &a, 1, 0x1);
    }
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.miss_classes.by_class[MISS_WRITE_EVICT], 2);
    cr_expect_eq(r->total.miss_classes.capacity, 0);
    cr_expect_eq(r->total.miss_classes.conflict, 0);
    hierarchy_free(h);
}

/* ---- extension points: stages and subscribed collectors (hierarchy.h) ---- */

typedef struct stage_log {
    int routed, filtered, merged;
    uint8_t hint;
    uint64_t last_victim;
    int events[8]; /* lookup, hit, miss, fill, depart, store, instruction, kernel */
} stage_log;

static int serve_everything(void *ctx, const replay_issue *is, l1_miss *miss)
{
    (void)is;
    stage_log *l = ctx;
    l->routed++;
    miss->fill_hint = 7;
    return 1;
}

static int keep_out(void *ctx, const replay_issue *is, uint64_t line, uint8_t hint, uint64_t victim,
                    uint8_t victim_flags)
{
    (void)is, (void)line, (void)victim_flags;
    stage_log *l = ctx;
    l->filtered++;
    l->hint = hint;
    l->last_victim = victim;
    return 0;
}

static int keep_first_request(void *ctx, const replay_issue *is, ws_request *rq, int n,
                              uint8_t *bypass_l1, ws_error *err)
{
    (void)is, (void)rq, (void)err, (void)bypass_l1;
    ((stage_log *)ctx)->merged += n - 1;
    return n ? 1 : 0;
}

static int send_around_l1(void *ctx, const replay_issue *is, ws_request *rq, int n,
                         uint8_t *bypass_l1, ws_error *err)
{
    (void)ctx, (void)is, (void)rq, (void)err;
    *bypass_l1 = 1;
    return n;
}

static hierarchy *make_staged(hierarchy_stage stage)
{
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 1;
    o.stages[o.stage_count++] = stage;
    hierarchy *h = make_opts(&o, 1);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 4, &err), 0);
    return h;
}

Test(hierarchy, a_miss_route_stage_serves_misses_before_l2)
{
    stage_log log = {0};
    hierarchy *h = make_staged((hierarchy_stage){.ctx = &log, .miss_route = serve_everything});
    uint64_t a = 3;
    load(h, 0, 0, &a, 1);
    load(h, 0, 0, &a, 1);
    const replay_results *r = finish(h);
    cr_expect_eq(log.routed, 1);
    cr_expect_eq(r->total.l2.accesses, 0, "served before L2");
    cr_expect_eq(r->total.traffic.l1_to_l2_requests, 0, "no request left for L2");
    cr_expect_eq(r->total.l1.hits, 1, "and filled L1");
    hierarchy_free(h);
}

Test(hierarchy, a_fill_filter_decides_after_the_level_below)
{
    stage_log log = {0};
    hierarchy_stage keep = {.ctx = &log, .miss_route = serve_everything, .fill_filter = keep_out};
    hierarchy *h = make_staged(keep);
    uint64_t a = 3;
    load(h, 0, 0, &a, 1);
    load(h, 0, 0, &a, 1);
    const replay_results *r = finish(h);
    cr_expect_eq(log.filtered, 2);
    cr_expect_eq(log.hint, 7, "the fill hint from below reaches the filter");
    cr_expect_eq(log.last_victim, UINT64_MAX, "an empty way");
    cr_expect_eq(r->total.l1.hits, 0, "nothing was filled");
    cr_expect_eq(r->total.l1.misses, 2);
    cr_expect_eq(r->kernels[0].end_lines, 0);
    hierarchy_free(h);
}

Test(hierarchy, a_front_end_stage_sends_a_load_around_l1_as_cg)
{
    hierarchy *h = make_staged((hierarchy_stage){.front_end = send_around_l1});
    uint64_t a = 3;
    load(h, 0, 0, &a, 1);
    load(h, 0, 0, &a, 1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.hits, 0, "a bypass never fills L1");
    cr_expect_eq(r->total.l1.bypasses, 2);
    cr_expect_eq(r->total.traffic.l1_to_l2_read_bytes, 2 * 32, "32 B sectors, as cg");
    cr_expect_eq(r->total.miss_classes.by_class[MISS_COLD], 0, "bypasses get no miss class");
    hierarchy_free(h);
}

Test(hierarchy, a_front_end_stage_rewrites_the_requests)
{
    stage_log log = {0};
    hierarchy *h = make_staged((hierarchy_stage){.ctx = &log, .front_end = keep_first_request});
    uint64_t lines[4] = {1, 2, 3, 4};
    load(h, 0, 0, lines, 4);
    const replay_results *r = finish(h);
    cr_expect_eq(log.merged, 3);
    cr_expect_eq(r->total.l1.accesses, 1, "one request left");
    cr_expect_eq(r->total.mpli.loads, 1);
    hierarchy_free(h);
}

static int count_lookup(void *c, const replay_issue *is, uint64_t line, ws_error *err)
{
    (void)is, (void)line, (void)err;
    return ((stage_log *)c)->events[0]++, 0;
}
static int count_hit(void *c, const replay_issue *is, uint64_t line, uint32_t owner, ws_error *err)
{
    (void)is, (void)line, (void)owner, (void)err;
    return ((stage_log *)c)->events[1]++, 0;
}
static int count_miss(void *c, const replay_issue *is, uint64_t line, int present, ws_error *err)
{
    (void)is, (void)line, (void)present, (void)err;
    return ((stage_log *)c)->events[2]++, 0;
}
static int count_fill(void *c, const replay_issue *is, uint64_t line, ws_error *err)
{
    (void)is, (void)line, (void)err;
    return ((stage_log *)c)->events[3]++, 0;
}
static int count_depart(void *c, uint32_t sm, uint64_t line, uint32_t evictor, evict_cause cause,
                        ws_error *err)
{
    (void)sm, (void)line, (void)evictor, (void)cause, (void)err;
    return ((stage_log *)c)->events[4]++, 0;
}
static int count_store(void *c, const replay_issue *is, uint64_t line, int present, ws_error *err)
{
    (void)is, (void)line, (void)present, (void)err;
    return ((stage_log *)c)->events[5]++, 0;
}
static void count_instruction(void *c, const replay_issue *is)
{
    (void)is;
    ((stage_log *)c)->events[6]++;
}

Test(hierarchy, collectors_subscribe_to_l1_events)
{
    stage_log log = {0};
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 1;
    cr_assert_eq(config_override(&o.config, "--l1", "128:1:128", &err), 0); /* one line */
    o.observers[o.observer_count++] =
        (l1_observer){.ctx = &log, .lookup = count_lookup, .hit = count_hit, .miss = count_miss,
                      .fill = count_fill, .depart = count_depart, .store = count_store,
                      .instruction_end = count_instruction};
    hierarchy *h = make_opts(&o, 1);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 4, &err), 0);
    uint64_t a = 1, b = 2;
    load(h, 0, 0, &a, 1);                                  /* lookup, miss, fill */
    load(h, 0, 0, &a, 1);                                  /* lookup, hit */
    load(h, 0, 0, &b, 1);                                  /* lookup, miss, depart a, fill */
    issue(h, 0, 0, WST_STORE, WST_OP_DEFAULT, &b, 1, 0x1); /* depart b, store */
    issue(h, 0, 0, WST_LOAD, WST_OP_CG, &a, 1, 0x1);       /* a bypass: no L1 event */
    finish(h);
    int want[7] = {3, 1, 2, 2, 2, 1, 5};
    for (int i = 0; i < 7; i++)
        cr_expect_eq(log.events[i], want[i], "event %d: %d", i, log.events[i]);
    hierarchy_free(h);
}

/* ---- sector accounting, write policies and pending hits (docs/metrics.md §7) ---- */

/* A hierarchy over the fermi preset with L1 `l1` (SIZE:WAYS:LINE[:SECTOR]),
 * a sectored L2, and the L1 write policy `write`. */
static hierarchy *make_write(const char *l1, const char *write, int reserved)
{
    hierarchy_options o = {.seed = 1, .timed = reserved};
    ws_error err;
    char set[32];
    snprintf(set, sizeof set, "l1.write=%s", write);
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 2;
    cr_assert_eq(config_override(&o.config, "--l1", l1, &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&o.config, "--l2", "768K:8:128:32", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&o.config, "--set", set, &err), 0, "%s", err.msg);
    hierarchy *h = hierarchy_new(&o, 1, &err);
    cr_assert_not_null(h, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 4, &err), 0);
    return h;
}

/* One request to `line` of kind/op on `sm` at `step`, asking for bytes
 * [first, first + bytes) of the line. */
static void touch(hierarchy *h, uint32_t sm, uint64_t step, wst_kind kind, wst_cache_op op,
                  uint64_t line, uint32_t first, uint32_t bytes)
{
    ws_request rq = {.line_addr = line * 128, .req_count = 1, .bytes_used = (uint16_t)bytes};
    for (uint32_t b = first; b < first + bytes; b++) {
        rq.byte_mask[b / 64] |= UINT64_C(1) << (b % 64);
        rq.sector_mask |= (uint8_t)(1u << (b / 32));
    }
    replay_issue is = {.sm = sm, .step = step, .kind = (uint8_t)kind, .space = WST_GLOBAL,
                       .cache_op = (uint8_t)op};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0, "%s", err.msg);
}

Test(hierarchy, sector_counts_on_a_hand_worked_sectored_trace)
{
    hierarchy *h = make_write("16K:4:128:32", "evict", 0);
    touch(h, 0, 0, WST_LOAD, WST_OP_DEFAULT, 5, 0, 32);  /* sector 0: 1 sector, missed */
    touch(h, 0, 1, WST_LOAD, WST_OP_DEFAULT, 5, 0, 96);  /* sectors 0-2: 0 hits, 1 and 2 miss */
    touch(h, 0, 2, WST_LOAD, WST_OP_DEFAULT, 5, 0, 96);  /* sectors 0-2: all three hit */
    touch(h, 1, 3, WST_LOAD, WST_OP_DEFAULT, 5, 16, 64); /* SM 1, sectors 0-2: miss in L1, hit in L2 */
    const replay_results *r = finish(h);
    const level_counts *l1 = &r->total.l1, *l2 = &r->total.l2;
    cr_expect_eq(l1->accesses, 4);
    cr_expect_eq(l1->hits, 1, "one line request found every sector");
    cr_expect_eq(l1->sector_misses, 1, "the second was a miss on a present line");
    cr_expect_eq(l1->sector_requests, 1 + 3 + 3 + 3);
    cr_expect_eq(l1->sector_hits, 1 + 3);
    cr_expect_eq(l1->sector_pending_hits, 0);
    /* L2 saw the fetches: sector 0, sectors 1-2, then SM 1's three. */
    cr_expect_eq(l2->accesses, 3);
    cr_expect_eq(l2->sector_requests, 1 + 2 + 3);
    cr_expect_eq(l2->sector_hits, 3);
    cr_expect_eq(l2->hits, 1);
    hierarchy_free(h);
}

Test(hierarchy, unsectored_levels_count_no_sectors)
{
    hierarchy *h = make(NULL, NULL, 1, 0);
    uint64_t a = 4;
    load(h, 0, 0, &a, 1);
    load(h, 0, 0, &a, 1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.hits, 1);
    cr_expect_eq(r->total.l1.sector_requests, 0);
    cr_expect_eq(r->total.l2.sector_requests, 0);
    hierarchy_free(h);
}

Test(hierarchy, allocate_makes_wholly_written_sectors_valid)
{
    hierarchy *h = make_write("16K:4:128:32", "allocate", 0);
    touch(h, 0, 0, WST_STORE, WST_OP_DEFAULT, 8, 0, 32);  /* sector 0 written whole: allocates */
    touch(h, 0, 1, WST_LOAD, WST_OP_DEFAULT, 8, 0, 32);   /* hit */
    touch(h, 0, 2, WST_STORE, WST_OP_DEFAULT, 8, 32, 4);  /* sector 1 written in part */
    touch(h, 0, 3, WST_LOAD, WST_OP_DEFAULT, 8, 32, 4);   /* sector 1 not valid: fetched */
    touch(h, 0, 4, WST_STORE, WST_OP_DEFAULT, 8, 40, 4);  /* a valid sector stays valid */
    touch(h, 0, 5, WST_LOAD, WST_OP_DEFAULT, 8, 32, 32);  /* hit */
    const replay_results *r = finish(h);
    const level_counts *l1 = &r->total.l1;
    cr_expect_eq(l1->writes, 3, "every store looked L1 up");
    cr_expect_eq(l1->write_evicts, 0);
    cr_expect_eq(l1->accesses, 3);
    cr_expect_eq(l1->hits, 2);
    cr_expect_eq(l1->misses, 1);
    cr_expect_eq(l1->sector_misses, 1, "the partly written sector: a miss on a present line");
    cr_expect_eq(r->total.miss_classes.by_class[MISS_COLD], 1, "the sector was never valid");
    cr_expect_eq(r->total.traffic.l1_to_l2_write_bytes, 3 * 32, "stores still write through");
    cr_expect_eq(r->total.traffic.l1_to_l2_read_bytes, 32, "only the partly written sector is read");
    hierarchy_free(h);
}

Test(hierarchy, allocate_leaves_atomics_and_cg_stores_evicting)
{
    hierarchy *h = make_write("16K:4:128:32", "allocate", 0);
    touch(h, 0, 0, WST_LOAD, WST_OP_DEFAULT, 9, 0, 32);
    touch(h, 0, 1, WST_ATOMIC, WST_OP_DEFAULT, 9, 0, 4);  /* performed at L2: the copy goes */
    touch(h, 0, 2, WST_LOAD, WST_OP_DEFAULT, 9, 0, 32);
    touch(h, 0, 3, WST_STORE, WST_OP_CG, 9, 0, 32);       /* not to be cached in L1 */
    touch(h, 0, 4, WST_LOAD, WST_OP_DEFAULT, 9, 0, 32);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.write_evicts, 2);
    cr_expect_eq(r->total.l1.hits, 0);
    cr_expect_eq(r->total.l1.writes, 0, "neither looked L1 up");
    hierarchy_free(h);
}

Test(hierarchy, allocate_on_an_unsectored_l1_needs_the_whole_line)
{
    hierarchy *h = make_write("16K:4:128", "allocate", 0);
    touch(h, 0, 0, WST_STORE, WST_OP_DEFAULT, 1, 0, 128); /* the whole line */
    touch(h, 0, 1, WST_LOAD, WST_OP_DEFAULT, 1, 0, 4);    /* hit */
    touch(h, 0, 2, WST_STORE, WST_OP_DEFAULT, 2, 0, 96);  /* most of a line: allocated, not valid */
    touch(h, 0, 3, WST_LOAD, WST_OP_DEFAULT, 2, 0, 4);    /* a miss on the present line */
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.hits, 1);
    cr_expect_eq(r->total.l1.sector_misses, 1);
    cr_expect_eq(r->total.traffic.l1_to_l2_read_bytes, 128, "the line is fetched whole");
    hierarchy_free(h);
}

Test(hierarchy, evict_is_the_fermi_default_and_changes_nothing)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    cr_expect_eq(c.l1.write, WRITE_EVICT);
    cr_assert_eq(config_load(&c, "volta", &err), 0);
    cr_expect_eq(c.l1.write, WRITE_ALLOCATE);
    hierarchy *h = make_write("16K:4:128:32", "evict", 0);
    touch(h, 0, 0, WST_STORE, WST_OP_DEFAULT, 8, 0, 32);
    touch(h, 0, 1, WST_LOAD, WST_OP_DEFAULT, 8, 0, 32);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.hits, 0, "an evict L1 does not allocate on a store");
    cr_expect_eq(r->total.l1.writes, 0);
    hierarchy_free(h);
}

Test(hierarchy, pending_sectors_are_counted_apart)
{
    hierarchy *h = make_write("16K:4:128:32", "evict", 1);
    touch(h, 0, 0, WST_LOAD, WST_OP_DEFAULT, 3, 0, 64);     /* miss: pending */
    touch(h, 0, 1, WST_LOAD, WST_OP_DEFAULT, 3, 0, 64);     /* merges: 2 pending sectors */
    touch(h, 0, 5000, WST_LOAD, WST_OP_DEFAULT, 3, 0, 64);  /* arrived: a hit */
    const replay_results *r = finish(h);
    const level_counts *l1 = &r->total.l1;
    cr_expect_eq(l1->hits, 1);
    cr_expect_eq(l1->pending_hits, 1);
    cr_expect_eq(l1->misses, 1);
    cr_expect_eq(l1->sector_requests, 6);
    cr_expect_eq(l1->sector_hits, 2);
    cr_expect_eq(l1->sector_pending_hits, 2);
    hierarchy_free(h);
}

/* A throttled warp (S3 ch. 5: it may hit, never allocate) that misses has
 * looked L1 up: a miss with its class and a μRC candidate that took no
 * line, counted in misses_not_allocated, never a bypass (docs/metrics.md
 * §9); a cg load, which never looks L1 up, is the bypass. */
Test(hierarchy, a_throttled_miss_is_a_miss_not_a_bypass)
{
    hierarchy *h = make(NULL, NULL, 1, 0); /* kernel 0 begun */
    ws_error err;
    ws_request rq = {.line_addr = 9 * 128, .sector_mask = 1, .req_count = 1};
    replay_issue is = {.kind = WST_LOAD, .space = WST_GLOBAL, .no_allocate = 1};
    cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0, "%s", err.msg);
    uint64_t cg = 10;
    issue(h, 0, 1, WST_LOAD, WST_OP_CG, &cg, 1, 0x1);
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.misses, 2);
    cr_expect_eq(r->total.l1.misses_not_allocated, 1);
    cr_expect_eq(r->total.l1.bypasses, 1, "only the cg load");
    cr_expect_eq(r->total.miss_classes.by_class[MISS_COLD], 1);
    cr_expect_eq(r->total.l1_load_misses, 1, "a μRC candidate");
    hierarchy_free(h);
}

/* An SM's L1 is made at its first instruction (hierarchy.c, sm_begin): a
 * load on SM 3 of 4, three SMs never issuing, counts as on a 1-SM GPU
 * (A B A: two cold misses and a hit), and a second kernel starts cold on
 * that SM while the idle SMs' flushes do nothing. */
Test(hierarchy, an_sm_first_used_late_counts_as_any_other)
{
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 4;
    hierarchy *h = make_opts(&o, 2);
    static const uint64_t a = 10, b = 11;
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 4, &err), 0, "%s", err.msg);
    load(h, 3, 0, &a, 1);
    load(h, 3, 0, &b, 1);
    load(h, 3, 0, &a, 1);
    cr_assert_eq(hierarchy_kernel_end(h, &err), 0, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 1, 4, &err), 0, "%s", err.msg);
    load(h, 3, 0, &a, 1); /* L1 flushed between kernels: a miss, an L2 hit */
    load(h, 1, 0, &b, 1); /* SM 1's first instruction: a miss, an L2 hit */
    const replay_results *r = finish(h);
    cr_expect_eq(r->total.l1.hits, 1);
    cr_expect_eq(r->total.l1.misses, 4);
    cr_expect_eq(r->total.l2.hits, 2, "the second kernel finds both lines in L2");
    cr_expect_eq(r->sm_hits[3], 1);
    cr_expect_eq(r->sm_misses[3], 3);
    cr_expect_eq(r->sm_misses[1], 1);
    cr_expect_eq(r->sm_hits[0] + r->sm_misses[0] + r->sm_hits[2] + r->sm_misses[2], 0);
    hierarchy_free(h);
}
