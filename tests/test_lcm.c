/* tests/test_lcm.c: locality-based cache management (S2 §4, docs/metrics.md §9),
 * worked by hand on one SM of Fermi L1s (16 KB, 4 ways, 32 sets: lines 0,
 * 32, 64, 96 and 128 share set 0): the monitor deciding a PC streaming and
 * back, its two modes, the bypass, and the coalescer's merges and flushes. */
#include <criterion/criterion.h>

#include "analyzer/hierarchy.h"
#include "analyzer/systems.h"
#include "formats/trace.h"

enum { PCS = 4, MONITORED = 0 /* S2's monitored warp: the one in slot 0 */ };

static hierarchy *make(const char *system, lcm_options tweak)
{
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 1;
    if (system) {
        cr_assert_eq(system_apply_list(system, &o, &err), 0, "%s", err.msg);
        o.lcm.monitor = tweak.monitor;
        if (tweak.window)
            o.lcm.window = tweak.window;
    }
    hierarchy *h = hierarchy_new(&o, 1, &err);
    cr_assert_not_null(h, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, PCS, &err), 0);
    return h;
}

/* A global load of one line by the warp in `slot` (its id = slot). */
static void load(hierarchy *h, uint32_t slot, uint32_t pc, uint64_t line)
{
    ws_request rq = {.line_addr = line * 128, .sector_mask = 0x1, .req_count = 1};
    replay_issue is = {.warp = slot, .warp_slot = slot, .pc = pc, .kind = WST_LOAD,
                       .space = WST_GLOBAL};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0, "%s", err.msg);
}

/* Fills set 0's four ways with PC 3's lines 32..128: whatever set 0 held
 * is evicted, closing its generation. */
static void flush_set0(hierarchy *h)
{
    for (uint64_t i = 1; i <= 4; i++)
        load(h, 5, 3, 32 * i);
}

static const replay_results *finish(hierarchy *h)
{
    ws_error err;
    cr_assert_eq(hierarchy_finish(h, &err), 0, "%s", err.msg);
    return hierarchy_results(h);
}

Test(lcm, a_pc_turns_streaming_after_a_single_use_generation_and_back_at_t_accesses)
{
    hierarchy *h = make("lcm-bypass", (lcm_options){0});
    load(h, 1, 0, 0); /* undecided: cached; line 0's generation opens */
    flush_set0(h);    /* evicted after one access: PC 0 is streaming */
    load(h, 1, 0, 1); /* so warp 1's next load goes around L1 */
    load(h, 1, 0, 1); /* and again: a bypass never fills, so never hits */
    /* The monitored warp keeps caching: line 2 is used T = 8 times while
     * held, which closes its observation without an eviction. */
    for (int i = 0; i < 8; i++)
        load(h, MONITORED, 0, 2);
    load(h, 1, 0, 3); /* PC 0 is intra-warp now: cached */
    load(h, 1, 0, 3);
    const replay_results *r = finish(h);
    const lcm_counts *c = &r->lcm->total;
    cr_expect_eq(c->turned_streaming, 1);
    cr_expect_eq(c->turned_back, 1);
    cr_expect_eq(c->bypassed_loads, 2);
    cr_expect_eq(c->monitored_kept, 8, "the monitored warp's loads of a streaming PC");
    cr_expect_eq(r->kernels[0].pcs[0].bypasses, 2);
    cr_expect_eq(r->kernels[0].pcs[0].hits, 7 + 1, "line 2's reuses and line 3's");
    cr_expect_eq(r->lcm->kernels[0].pcs[0].generations[LOCALITY_STREAMING], 1);
    cr_expect_eq(r->lcm->kernels[0].pcs[0].generations[LOCALITY_INTRA_ONLY], 1);
    hierarchy_free(h);
}

/* Warp 1's single-use generation decides PC 0 for every warp's monitor,
 * not for the monitored warp's; the next load of PC 0 shows the two
 * disagreeing, and the option picks the one that acts. */
static const lcm_counts *one_disagreement(hierarchy *h)
{
    load(h, 1, 0, 0);
    flush_set0(h);
    load(h, 2, 0, 7);
    return &finish(h)->lcm->total;
}

Test(lcm, the_two_monitors_disagree_and_the_option_picks_which_acts)
{
    hierarchy *all = make("lcm-bypass", (lcm_options){.monitor = LCM_MONITOR_ALL_WARPS});
    const lcm_counts *c = one_disagreement(all);
    cr_expect_eq(c->loads, 6);
    cr_expect_eq(c->agreed, 5, "they differ only on the last load");
    cr_expect_eq(c->bypassed_loads, 1);
    cr_expect_eq(c->monitored_observations, 0);
    hierarchy_free(all);
    hierarchy *one = make("lcm-bypass", (lcm_options){.monitor = LCM_MONITOR_ONE_WARP});
    c = one_disagreement(one);
    cr_expect_eq(c->agreed, 5);
    cr_expect_eq(c->bypassed_loads, 0, "S2's monitored warp has seen nothing of PC 0");
    hierarchy_free(one);
}

/* Warps 1 and 2 share line 0 before it is evicted: PC 0 has the inter-warp
 * bit.  Line 64 in queue 0 is PC 3's: only PC 0's requests are queued. */
static void decide_inter_warp(hierarchy *h)
{
    load(h, 1, 0, 0);
    load(h, 2, 0, 0);
    flush_set0(h);
}

Test(lcm, the_coalescer_merges_two_warps_requests_for_a_line)
{
    hierarchy *h = make("lcm-coalesce", (lcm_options){0});
    decide_inter_warp(h);
    load(h, 1, 0, 33); /* takes a tag of queue 1 and looks L1 up */
    load(h, 2, 0, 33); /* merges: no L1 access */
    load(h, 3, 0, 33); /* merges */
    const replay_results *r = finish(h);
    const lcm_counts *c = &r->lcm->total;
    cr_expect_eq(c->coalescer_requests, 3);
    cr_expect_eq(c->merged_requests, 2);
    cr_expect_eq(r->lcm->kernels[0].pcs[0].merged_requests, 2);
    cr_expect_eq(r->total.l1.accesses, 2 + 4 + 1, "two before, the flush's four, one leader");
    cr_expect_eq(c->flushes_kernel_end, 1, "line 33's tag was still queued");
    cr_expect_eq(c->bypassed_loads, 0, "coalescing alone bypasses nothing");
    hierarchy_free(h);
}

Test(lcm, a_third_line_in_a_queue_flushes_the_oldest_tag)
{
    hierarchy *h = make("lcm-coalesce", (lcm_options){0});
    decide_inter_warp(h);
    load(h, 1, 0, 1);  /* queue 1, tag A */
    load(h, 1, 0, 33); /* queue 1, tag B */
    load(h, 1, 0, 65); /* queue 1 is full: line 1's tag goes (a conflict) */
    load(h, 2, 0, 1);  /* no tag holds line 1 any more: a new one, line 33's goes */
    load(h, 2, 0, 65); /* merges */
    const lcm_counts *c = &finish(h)->lcm->total;
    cr_expect_eq(c->flushes_conflict, 2);
    cr_expect_eq(c->merged_requests, 1);
    cr_expect_eq(c->flushes_kernel_end, 2);
    hierarchy_free(h);
}

Test(lcm, a_tag_lives_for_the_next_w_requests)
{
    hierarchy *h = make("lcm-coalesce", (lcm_options){.window = 2});
    decide_inter_warp(h);
    load(h, 1, 0, 1); /* tag of line 1, taken at request 1 */
    load(h, 1, 0, 2);
    load(h, 2, 0, 1); /* request 3: within W = 2 requests, merges */
    load(h, 1, 0, 3);
    load(h, 3, 0, 1); /* request 5: 4 after the tag, past the window */
    const lcm_counts *c = &finish(h)->lcm->total;
    cr_expect_eq(c->merged_requests, 1);
    cr_expect_eq(c->flushes_window, 2, "line 1's first tag, and line 2's at kernel end");
    cr_expect_eq(c->flushes_kernel_end, 2, "lines 3 and 1 (again) are within their windows");
    hierarchy_free(h);
}

/* PC 0 streams through set 1 (one use per line, each evicting an older
 * one), PC 1 reuses four lines of set 0: bypassing PC 0 must not change
 * PC 1's hits. */
static void streaming_beside_reuse(hierarchy *h)
{
    for (uint64_t round = 0; round < 6; round++) {
        for (uint64_t i = 0; i < 4; i++)
            load(h, 1 + (uint32_t)i, 1, 32 * i);
        for (uint64_t i = 0; i < 8; i++)
            load(h, 1 + (uint32_t)i, 0, 1 + 32 * (8 * round + i));
    }
}

Test(lcm, bypass_leaves_the_hits_of_non_streaming_pcs_as_lru_has_them)
{
    hierarchy *lru = make(NULL, (lcm_options){0}), *managed = make("lcm-bypass", (lcm_options){0});
    streaming_beside_reuse(lru);
    streaming_beside_reuse(managed);
    const replay_results *a = finish(lru), *b = finish(managed);
    cr_expect_eq(b->kernels[0].pcs[1].hits, a->kernels[0].pcs[1].hits);
    cr_expect_eq(b->kernels[0].pcs[1].hits, 5 * 4);
    cr_expect_gt(b->kernels[0].pcs[0].bypasses, 0, "PC 0 was found streaming");
    cr_expect_eq(b->kernels[0].pcs[1].bypasses, 0);
    hierarchy_free(lru);
    hierarchy_free(managed);
}

Test(lcm, options_out_of_range_are_refused)
{
    ws_error err;
    lcm_options o = lcm_options_default();
    o.threshold = 1;
    cr_expect_neq(lcm_options_validate(&o, &err), 0);
    o = lcm_options_default();
    o.window = 0;
    cr_expect_neq(lcm_options_validate(&o, &err), 0);
    cr_expect_eq(lcm_options_validate(&(lcm_options){.threshold = 8, .window = 32}, &err), 0);
}

/* A global load whose active mask is empty makes no request and looks
 * nothing up: LCM does not count it (docs/report-schema.md, `lcm.loads`),
 * nor in the monitors' agreement, whatever its PC's decision. */
Test(lcm, a_load_with_an_empty_mask_is_not_counted)
{
    hierarchy *h = make("lcm", (lcm_options){0});
    load(h, 1, 0, 0);
    replay_issue is = {.warp = 1, .warp_slot = 1, .pc = 0, .kind = WST_LOAD,
                       .space = WST_GLOBAL};
    ws_error err;
    ws_request none[1] = {{0}};
    cr_assert_eq(hierarchy_instruction(h, &is, none, 0, &err), 0, "%s", err.msg);
    const replay_results *r = finish(h);
    cr_expect_eq(r->lcm->total.loads, 1, "only the load that made a request");
    cr_expect_eq(r->lcm->total.agreed, 1);
    cr_expect_eq(r->lcm->kernels[0].pcs[0].loads, 1);
    hierarchy_free(h);
}
