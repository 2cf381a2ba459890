/* tests/test_lws.c: locality-based warp scheduling (S2 §5, docs/metrics.md §9),
 * worked by hand: one SM, one scheduler, three warps (slots 0-2, oldest
 * first) whose next loads are PCs 1, 0 and 1.  PC 0 turns streaming on the
 * reference L1; windows of 256 accesses then set CUS = (hits × 120) ÷
 * (misses × 220) below 0.2, above 1, and between. */
#include <criterion/criterion.h>

#include "analyzer/mem_timing.h"
#include "analyzer/warp_order.h"
#include "formats/trace.h"

typedef struct fixture {
    void *order, *gto;
    uint32_t by_age[3], next_pc[3];
    uint64_t fresh; /* the next line never loaded */
    uint8_t live[3];
    warp_view view;
} fixture;

static int next_load(const void *ctx, uint32_t slot, uint32_t *pc)
{
    *pc = ((const uint32_t *)ctx)[slot];
    return 1;
}

static void setup(fixture *f)
{
    f->fresh = 0;
    warp_order_geometry g = {.sms = 1, .schedulers = 1, .slots = 3, .gto_k = 8,
                             .line_bytes = 128, .l2_latency = 120, .dram_latency = 220};
    ws_error err;
    f->order = warp_order_lws.create(&g, &err);
    f->gto = warp_order_gto.create(&g, &err);
    cr_assert(f->order && f->gto, "%s", err.msg);
    warp_order_lws.kernel_begin(f->order, 3, 2);
    warp_order_gto.kernel_begin(f->gto, 3, 2);
    const uint32_t pcs[3] = {1, 0, 1};
    for (uint32_t s = 0; s < 3; s++) {
        warp_order_lws.arrived(f->order, 0, s);
        warp_order_gto.arrived(f->gto, 0, s);
        f->by_age[s] = s;
        f->live[s] = 1;
        f->next_pc[s] = pcs[s];
    }
    f->view = (warp_view){.by_age = f->by_age, .live_count = 3, .live = f->live, .slot_count = 3,
                          .schedulers = 1, .next_load = next_load, .sched_sm = f->next_pc};
}

static void teardown(fixture *f)
{
    warp_order_lws.destroy(f->order);
    warp_order_gto.destroy(f->gto);
}

/* The reference L1's answer to one load of `line` by slot's warp (a miss
 * on an absent line fills it, as the reference L1 always does). */
static void observe(fixture *f, uint32_t slot, uint32_t pc, uint64_t line, replay_ref ref)
{
    ws_request rq = {.line_addr = line * 128, .sector_mask = 1, .req_count = 1};
    ref.outcome = L1_LOOKUP;
    ref.filled = !ref.hit && !ref.present;
    warp_order_lws.observed(f->order, 0, slot, 10 + slot, pc, &rq, &ref, 1);
}

/* The timed replay's answer (measured): where the load was served and its
 * latency from issue to data back. */
static void observe_timed(fixture *f, uint32_t slot, uint32_t pc, uint64_t line, replay_ref ref,
                          served_by served, uint32_t latency)
{
    ref.measured = 1;
    ref.served = (uint8_t)served;
    ref.latency = latency;
    if (!ref.outcome)
        ref.outcome = L1_LOOKUP;
    ws_request rq = {.line_addr = line * 128, .sector_mask = 1, .req_count = 1, .kind = WST_LOAD};
    warp_order_lws.observed(f->order, 0, slot, 10 + slot, pc, &rq, &ref, 1);
}

/* PC 0's line 100 is evicted after its one use: PC 0 is streaming (2 of
 * the window's accesses, both misses). */
static void pc0_streams(fixture *f)
{
    observe(f, 1, 0, 100, (replay_ref){0});
    observe(f, 2, 1, 200, (replay_ref){.evicted = 1, .victim_line = 100});
}

/* The rest of a 256-access window: `hits` hits on line 300, then misses
 * on lines never loaded before. */
static void window(fixture *f, uint32_t done, uint32_t hits)
{
    for (uint32_t i = done; i < 256; i++) {
        int hit = i - done < hits;
        observe(f, 0, 1, hit ? 300 : 1000 + f->fresh++, (replay_ref){.hit = hit, .present = hit});
    }
}

Test(lws, cus_thresholds_switch_the_group_that_goes_first)
{
    fixture f;
    setup(&f);
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 0, "no window yet: GTO, the oldest");
    pc0_streams(&f);
    window(&f, 2, 0); /* CUS = 0 < 0.2: contended */
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 1, "slot 1 is about to stream");
    window(&f, 0, 256); /* no misses: CUS above any threshold */
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 0,
                 "the others go first: the oldest of slots 0 and 2, not greedy slot 1");
    f.next_pc[0] = 0; /* now slot 2 is the only non-streaming warp */
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 2);
    f.next_pc[0] = 1;
    window(&f, 0, 128); /* CUS = 128 × 120 ÷ (128 × 220) = 0.55: GTO */
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 2, "GTO keeps its greedy warp");
    window(&f, 0, 81); /* 81 × 120 ÷ (175 × 220) = 0.252: still GTO */
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 2);
    window(&f, 0, 70); /* 70 × 120 ÷ (186 × 220) = 0.205 */
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 2);
    window(&f, 0, 68); /* 68 × 120 ÷ (188 × 220) = 0.197 < 0.2: streaming first */
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 1);
    teardown(&f);
}

Test(lws, a_favoured_group_with_no_ready_warp_yields_to_gto)
{
    fixture f;
    setup(&f);
    pc0_streams(&f);
    window(&f, 2, 0);
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 1);
    warp_order_lws.issued(f.order, &f.view, 1, 1); /* slot 1 missed: waits K = 8 issues */
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 0, "the oldest ready warp meanwhile");
    teardown(&f);
}

Test(lws, without_streaming_pcs_it_is_gto)
{
    fixture f;
    setup(&f);
    window(&f, 0, 0); /* contended, but no PC is streaming: the group is empty */
    for (int i = 0; i < 20; i++) {
        int32_t want = warp_order_gto.pick(f.gto, &f.view);
        cr_expect_eq(warp_order_lws.pick(f.order, &f.view), want, "pick %d", i);
        warp_order_gto.issued(f.gto, &f.view, (uint32_t)want, i % 3 == 0);
        warp_order_lws.issued(f.order, &f.view, (uint32_t)want, i % 3 == 0);
    }
    teardown(&f);
}

/* Timed, the window's figures are the replayed L1's, measured.  A load of
 * slot 0 bypasses L1 (not in the window) and is served by L2 in 300
 * cycles: the L2 latency.  PC 0 streams (two DRAM misses, 220 cycles
 * each), then 56 hits and 198 merges into lines in flight, each waiting
 * 40 cycles: a merge is no hit in S2's count, so 200 misses stalling
 * 2 × 220 + 198 × 40 = 8,360 cycles, and CUS = 56 × 300 ÷ 8,360 = 2.01 > 1:
 * the non-streaming warps first (slot 0).  The config's latencies would
 * give 56 × 120 ÷ (200 × 220) = 0.153 < 0.2: streaming first.  A window of
 * 256 merges (10 cycles each) has no hit: CUS 0, streaming first (slot 1),
 * where the reference L1, on which a line in flight is simply there, would
 * count 256 hits. */
Test(lws, timed_cus_is_measured_on_the_replayed_l1)
{
    fixture f;
    setup(&f);
    observe_timed(&f, 0, 1, 50, (replay_ref){.outcome = L1_BYPASS}, SERVED_L2, 300);
    observe_timed(&f, 1, 0, 100, (replay_ref){.filled = 1}, SERVED_DRAM, 220);
    observe_timed(&f, 2, 1, 200, (replay_ref){.filled = 1, .evicted = 1, .victim_line = 100},
                  SERVED_DRAM, 220);
    for (int i = 0; i < 56; i++)
        observe_timed(&f, 0, 1, 300, (replay_ref){.hit = 1, .present = 1}, SERVED_L1, 20);
    for (int i = 0; i < 198; i++)
        observe_timed(&f, 0, 1, 300, (replay_ref){.hit = 1, .present = 1}, SERVED_L1_MERGE, 40);
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 0, "CUS 2.01: the others first");
    for (int i = 0; i < 256; i++)
        observe_timed(&f, 0, 1, 300, (replay_ref){.hit = 1, .present = 1}, SERVED_L1_MERGE, 10);
    cr_expect_eq(warp_order_lws.pick(f.order, &f.view), 1, "CUS 0: the streaming warp first");
    teardown(&f);
}
