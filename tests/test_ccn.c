/* tests/test_ccn.c: the Cooperative Caching Network (S3 ch. 4, docs/metrics.md §9):
 * remote hits over the ring, hop counts, shadow-tag probes that do not
 * promote, the request throttler; and, on a real workload, the ring's hits
 * equal μRC's numerator when every miss fills L1. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/hierarchy.h"
#include "analyzer/replay.h"
#include "analyzer/systems.h"
#include "formats/trace.h"
#include "workload_record.h"

/* 4 SMs of Fermi L1s (16 KB, 4 ways, 32 sets, linear index) on a ring. */
static hierarchy *make_ring(ccn_options ring)
{
    hierarchy_options o = {.seed = 1, .ccn = ring};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 4;
    hierarchy *h = hierarchy_new(&o, 1, &err);
    cr_assert_not_null(h, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 4, &err), 0);
    return h;
}

static ccn_options ring_options(int throttle, int promote)
{
    ccn_options c = ccn_options_default();
    c.enabled = 1;
    c.throttle = throttle;
    c.promote = promote;
    return c;
}

static void load_op(hierarchy *h, uint32_t sm, uint64_t line, uint64_t step, wst_cache_op op)
{
    ws_request rq = {.line_addr = line * 128, .sector_mask = 0x1, .req_count = 1};
    replay_issue is = {.sm = sm, .warp = sm, .kind = WST_LOAD, .space = WST_GLOBAL,
                       .cache_op = (uint8_t)op, .step = step};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0, "%s", err.msg);
}

static void load(hierarchy *h, uint32_t sm, uint64_t line, uint64_t step)
{
    load_op(h, sm, line, step, WST_OP_DEFAULT);
}

static const replay_results *finish(hierarchy *h)
{
    ws_error err;
    cr_assert_eq(hierarchy_finish(h, &err), 0, "%s", err.msg);
    return hierarchy_results(h);
}

Test(ccn, the_neighbour_serves_a_miss_in_two_hops)
{
    hierarchy *h = make_ring(ring_options(0, 0));
    load(h, 1, 5, 0); /* SM 1 fetches the line from L2 */
    load(h, 0, 5, 1); /* SM 0 misses; SM 1 is one hop downstream */
    load(h, 0, 5, 2); /* and now holds it */
    const replay_results *r = finish(h);
    const ccn_results *c = r->ccn;
    cr_assert_not_null(c);
    cr_expect_eq(c->total.misses, 2);
    cr_expect_eq(c->total.requests, 2);
    cr_expect_eq(c->total.remote_hits, 1);
    cr_expect_eq(c->total.hit_hops, 2, "out 1 hop, back 1 hop");
    cr_expect_eq(c->total.probe_hops, 4, "SM 1's request went round the 4-SM ring");
    cr_expect_eq(c->distance_hits[c->kernel_count * 4 + 1], 1);
    cr_expect_eq(c->per_sm[0].remote_hits, 1);
    cr_expect_eq(r->total.l2.accesses, 1, "only SM 1's miss reached L2");
    cr_expect_eq(r->total.traffic.l1_to_l2_requests, 1);
    cr_expect_eq(r->total.l1.hits, 1, "the remote hit filled SM 0's L1");
    hierarchy_free(h);
}

Test(ccn, the_far_side_is_reached_downstream_and_the_nearest_copy_answers)
{
    hierarchy *h = make_ring(ring_options(0, 0));
    load(h, 3, 5, 0); /* SM 3 holds line 5 */
    load(h, 0, 5, 1); /* SM 0 -> 1 -> 2 -> 3: distance 3, 6 hops */
    load(h, 1, 9, 2); /* SM 1 holds line 9 */
    load(h, 3, 9, 3); /* SM 3 -> 0 -> 1: distance 2 round the end of the ring */
    load(h, 2, 5, 4); /* SM 3 (1 hop) and SM 0 (2 hops) hold it: the nearer answers */
    const ccn_results *c = finish(h)->ccn;
    uint64_t *run = c->distance_hits + (size_t)c->kernel_count * 4;
    cr_expect_eq(run[3], 1, "SM 0 found SM 3's copy three hops downstream");
    cr_expect_eq(run[2], 1, "SM 3 reached SM 1 past SM 0");
    cr_expect_eq(run[1], 1, "SM 2 took SM 3's copy, not SM 0's");
    cr_expect_eq(c->total.hit_hops, 6 + 4 + 2);
    hierarchy_free(h);
}

/* Remote line A sits at LRU in SM 1's set 0 (lines 0, 32, 64, 96 fill the
 * four ways); SM 0's miss on A finds it there; then SM 1 fills a fifth
 * line of the set and re-reads A. */
static uint64_t remote_then_evict(int promote)
{
    hierarchy *h = make_ring(ring_options(0, promote));
    for (uint64_t i = 0; i < 4; i++)
        load(h, 1, 32 * i, i);
    load(h, 0, 0, 4); /* the remote probe of line 0 */
    load(h, 1, 128, 5);
    load(h, 1, 0, 6);
    uint64_t sm1_hits = finish(h)->sm_hits[1];
    hierarchy_free(h);
    return sm1_hits;
}

Test(ccn, a_remote_probe_does_not_promote_the_line_it_finds)
{
    cr_expect_eq(remote_then_evict(0), 0, "line 0 stayed LRU in SM 1: line 128 evicted it");
    cr_expect_eq(remote_then_evict(1), 1, "with promotion line 32 went instead");
}

Test(ccn, bypassed_and_local_loads_do_not_enter_the_ring)
{
    hierarchy *h = make_ring(ring_options(0, 0));
    load(h, 1, 5, 0);
    load_op(h, 0, 5, 1, WST_OP_CG); /* ld.cg: L2 by design (S3 §4.4.2) */
    ws_request rq = {.line_addr = 5 * 128, .sector_mask = 0x1, .req_count = 1};
    replay_issue is = {.sm = 2, .kind = WST_LOAD, .space = WST_LOCAL, .step = 2};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0);
    const replay_results *r = finish(h);
    cr_expect_eq(r->ccn->total.misses, 3);
    cr_expect_eq(r->ccn->total.candidates, 1, "only SM 1's cached global miss");
    cr_expect_eq(r->ccn->total.remote_hits, 0);
    cr_expect_eq(r->total.l2.accesses, 3);
    hierarchy_free(h);
}

Test(ccn, the_throttler_turns_the_ring_off_below_the_threshold_and_on_again)
{
    ccn_options o = ring_options(1, 0);
    o.sample_steps = 10;
    o.epoch_steps = 100;
    hierarchy *h = make_ring(o);
    load(h, 1, 500, 0);            /* SM 1 holds line 500 */
    for (uint64_t i = 0; i < 5; i++)
        load(h, 0, 1000 + i, i);   /* epoch 0's sample: 5 requests, no remote hit */
    load(h, 0, 500, 20);           /* h = 0 < 0.05: ring off, straight to L2 */
    load(h, 2, 500, 30);           /* SM 2 sampled nothing: its ring stays on */
    load(h, 3, 2000, 100);         /* epoch 1: SM 3 fetches line 2000 from L2 */
    load(h, 0, 2000, 101);         /* SM 0 samples again: 1 hit in 1 request */
    load(h, 0, 3000, 150);         /* decided on: SM 0's next miss uses the ring */
    const ccn_results *c = finish(h)->ccn;
    const ccn_counts *sm0 = &c->per_sm[0];
    cr_expect_eq(sm0->epochs, 2);
    cr_expect_eq(sm0->ring_off_epochs, 1);
    cr_expect_eq(sm0->candidates, 8);
    cr_expect_eq(sm0->throttled, 1, "the miss at step 20 skipped the ring");
    cr_expect_eq(sm0->requests, 7);
    cr_expect_eq(sm0->remote_hits, 1, "line 2000, from SM 3");
    cr_expect_eq(c->per_sm[2].remote_hits, 1, "SM 2 found SM 0's copy, two hops downstream");
    cr_expect_eq(c->per_sm[2].ring_off_epochs, 0);
    cr_expect_eq(c->total.epochs, 3, "SM 0 twice, SM 2 once: SMs 1 and 3 missed only in samples");
    cr_expect_eq(c->kernels[0].ring_off_epochs, 1);
    const ccn_timeline *t = &c->timelines[0];
    cr_expect_eq(t->buckets, 2, "SM 0's decisions in order, one an epoch");
    cr_expect_eq(t->ring_off[0], 1, "epoch 0: off");
    cr_expect_eq(t->ring_off[1], 0, "epoch 1: on");
    hierarchy_free(h);
}

Test(ccn, options_out_of_range_are_refused)
{
    ccn_options o = ring_options(1, 0);
    o.sample_steps = o.epoch_steps;
    ws_error err;
    cr_expect_neq(ccn_options_validate(&o, &err), 0);
    cr_expect(strstr(err.msg, "sampling interval") != NULL, "%s", err.msg);
    o = ring_options(1, 0);
    o.min_hit_rate = 1.5;
    cr_expect_neq(ccn_options_validate(&o, &err), 0);
}

/* Without the throttler, timing or promotion, the ring changes no L1: it
 * serves exactly the misses whose line another L1 holds (μRC's numerator,
 * docs/metrics.md §5), and L1->L2 requests drop by as many. */
Test(ccn, on_a_real_workload_the_ring_serves_exactly_the_remotely_held_misses)
{
    wst_memtrace *m = test_record_workload("hotspot", SIZE_SMALL, 1, 0);
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    hierarchy_options o[2] = {{.config = c, .seed = 1}, {.config = c, .seed = 1}};
    o[1].ccn = ring_options(0, 0);
    replay_options ro;
    replay_options_default(&ro);
    sched_source src = sched_source_memtrace(m);
    hierarchy *h[2];
    cr_assert_eq(replay_run(&src, &c, &ro, o, 2, h, NULL, &err), 0, "%s", err.msg);
    sched_source_free(&src);
    const replay_results *base = hierarchy_results(h[0]), *ring = hierarchy_results(h[1]);
    cr_assert_null(base->ccn);
    cr_assert_gt(ring->ccn->total.remote_hits, 0);
    cr_expect_eq(ring->ccn->total.remote_hits, base->total.remote_held_misses);
    cr_expect_eq(ring->total.l1.hits, base->total.l1.hits);
    cr_expect_eq(ring->total.traffic.l1_to_l2_requests + ring->ccn->total.remote_hits,
                 base->total.traffic.l1_to_l2_requests);
    cr_expect_eq(ring->ccn->total.misses, base->total.l1.misses);
    for (int i = 0; i < 2; i++)
        hierarchy_free(h[i]);
    wst_memtrace_free(m);
}

Test(ccn, the_decision_timeline_stays_bounded_and_keeps_every_decision)
{
    /* 200 decisions, every third with the ring off: 64 fit one an epoch,
     * then buckets of 2, then of 4: 50 buckets of 4. */
    ccn_timeline t = {0};
    for (int i = 0; i < 200; i++)
        ccn_timeline_add(&t, i % 3 == 0);
    cr_expect_eq(t.width, 4);
    cr_expect_eq(t.buckets, 50);
    uint64_t decided = 0, off = 0;
    for (uint32_t b = 0; b < t.buckets; b++) {
        decided += t.decided[b];
        off += t.ring_off[b];
        cr_expect_eq(t.decided[b], 4, "bucket %u", b);
    }
    cr_expect_eq(decided, 200);
    cr_expect_eq(off, 67, "decisions 0, 3, ..., 198");
    cr_expect_eq(t.ring_off[0], 2, "decisions 0-3: 0 and 3 off");
}
