/* tests/test_timed_l1_watch.c: the warp orders that watch L1 (CCWS, S3
 * §5.2; LWS, S2 §5) in the timed replay (docs/metrics.md §12), where they
 * watch the replayed hierarchy's own L1 (hierarchy_l1_view), not the
 * functional replay's reference LRU L1.  Each timeline is worked by hand to
 * its cycle (tests/timed_fixture.h: one SM and one scheduler; L1 20, L2
 * 120, DRAM 220 cycles from issue; a DRAM line transfer holds the channel
 * 8 cycles). */
#include <criterion/criterion.h>

#include "analyzer/mem_timing.h"
#include "tests/timed_fixture.h"

enum { L1 = TIMED_L1, L2 = TIMED_L2, DRAM = TIMED_DRAM, LINE_XFER = 8 };

/* The fermi preset cut to an L1 of one 128 B line: every new line replaces
 * the last, once that one's data is back (a set whose lines are all pending
 * makes the miss wait: a reservation fail). */
static gpu_config one_line_l1(void)
{
    gpu_config c = timed_tiny_gpu("fermi");
    ws_error err;
    cr_assert_eq(config_override(&c, "--l1", "128:1:128", &err), 0, "%s", err.msg);
    return c;
}

/* ---- what the orders see: the hierarchy's L1 view ---- */

/* One instruction of warp `warp` (slot = warp) at `step` loading `lines`. */
static const replay_ref *issue(hierarchy *h, uint32_t warp, uint64_t step, const uint64_t *lines,
                               int n, const ws_request **got)
{
    ws_request rq[4];
    for (int i = 0; i < n; i++)
        rq[i] = (ws_request){.line_addr = lines[i] * 128, .sector_mask = 0xf, .req_count = (uint8_t)n,
                             .kind = WST_LOAD, .space = WST_GLOBAL};
    replay_issue is = {.warp = warp, .warp_slot = warp, .step = step, .kind = WST_LOAD,
                       .space = WST_GLOBAL};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, rq, n, &err), 0, "%s", err.msg);
    const replay_ref *refs;
    cr_assert_eq(hierarchy_l1_view(h, got, &refs), n);
    return refs;
}

/* A two-line L1 (one set).  At 0 warp 0 misses X: DRAM, back at 220,
 * filled.  At 1 warp 1 asks for X: a merge into X's MSHR, a hit in the
 * view (the line is there) served by the merge, its data back with X's at
 * 220 (latency 219).  At 2 warp 1 misses Y: the set's other way, its DRAM
 * transfer after X's (8..16), back at 228 (latency 226).  At 300 warp 1 hits Y (ready):
 * served by L1, 20 cycles.  At 301 warp 0 misses Z: LRU replaces X, whose
 * filler was warp 0.  A functional hierarchy has no view. */
Test(timed_l1_watch, the_view_is_the_replayed_l1s_answer_with_its_latency)
{
    gpu_config c = timed_tiny_gpu("fermi");
    ws_error err;
    cr_assert_eq(config_override(&c, "--l1", "256:2:128", &err), 0, "%s", err.msg);
    hierarchy_options o = {.seed = 1, .config = c, .timed = 1};
    hierarchy *h = hierarchy_new(&o, 1, &err);
    cr_assert_not_null(h, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 1, &err), 0);
    const ws_request *got;
    const replay_ref *r = issue(h, 0, 0, (uint64_t[]){1}, 1, &got);
    cr_expect(r->measured && !r->hit && r->filled && !r->evicted);
    cr_expect_eq(r->outcome, L1_LOOKUP);
    cr_expect_eq(r->served, SERVED_DRAM);
    cr_expect_eq(r->latency, DRAM);
    cr_expect_eq(got[0].line_addr, 128);
    r = issue(h, 1, 1, (uint64_t[]){1}, 1, &got);
    cr_expect(r->hit && !r->filled);
    cr_expect_eq(r->served, SERVED_L1_MERGE);
    cr_expect_eq(r->latency, DRAM - 1);
    r = issue(h, 1, 2, (uint64_t[]){2}, 1, &got);
    cr_expect(!r->hit && r->filled && !r->evicted);
    cr_expect_eq(r->latency, LINE_XFER + DRAM - 2);
    r = issue(h, 1, 300, (uint64_t[]){2}, 1, &got);
    cr_expect(r->hit);
    cr_expect_eq(r->served, SERVED_L1);
    cr_expect_eq(r->latency, L1);
    r = issue(h, 0, 301, (uint64_t[]){3}, 1, &got);
    cr_expect(!r->hit && r->filled && r->evicted);
    cr_expect_eq(r->victim_line, 1);
    cr_expect_eq(r->victim_warp, 0, "X's filler");
    cr_expect_eq(r->served, SERVED_DRAM);
    cr_expect_eq(hierarchy_kernel_end(h, &err), 0);
    hierarchy_free(h);

    o.timed = 0;
    hierarchy *f = hierarchy_new(&o, 1, &err);
    cr_assert_eq(hierarchy_kernel_begin(f, 0, 1, &err), 0);
    ws_request rq = {.line_addr = 128, .sector_mask = 0xf, .req_count = 1};
    replay_issue is = {.kind = WST_LOAD, .space = WST_GLOBAL};
    cr_assert_eq(hierarchy_instruction(f, &is, &rq, 1, &err), 0);
    const replay_ref *refs;
    cr_expect_eq(hierarchy_l1_view(f, &got, &refs), 0);
    hierarchy_free(f);
}

/* ---- CCWS ---- */

/* Warp 0 loads X, X, W; warp 1 loads Y, Z (each load waits for the
 * warp's last).  One L1 line, LRU; L2 keeps every line.  CCWS's scores
 * start at 100 (base), +100 for a miss on a line in the warp's own victim
 * tags, -1 per issue of the scheduler (not below base); a warp is shut out
 * while the scores of the warps admitted before it reach live warps × 100.
 *   0    warp 0: X misses, DRAM 0..8, back 220.
 *   1    warp 1: Y waits for the line (X pending) until 220, replaces X
 *        (X goes to warp 0's victim tags), DRAM 220, back 440; the LD/ST
 *        unit is free at 221.
 *   221  warp 0: X again, a miss on its own victim tag: its score 200.
 *        It waits for the line (Y) until 440, replaces Y; an L2 hit, back
 *        at 560.
 *   441  warp 1 could issue Z (Y back at 440, LD/ST free at 441), but warp
 *        0's 200 fills the cut-off of 2 × 100: shut out until warp 0's
 *        next issue decays its score.  119 throttled cycles (441-559).
 *   560  warp 0: W (X back); the line is X, ready: W replaces it, DRAM,
 *        back 780; warp 0 has no records left.
 *   561  warp 1: Z waits for W's line until 780, back 1000.
 * GTO issues Z at 441 instead and W at 561: the same 1,000 cycles. */
static const rec ccws_recs[] = {{.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                                {.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                                {.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {4}},
                                {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                                {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {3}}};

Test(timed_l1_watch, ccws_shuts_a_warp_out_while_the_thrashed_warp_waits)
{
    wst_memtrace *m = timed_trace(ccws_recs, 5, 1, 2);
    gpu_config c = one_line_l1();
    seen order = {0};
    hierarchy *ccws = timed_run(m, &c, "rr,ccws", NULL, &order);
    cr_assert_eq(order.count, 5);
    uint64_t cycle[] = {0, 1, DRAM + 1, 2 * DRAM + L2, 2 * DRAM + L2 + 1};
    uint32_t warp[] = {0, 1, 0, 0, 1};
    for (int i = 0; i < 5; i++) {
        cr_expect_eq(order.cycle[i], cycle[i], "instruction %d", i);
        cr_expect_eq(order.warp[i], warp[i], "instruction %d", i);
    }
    const replay_results *r = hierarchy_results(ccws);
    cr_assert_eq(timed_total_cycles(ccws), 4 * DRAM + L2);
    cr_assert_eq(r->timed_total.stalls[STALL_THROTTLED], L2 - 1);
    timed_assert_cycles_add_up(ccws, &c);

    seen gto_order = {0};
    hierarchy *gto = timed_run(m, &c, "rr,gto", NULL, &gto_order);
    cr_expect_eq(gto_order.cycle[3], 2 * DRAM + 1);
    cr_expect_eq(gto_order.warp[3], 1);
    cr_assert_eq(timed_total_cycles(gto), 4 * DRAM + L2);
    cr_assert_eq(hierarchy_results(gto)->timed_total.stalls[STALL_THROTTLED], 0);
    hierarchy_free(ccws);
    hierarchy_free(gto);
    wst_memtrace_free(m);
}

/* The same trace with its one PC bypassing L1 (bypass-pc): the replayed L1
 * holds no line, so no warp loses one and CCWS never shuts warp 1 out.
 * Each load sends a 32 B sector to L2, whose misses fetch whole lines:
 *   0 X (DRAM 0..8) back 220; 1 Y (8..16) back 228; 220 X, an L2 hit,
 *   back 340; 228 Z (DRAM 228..236) back 448; 340 W (340..348) back 560.
 * The reference LRU L1 of the functional replay would have thrashed as
 * above (warp 0's second X a lost hit) and held Z back until warp 0's next
 * issue, at 340. */
Test(timed_l1_watch, ccws_watches_the_replayed_l1_not_the_reference_one)
{
    wst_memtrace *m = timed_trace(ccws_recs, 5, 1, 2);
    gpu_config c = one_line_l1();
    one_pc_bypass table;
    hierarchy_options o = timed_bypass_pc(&c, &table);
    seen order = {0};
    hierarchy *h = timed_run(m, &c, "rr,ccws", &o, &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.count, 5);
    uint64_t cycle[] = {0, 1, DRAM, LINE_XFER + DRAM, DRAM + L2};
    for (int i = 0; i < 5; i++)
        cr_expect_eq(order.cycle[i], cycle[i], "instruction %d", i);
    cr_assert_eq(r->total.l1.bypasses, 5);
    cr_assert_eq(r->timed_total.stalls[STALL_THROTTLED], 0);
    cr_assert_eq(timed_total_cycles(h), 2 * DRAM + L2);
    hierarchy_free(h);
    wst_memtrace_free(m);
}
