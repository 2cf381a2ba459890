/* tests/test_timed.c: the timed replay (docs/metrics.md §12) on traces of a
 * few records, each timeline worked by hand to its cycle.
 *
 * The GPU: one SM, one scheduler, one L2 slice; L1 hit 20 cycles, L2 120,
 * DRAM 220 (issue to data back); one request a cycle through the LD/ST
 * unit and the slice; 16 bytes a cycle of DRAM; 32 MSHRs of 8 merges.
 * Lines are 128 B, so a DRAM line transfer holds the channel 8 cycles. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/replay.h"
#include "formats/memtrace.h"
#include "formats/sink.h"
#include "tests/timed_fixture.h"
#include "tests/trace_gen.h"

enum { L1 = TIMED_L1, L2 = TIMED_L2, DRAM = TIMED_DRAM };

static wst_memtrace *trace_of(const rec *recs, size_t n, uint32_t kernels, uint32_t warps)
{
    return timed_trace(recs, n, kernels, warps);
}
static gpu_config tiny_gpu(void) { return timed_tiny_gpu("fermi"); }
static hierarchy *run_timed(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                            seen *order)
{
    return timed_run(m, c, schedule, NULL, order);
}
static uint64_t kernel_cycles(const hierarchy *h, uint32_t k) { return timed_kernel_cycles(h, k); }
static void assert_cycles_add_up(const hierarchy *h, const gpu_config *c)
{
    timed_assert_cycles_add_up(h, c);
}

/* A store at 0 (to L2, never waited for); a load of X at 1: L1 and L2
 * miss, DRAM, back at 1 + 220 = 221; a load of X that waits for it
 * (blocking loads): at 221 an L1 hit, back at 241; a load of the stored
 * line Y that waits for that: at 241 an L1 miss and an L2 hit, back at
 * 241 + 120 = 361, when the warp and the kernel end. */
Test(timed, one_warp_l1_l2_dram)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {7}},
                  {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {7}}};
    wst_memtrace *m = trace_of(recs, 4, 1, 1);
    gpu_config c = tiny_gpu();
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    cr_assert_eq(order.count, 4);
    cr_assert_eq(order.cycle[0], 0);
    cr_assert_eq(order.cycle[1], 1);
    cr_assert_eq(order.cycle[2], 1 + DRAM);
    cr_assert_eq(order.cycle[3], 1 + DRAM + L1);
    cr_assert_eq(kernel_cycles(h, 0), 1 + DRAM + L1 + L2);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(r->timed_total.instructions, 4);
    /* Issued at 0, 1, 221, 241; waiting on memory 2..220 and 222..240;
     * no warp left to issue 242..360. */
    cr_assert_eq(r->timed_total.issue_cycles, 4);
    cr_assert_eq(r->timed_total.stalls[STALL_MEMORY], 219 + 19);
    cr_assert_eq(r->timed_total.stalls[STALL_NO_WARP], 119);
    const latency_counts *l = &r->total.latency;
    cr_assert_eq(l->requests[SERVED_DRAM], 1);
    cr_assert_eq(l->cycles[SERVED_DRAM], DRAM);
    cr_assert_eq(l->cycles[SERVED_L1], L1);
    cr_assert_eq(l->cycles[SERVED_L2], L2);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* Two warps load X: warp 0 misses at 0 (back at 220), warp 1 merges into
 * its MSHR at 1 and gets the line with it, at 220. */
Test(timed, two_warps_merge_into_one_mshr)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}}, {.kernel = 0, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {1}}};
    wst_memtrace *m = trace_of(recs, 2, 1, 2);
    gpu_config c = tiny_gpu();
    hierarchy *h = run_timed(m, &c, "rr,gto", NULL);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(kernel_cycles(h, 0), DRAM);
    cr_assert_eq(r->total.l1.misses, 1);
    cr_assert_eq(r->total.l1.pending_hits, 1);
    cr_assert_eq(r->total.l1.hits, 0);
    cr_assert_eq(r->total.latency.cycles[SERVED_L1_MERGE], DRAM - 1);
    cr_assert_eq(r->total.traffic.l1_to_l2_requests, 1);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* One MSHR.  Warp 0 misses X at 0 (back at 220).  Warp 1's miss of Y at
 * 1 finds no MSHR: it waits, holding the LD/ST unit, until 220, then goes
 * to DRAM: back at 440.  Warp 2 cannot issue its load of Z until the unit
 * is free at 221 (a pipeline stall, 2..220), then waits for Y's MSHR:
 * DRAM at 440, back at 660. */
Test(timed, mshrs_exhausted_stall_and_retry)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}}, {.kernel = 0, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {2}}, {.kernel = 0, .warp = 2, .kind = WST_LOAD, .lanes = 1, .line = {3}}};
    wst_memtrace *m = trace_of(recs, 3, 1, 3);
    gpu_config c = tiny_gpu();
    ws_error err;
    cr_assert_eq(config_override(&c, "--set", "mshr.entries=1", &err), 0);
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.cycle[1], 1);
    cr_assert_eq(order.cycle[2], DRAM + 1);
    cr_assert_eq(kernel_cycles(h, 0), 3 * DRAM);
    cr_assert_eq(r->total.l1.reservation_fails, 2);
    cr_assert_eq(r->total.l1.bypasses, 0, "a stall, never a bypass");
    cr_assert_eq(r->total.l1.misses, 3);
    cr_assert_eq(r->timed_total.stalls[STALL_PIPELINE], DRAM - 1);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* A run of m on tiny_gpu with `schedulers` schedulers and one MSHR, in
 * *c; issued_at[w][i]: the cycle warp w issued its i-th memory
 * instruction (up to 4 warps of 2). */
static hierarchy *run_one_mshr(const wst_memtrace *m, uint32_t schedulers, gpu_config *c,
                               uint64_t issued_at[][2])
{
    *c = tiny_gpu();
    c->schedulers_per_sm = schedulers;
    ws_error err;
    cr_assert_eq(config_override(c, "--set", "mshr.entries=1", &err), 0);
    seen order = {0};
    hierarchy *h = run_timed(m, c, "rr,gto", &order);
    uint32_t n[4] = {0};
    for (uint32_t i = 0; i < order.count; i++)
        issued_at[order.warp[i]][n[order.warp[i]]++] = order.cycle[i];
    return h;
}

/* Two schedulers (warp w on scheduler w mod 2), one MSHR.  Scheduler 0:
 * warp 0 misses X at 0 (back at 220); warp 2's miss of Y at 1 finds no
 * MSHR and holds the LD/ST unit until 220 (free at 221); warp 0's load of
 * X again waits for X until 220, then for the unit: issued at 221 (an L1
 * hit).  So scheduler 0 stalls on memory 2..219 and on the pipeline at 220
 * only.  Scheduler 1 issues a gap instruction every cycle 0..249 and its
 * store at 250, so the SM is looked at every cycle: scheduler 0, passed
 * over while its warps all wait (sched_timed.c, quiet_until), must still
 * be looked at when warp 0's ready_at passes, as stepping every cycle
 * would see its stall turn from memory to pipeline. */
Test(timed, a_quiet_scheduler_is_looked_at_when_its_stall_changes)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 1, .kind = WST_STORE, .lanes = 1, .line = {9}, .gap = 250, .has_waits = 1},
                  {.kernel = 0, .warp = 2, .kind = WST_LOAD, .lanes = 1, .line = {2}}};
    wst_memtrace *m = trace_of(recs, 4, 1, 3);
    gpu_config c;
    uint64_t issued_at[3][2] = {{0}}; /* the memory instructions, by warp */
    hierarchy *h = run_one_mshr(m, 2, &c, issued_at);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(issued_at[0][0], 0);
    cr_assert_eq(issued_at[2][0], 1);
    cr_assert_eq(issued_at[0][1], DRAM + 1);
    cr_assert_eq(issued_at[1][0], 250);
    const uint64_t *s0 = r->scheduler_stalls, *s1 = r->scheduler_stalls + STALL_CAUSES;
    cr_assert_eq(s0[STALL_MEMORY], DRAM - 2);
    cr_assert_eq(s0[STALL_PIPELINE], 1);
    cr_assert_eq(s1[STALL_MEMORY], 0);
    cr_assert_eq(s1[STALL_PIPELINE], 0);
    cr_assert_eq(r->total.l1.hits, 1);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* The same as above with one scheduler, so nothing keeps the SM awake:
 * warp 0 misses X at 0 (back at 220), warp 1's miss of Y at 1 finds no
 * MSHR and holds the LD/ST unit until 220 (free at 221), warp 0's second
 * load of X waits for X until 220 and then for the unit: issued at 221.
 * The SM sleeps from 2, and must still wake when warp 0's ready_at passes,
 * as stepping every cycle would see the stall turn from memory to
 * pipeline at 220: memory 2..219, pipeline 220. */
Test(timed, a_sleeping_sm_wakes_when_its_stall_changes)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {2}}};
    wst_memtrace *m = trace_of(recs, 3, 1, 2);
    gpu_config c;
    uint64_t issued_at[2][2] = {{0}};
    hierarchy *h = run_one_mshr(m, 1, &c, issued_at);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(issued_at[0][0], 0);
    cr_assert_eq(issued_at[1][0], 1);
    cr_assert_eq(issued_at[0][1], DRAM + 1);
    const uint64_t *s0 = r->scheduler_stalls;
    cr_assert_eq(s0[STALL_MEMORY], DRAM - 2);
    cr_assert_eq(s0[STALL_PIPELINE], 1);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* The cycle after an SM issues, its schedulers are looked at ahead, at
 * the end of the issuing visit (sched_timed.c, wake_after_issue): a
 * scheduler with no warp that can issue is charged then, and one that has
 * one is issued from next cycle with the look taken as made.  Two
 * schedulers.  Scheduler 0: warp 0 misses X at 0 (back at 220), then
 * loads X again at 220 (an L1 hit, back at 240).  Scheduler 1: warp 1's
 * gap of 2 at 0 and 1, then its miss of Y at 2 (back at 222), and it has
 * no warp left.  So scheduler 0 stalls on memory 1..219, and on no warp
 * 221..239; scheduler 1 has no warp 3..239; the CTA retires at 240. */
Test(timed, the_cycle_after_an_issue_is_looked_at_ahead)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {2}, .gap = 2, .has_waits = 1}};
    wst_memtrace *m = trace_of(recs, 3, 1, 2);
    gpu_config c = tiny_gpu();
    c.schedulers_per_sm = 2;
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.count, 3);
    cr_assert_eq(order.warp[0], 0);
    cr_assert_eq(order.cycle[0], 0);
    cr_assert_eq(order.warp[1], 1);
    cr_assert_eq(order.cycle[1], 2);
    cr_assert_eq(order.warp[2], 0);
    cr_assert_eq(order.cycle[2], DRAM);
    cr_assert_eq(kernel_cycles(h, 0), DRAM + L1);
    cr_assert_eq(r->timed_total.instructions, 5);
    const uint64_t *s0 = r->scheduler_stalls, *s1 = r->scheduler_stalls + STALL_CAUSES;
    cr_assert_eq(s0[STALL_MEMORY], DRAM - 1);
    cr_assert_eq(s0[STALL_PIPELINE], 0);
    cr_assert_eq(s0[STALL_NO_WARP], L1 - 1);
    cr_assert_eq(s1[STALL_MEMORY], 0);
    cr_assert_eq(s1[STALL_PIPELINE], 0);
    cr_assert_eq(s1[STALL_NO_WARP], DRAM + L1 - 3);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* An L1 of one set of 4 ways.  Warps 0-3 miss lines A-D at 0-3; their
 * DRAM transfers start 8 cycles apart (16 B a cycle), so they are back at
 * 220, 228, 236, 244.  Warp 4's miss of E at 4 finds every way pending
 * (a reservation fail): it waits until A is back at 220, takes A's way,
 * and is back at 440. */
Test(timed, set_with_every_way_pending)
{
    rec recs[5];
    for (uint32_t w = 0; w < 5; w++)
        recs[w] = (rec){.kernel = 0, .warp = w, .kind = WST_LOAD, .lanes = 1, .line = {1 + w}};
    wst_memtrace *m = trace_of(recs, 5, 1, 5);
    gpu_config c = tiny_gpu();
    ws_error err;
    cr_assert_eq(config_override(&c, "--l1", "512:4:128", &err), 0, "%s", err.msg);
    hierarchy *h = run_timed(m, &c, "rr,gto", NULL);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(kernel_cycles(h, 0), 2 * DRAM);
    cr_assert_eq(r->total.l1.reservation_fails, 1);
    cr_assert_eq(r->total.latency.cycles[SERVED_DRAM], 220 + 227 + 234 + 241 + 436);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* One load of 4 lines, the LD/ST unit taking 4 requests a cycle and DRAM
 * 4096 bytes: the slice takes one request a cycle, so they are looked up
 * at 0, 1, 2, 3 and the last is back at 3 + 220.  At 4 requests a cycle
 * the slice takes them all at 0. */
Test(timed, one_l2_slice_saturated)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 4, .line = {1, 2, 3, 4}}};
    wst_memtrace *m = trace_of(recs, 1, 1, 1);
    gpu_config c = tiny_gpu();
    ws_error err;
    cr_assert_eq(config_override(&c, "--set", "timing.ldst_requests_per_cycle=4", &err), 0);
    cr_assert_eq(config_override(&c, "--set", "timing.dram_bytes_per_cycle=4096", &err), 0);
    hierarchy *h = run_timed(m, &c, "rr,gto", NULL);
    cr_assert_eq(kernel_cycles(h, 0), 3 + DRAM);
    cr_assert_eq(hierarchy_results(h)->l2_queues[0].wait_cycles, 0 + 1 + 2 + 3);
    hierarchy_free(h);
    cr_assert_eq(config_override(&c, "--set", "timing.l2_requests_per_cycle=4", &err), 0);
    h = run_timed(m, &c, "rr,gto", NULL);
    cr_assert_eq(kernel_cycles(h, 0), DRAM);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* The same load on a sectored L2 (32 B sectors): the unsectored L1 asks
 * for whole lines, and the slice looks each of a line's 4 sectors up in a
 * slot of its own (docs/metrics.md §12), so the four lines are looked up
 * at 0, 4, 8, 12 and the last is back at 12 + 220. */
Test(timed, a_sectored_l2_takes_a_slot_per_sector)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 4, .line = {1, 2, 3, 4}}};
    wst_memtrace *m = trace_of(recs, 1, 1, 1);
    gpu_config c = tiny_gpu();
    ws_error err;
    cr_assert_eq(config_override(&c, "--set", "l2.sector=32", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&c, "--set", "timing.ldst_requests_per_cycle=4", &err), 0);
    cr_assert_eq(config_override(&c, "--set", "timing.dram_bytes_per_cycle=4096", &err), 0);
    hierarchy *h = run_timed(m, &c, "rr,gto", NULL);
    cr_assert_eq(kernel_cycles(h, 0), 12 + DRAM);
    cr_assert_eq(hierarchy_results(h)->l2_queues[0].wait_cycles, 0 + 4 + 8 + 12);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* The same load with the slice at 4 requests a cycle and DRAM at 16
 * bytes: the four line transfers start at 0, 8, 16, 24; the last is back
 * at 24 + 220. */
Test(timed, dram_bandwidth_bound)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 4, .line = {1, 2, 3, 4}}};
    wst_memtrace *m = trace_of(recs, 1, 1, 1);
    gpu_config c = tiny_gpu();
    ws_error err;
    cr_assert_eq(config_override(&c, "--set", "timing.ldst_requests_per_cycle=4", &err), 0);
    cr_assert_eq(config_override(&c, "--set", "timing.l2_requests_per_cycle=4", &err), 0);
    hierarchy *h = run_timed(m, &c, "rr,gto", NULL);
    cr_assert_eq(kernel_cycles(h, 0), 24 + DRAM);
    cr_assert_eq(hierarchy_results(h)->dram_queues[0].wait_cycles, 0 + 8 + 16 + 24);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* Two warps of two stores and a load each (stores never wait, so a warp
 * stays ready until its load).  GTO keeps the greedy warp 0 until it
 * waits: 0 0 0 1 1 1.  LRR takes the ready warps in turn: 0 1 0 1 0 1. */
Test(timed, gto_stays_greedy_lrr_rotates)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {1}}, {.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {2}}, {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {3}},
                  {.kernel = 0, .warp = 1, .kind = WST_STORE, .lanes = 1, .line = {4}}, {.kernel = 0, .warp = 1, .kind = WST_STORE, .lanes = 1, .line = {5}}, {.kernel = 0, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {6}}};
    wst_memtrace *m = trace_of(recs, 6, 1, 2);
    gpu_config c = tiny_gpu();
    seen gto = {0}, lrr = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &gto);
    hierarchy_free(h);
    h = run_timed(m, &c, "rr,lrr", &lrr);
    hierarchy_free(h);
    const uint32_t gto_order[] = {0, 0, 0, 1, 1, 1}, lrr_order[] = {0, 1, 0, 1, 0, 1};
    cr_assert_eq(gto.count, 6);
    cr_assert_eq(lrr.count, 6);
    for (int i = 0; i < 6; i++) {
        cr_assert_eq(gto.warp[i], gto_order[i], "gto issue %d", i);
        cr_assert_eq(lrr.warp[i], lrr_order[i], "lrr issue %d", i);
        cr_assert_eq(gto.cycle[i], (uint64_t)i, "one issue a cycle");
    }
    wst_memtrace_free(m);
}

/* A store never stalls its warp: store, store, load issue at 0, 1, 2
 * though no store's data ever comes back. */
Test(timed, a_store_never_stalls)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {1}}, {.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {1}}, {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}}};
    wst_memtrace *m = trace_of(recs, 3, 1, 1);
    gpu_config c = tiny_gpu();
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    cr_assert_eq(order.cycle[2], 2);
    cr_assert_eq(kernel_cycles(h, 0), 2 + DRAM);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* A warp ends only when its stores are acknowledged: one store at 0, its
 * slice's acknowledgement 120 cycles after its lookup at 0; the kernel's
 * one CTA retires then (as GPGPU-Sim retires a warp once its stores are
 * done). */
Test(timed, a_warp_ends_when_its_stores_are_acknowledged)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {1}}};
    wst_memtrace *m = trace_of(recs, 1, 1, 1);
    gpu_config c = tiny_gpu();
    hierarchy *h = run_timed(m, &c, "rr,gto", NULL);
    cr_assert_eq(kernel_cycles(h, 0), L2);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* Two kernels of one load of X each.  Kernel 0: DRAM, 220 cycles.  Kernel
 * 1 starts when kernel 0's last CTA retires, at 220, with its L1 flushed
 * and L2 warm: an L2 hit, 120 cycles; it ends at 340. */
Test(timed, kernel_boundary)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}}, {.kernel = 1, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}}};
    wst_memtrace *m = trace_of(recs, 2, 2, 1);
    gpu_config c = tiny_gpu();
    hierarchy *h = run_timed(m, &c, "rr,gto", NULL);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(r->kernels[0].timed.start_cycle, 0);
    cr_assert_eq(r->kernels[0].timed.end_cycle, DRAM);
    cr_assert_eq(r->kernels[1].timed.start_cycle, DRAM);
    cr_assert_eq(r->kernels[1].timed.end_cycle, DRAM + L2);
    cr_assert_eq(r->kernels[1].counts.l2.hits, 1);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* A gap of non-memory instructions takes one issue slot each.  A load of X
 * at 0 (back at 220); a store with a gap of 5 that waits for nothing: the
 * gap at 1-5, the store at 6; a load of Z that waits for nothing at 7,
 * whose DRAM transfer starts when X's 8 cycles end: back at 8 + 220.
 * 8 instructions. */
Test(timed, gap_takes_issue_slots)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {2}, .gap = 5, .has_waits = 1},
                  {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {3}, .has_waits = 1}};
    wst_memtrace *m = trace_of(recs, 3, 1, 1);
    gpu_config c = tiny_gpu();
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.cycle[1], 6);
    cr_assert_eq(order.cycle[2], 7);
    cr_assert_eq(kernel_cycles(h, 0), 8 + DRAM);
    cr_assert_eq(r->timed_total.instructions, 8);
    cr_assert_eq(r->timed_total.memory_instructions, 3);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* A gap instruction needs no LD/ST unit (sched_timed.c counts each
 * scheduler's warps in a gap, gap_warps, and looks for a ready warp while
 * the unit is held only when there is one).  One MSHR, no LD/ST queue.
 * Warp 0 misses A at 0 (back at 220); warp 1's miss of B at 1 waits for
 * the MSHR, holding the unit until 220 (B back at 440); warp 2 has a store
 * after a gap of 3: the gap at 2, 3 and 4 while the unit is held, then its
 * store waits for the unit (a pipeline stall, 5..220) and issues at 221.
 * No warp is left after it: the kernel ends when B is back. */
Test(timed, a_gap_issues_while_the_ldst_unit_is_held)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                  {.kernel = 0, .warp = 2, .kind = WST_STORE, .lanes = 1, .line = {3}, .gap = 3, .has_waits = 1}};
    wst_memtrace *m = trace_of(recs, 3, 1, 3);
    gpu_config c = tiny_gpu();
    ws_error err;
    cr_assert_eq(config_override(&c, "--set", "mshr.entries=1", &err), 0);
    cr_assert_eq(config_override(&c, "--set", "timing.ldst_queue=0", &err), 0, "%s", err.msg);
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.count, 3);
    const uint64_t cycle[3] = {0, 1, DRAM + 1};
    for (uint32_t i = 0; i < 3; i++) {
        cr_assert_eq(order.warp[i], i);
        cr_assert_eq(order.cycle[i], cycle[i], "warp %u at %llu", i,
                     (unsigned long long)order.cycle[i]);
    }
    cr_assert_eq(r->timed_total.instructions, 6, "3 records and 3 gap instructions");
    cr_assert_eq(r->scheduler_stalls[STALL_PIPELINE], DRAM - 4, "5..220");
    cr_assert_eq(kernel_cycles(h, 0), 2 * DRAM);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* A record waits only for the loads it names.  X at 0 (back at 220), Y at
 * 1 (its DRAM transfer starts at 8, back at 228); a store that uses X (bit
 * 1: the second most recent load) issues at 220, one that names nothing
 * after it at 221.  Without waits (blocking loads) the load of Y itself
 * waits for X, until 220.  And a gap waits with its record: 3 gap
 * instructions after X that use it issue at 220-222, the store at 223. */
Test(timed, waits_name_the_loads)
{
    rec named[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}, .has_waits = 1},
                   {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}, .has_waits = 1},
                   {.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {3}, .waits = 1u << 1, .has_waits = 1},
                   {.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {4}, .has_waits = 1}};
    gpu_config c = tiny_gpu();
    seen order = {0};
    wst_memtrace *m = trace_of(named, 4, 1, 1);
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    cr_assert_eq(order.cycle[2], DRAM);
    cr_assert_eq(order.cycle[3], DRAM + 1);
    hierarchy_free(h);
    wst_memtrace_free(m);

    rec blocking[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}}, {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                      {.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {3}}};
    m = trace_of(blocking, 3, 1, 1);
    memset(&order, 0, sizeof order);
    h = run_timed(m, &c, "rr,gto", &order);
    cr_assert_eq(order.cycle[1], DRAM, "blocking: the second load waits for the first");
    hierarchy_free(h);
    wst_memtrace_free(m);

    rec gap[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}, .has_waits = 1},
                 {.kernel = 0, .warp = 0, .kind = WST_STORE, .lanes = 1, .line = {3}, .gap = 3, .waits = 1, .has_waits = 1}};
    m = trace_of(gap, 2, 1, 1);
    memset(&order, 0, sizeof order);
    h = run_timed(m, &c, "rr,gto", &order);
    cr_assert_eq(order.cycle[1], DRAM + 3);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* ---- properties ---- */

/* A random trace: 14 CTAs of 4 warps, 1 to 8 loads or stores a warp, on
 * 1 to 4 of 64 lines each. */
static wst_memtrace *random_trace(uint64_t seed)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel kernel = {.name = "k", .grid = {14, 1, 1}, .block = {128, 1, 1}};
    cr_assert_geq(wst_sink_add_kernel(&s, &kernel, &err), 0);
    for (uint32_t p = 0; p < 4; p++)
        cr_assert_geq(wst_sink_add_pc(&s, 0, &(wst_pc){.offset = p * 16}, &err), 0);
    uint64_t rng = seed;
    for (uint32_t cta = 0; cta < 14; cta++)
        for (uint32_t w = 0; w < 4; w++) {
            uint32_t n = 1 + (uint32_t)(test_rand(&rng) % 8);
            for (uint32_t i = 0; i < n; i++) {
                wst_record r;
                memset(&r, 0, sizeof r);
                r.cta = cta;
                r.warp = w;
                r.pc = (uint32_t)(test_rand(&rng) % 4);
                r.kind = test_rand(&rng) % 4 ? WST_LOAD : WST_STORE;
                r.size = 4;
                uint32_t lanes = 1 + (uint32_t)(test_rand(&rng) % 4);
                for (uint32_t l = 0; l < lanes; l++) {
                    r.mask |= 1u << l;
                    r.addr[l] = 0x10000000 + (test_rand(&rng) % 64) * 128 + l * 4;
                }
                cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0);
            }
        }
    return m;
}

/* Each SM's instructions in issue order: (global warp id, PC). */
typedef struct per_sm_order {
    uint32_t warp[3][512], pc[3][512];
    uint32_t count[3];
} per_sm_order;

static void record_per_sm(void *ctx, const replay_issue *is)
{
    per_sm_order *o = ctx;
    uint32_t n = o->count[is->sm]++;
    cr_assert_lt(n, 512);
    o->warp[is->sm][n] = is->warp;
    o->pc[is->sm][n] = is->pc;
}

static void replay_order(const wst_memtrace *m, const gpu_config *c, int timed,
                         per_sm_order *order)
{
    hierarchy_options o = {.config = *c, .seed = 1, .timed = timed};
    o.observers[o.observer_count++] = (l1_observer){.ctx = order, .instruction_end = record_per_sm};
    replay_options ro;
    replay_options_default(&ro);
    ws_error err;
    cr_assert_eq(sched_options_parse("rr,lrr", &ro.schedule, &err), 0);
    sched_source src = sched_source_memtrace(m);
    hierarchy *h = NULL;
    cr_assert_eq(replay_run(&src, c, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
    hierarchy_free(h);
    sched_source_free(&src);
}

/* With every latency 0 and queues, MSHRs and the LD/ST unit unbounded,
 * nothing waits, and each SM's timed order is the functional order under
 * the same warp order (LRR; one scheduler a SM, so that the functional
 * order's one issue per SM per step is the timed one issue a cycle).  GTO
 * differs by design: the functional GTO leaves a warp that missed in the
 * reference L1 for gto_k issues, the timed one only when it waits for its
 * data (docs/replay.md, "Timed replay"). */
Test(timed, zero_latency_order_equals_functional)
{
    gpu_config c = tiny_gpu();
    ws_error err;
    c.sms = 3;
    const char *sets[] = {"timing.l1_latency=0", "latency.l2=0", "latency.dram=0",
                          "timing.ldst_requests_per_cycle=64", "timing.l2_requests_per_cycle=64",
                          "timing.dram_bytes_per_cycle=4096", "mshr.entries=4096",
                          "mshr.merges=4096", "max_ctas_per_sm=2"};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++)
        cr_assert_eq(config_override(&c, "--set", sets[i], &err), 0, "%s", err.msg);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        wst_memtrace *m = random_trace(seed);
        per_sm_order *functional = calloc(1, sizeof *functional);
        per_sm_order *timed = calloc(1, sizeof *timed);
        replay_order(m, &c, 0, functional);
        replay_order(m, &c, 1, timed);
        for (uint32_t s = 0; s < 3; s++) {
            cr_assert_eq(timed->count[s], functional->count[s], "seed %llu SM %u",
                         (unsigned long long)seed, s);
            for (uint32_t i = 0; i < timed->count[s]; i++) {
                cr_assert_eq(timed->warp[s][i], functional->warp[s][i], "seed %llu SM %u at %u",
                             (unsigned long long)seed, s, i);
                cr_assert_eq(timed->pc[s][i], functional->pc[s][i]);
            }
        }
        free(functional);
        free(timed);
        wst_memtrace_free(m);
    }
}

/* The timed replay is deterministic, and `compare` (several hierarchies,
 * one decode, a closed loop each) gives each hierarchy exactly what its
 * own replay gives. */
Test(timed, deterministic_and_compare_equals_separate_replays)
{
    gpu_config c = tiny_gpu();
    c.sms = 3;
    wst_memtrace *m = random_trace(7);
    const char *policies[] = {"lru", "fifo", "srrip"};
    hierarchy_options o[3];
    for (int i = 0; i < 3; i++) {
        o[i] = (hierarchy_options){.config = c, .seed = 1, .timed = 1};
        snprintf(o[i].config.l1.policy, sizeof o[i].config.l1.policy, "%s", policies[i]);
    }
    replay_options ro;
    replay_options_default(&ro);
    sched_source src = sched_source_memtrace(m);
    ws_error err;
    hierarchy *together[3], *alone[3], *again[3];
    cr_assert_eq(replay_run(&src, &c, &ro, o, 3, together, NULL, &err), 0, "%s", err.msg);
    for (int i = 0; i < 3; i++) {
        cr_assert_eq(replay_run(&src, &c, &ro, &o[i], 1, &alone[i], NULL, &err), 0);
        cr_assert_eq(replay_run(&src, &c, &ro, &o[i], 1, &again[i], NULL, &err), 0);
    }
    for (int i = 0; i < 3; i++) {
        const replay_results *a = hierarchy_results(together[i]), *b = hierarchy_results(alone[i]),
                             *d = hierarchy_results(again[i]);
        cr_assert_eq(memcmp(&a->total, &b->total, sizeof a->total), 0, "%s", policies[i]);
        cr_assert_eq(memcmp(&a->timed_total, &b->timed_total, sizeof a->timed_total), 0);
        cr_assert_eq(memcmp(&b->total, &d->total, sizeof b->total), 0);
        cr_assert_eq(memcmp(&b->timed_total, &d->timed_total, sizeof b->timed_total), 0);
        cr_assert_gt(a->timed_total.end_cycle, 0);
        hierarchy_free(together[i]);
        hierarchy_free(alone[i]);
        hierarchy_free(again[i]);
    }
    sched_source_free(&src);
    wst_memtrace_free(m);
}

/* OPT needs the future of its issue order, which its own hits would
 * change in a closed loop; so in the timed replay it rides the order of a
 * timed LRU run (docs/replay.md, "Timed replay").  Its clock is that run's
 * and its hits bound those of any policy on that order: at least LRU's
 * hits and merges, which a functional cache following LRU's choices would
 * all count as hits. */
Test(timed, opt_rides_the_timed_lru_order_and_bounds_it)
{
    gpu_config c = tiny_gpu();
    c.sms = 3;
    ws_error err;
    cr_assert_eq(config_override(&c, "--l1", "1K:2:128", &err), 0);
    for (uint64_t seed = 1; seed <= 10; seed++) {
        wst_memtrace *m = random_trace(seed);
        hierarchy_options o[2];
        for (int i = 0; i < 2; i++) {
            o[i] = (hierarchy_options){.config = c, .seed = 1, .timed = 1};
            snprintf(o[i].config.l1.policy, sizeof o[i].config.l1.policy, i ? "opt" : "lru");
        }
        replay_options ro;
        replay_options_default(&ro);
        sched_source src = sched_source_memtrace(m);
        hierarchy *h[2];
        cr_assert_eq(replay_run(&src, &c, &ro, o, 2, h, NULL, &err), 0, "%s", err.msg);
        const replay_results *lru = hierarchy_results(h[0]), *opt = hierarchy_results(h[1]);
        cr_assert(opt->timed_by_lru);
        cr_assert_eq(opt->timed_total.end_cycle, lru->timed_total.end_cycle);
        cr_assert_eq(opt->total.l1.accesses, lru->total.l1.accesses);
        cr_assert_geq(opt->total.l1.hits, lru->total.l1.hits + lru->total.l1.pending_hits,
                      "seed %llu", (unsigned long long)seed);
        hierarchy_free(h[0]);
        hierarchy_free(h[1]);
        sched_source_free(&src);
        wst_memtrace_free(m);
    }
}

/* timing.ldst_queue (docs/metrics.md §12): memory instructions issued to
 * wait, in issue order, for a busy LD/ST unit.  One MSHR.  Warp 0 misses
 * A at 0 (back at 220); warp 1's miss of B at 1 waits for the MSHR,
 * holding the unit, until 220 (B back at 440); warp 2 loads C; warp 0
 * loads A again once its data is back (220).
 * - No queue (0): warp 2 cannot issue while the unit is busy.  At 221 the
 *   unit is free and GTO picks the oldest ready warp, warp 0: an L1 hit,
 *   back at 241.  Warp 2 issues at 222; C waits for B's MSHR (440), back
 *   at 660.
 * - A queue of 1: warp 2 issues at 2 and waits in it; its request reaches
 *   L1 at 221, after B's, and waits for the MSHR until 440, holding the
 *   unit.  Warp 0 issues at 221 (warp 1's instruction has left the queue,
 *   so it has room) but its request goes after warp 2's: looked up at
 *   441, back at 461.  The unit serves in issue order, not by age. */
static void ldst_queue_case(uint32_t queue, const uint64_t issued_at[4],
                            const uint32_t warp_order[4], uint64_t second_a_latency)
{
    rec recs[] = {{.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.kernel = 0, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                  {.kernel = 0, .warp = 2, .kind = WST_LOAD, .lanes = 1, .line = {3}}};
    wst_memtrace *m = trace_of(recs, 4, 1, 3);
    gpu_config c = tiny_gpu();
    ws_error err;
    char set[48];
    snprintf(set, sizeof set, "timing.ldst_queue=%u", queue);
    cr_assert_eq(config_override(&c, "--set", "mshr.entries=1", &err), 0);
    cr_assert_eq(config_override(&c, "--set", set, &err), 0, "%s", err.msg);
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.count, 4);
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(order.cycle[i], issued_at[i], "queue %u, issue %d", queue, i);
        cr_assert_eq(order.warp[i], warp_order[i], "queue %u, issue %d", queue, i);
    }
    cr_assert_eq(kernel_cycles(h, 0), 3 * DRAM);
    cr_assert_eq(r->total.l1.hits, 1);
    cr_assert_eq(r->total.latency.cycles[SERVED_L1], second_a_latency);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

Test(timed, ldst_queue_serves_in_issue_order)
{
    ldst_queue_case(0, (const uint64_t[]){0, 1, DRAM + 1, DRAM + 2}, (const uint32_t[]){0, 1, 0, 2},
                    L1);
    ldst_queue_case(1, (const uint64_t[]){0, 1, 2, DRAM + 1}, (const uint32_t[]){0, 1, 2, 0},
                    2 * DRAM + 1 + L1 - (DRAM + 1));
}

/* A queue deeper than 64 is refused with the field named. */
Test(timed, ldst_queue_bounded)
{
    gpu_config c = tiny_gpu();
    ws_error err;
    cr_assert_neq(config_override(&c, "--set", "timing.ldst_queue=65", &err), 0);
    cr_assert(strstr(err.msg, "timing.ldst_queue") != NULL, "%s", err.msg);
}

/* A GPU launches every CTA of the grid, those whose threads exit at once
 * too, which a trace holds no record of (docs/metrics.md §12).  A 3 × 1
 * grid of one-warp CTAs on two SMs of one CTA slot: CTA 0 has no record,
 * CTAs 1 and 2 load lines of their own.  At 0 CTA 0 takes SM 0 and CTA 1
 * SM 1, whose load is at DRAM 0..8, back at 220; at 1 CTA 0 retires and
 * CTA 2 takes SM 0: its load reaches the slice at 1, its transfer starts
 * at 8, back at 228, when the kernel ends. */
Test(timed, a_cta_without_records_still_takes_a_slot)
{
    rec recs[] = {{.cta = 1, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.cta = 2, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}}};
    wst_memtrace *m = timed_trace_grid(recs, 2, 3, 1, 1);
    gpu_config c = tiny_gpu();
    c.sms = 2;
    c.max_ctas_per_sm = 1;
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    cr_assert_eq(order.count, 2);
    cr_assert_eq(order.cta[0], 1);
    cr_assert_eq(order.sm[0], 1);
    cr_assert_eq(order.cycle[0], 0);
    cr_assert_eq(order.cta[1], 2);
    cr_assert_eq(order.sm[1], 0, "SM 0 was CTA 0's until it retired");
    cr_assert_eq(order.cycle[1], 1);
    cr_assert_eq(kernel_cycles(h, 0), DRAM + 8);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* The clock visits the SMs in blocks of 8 (sched_internal.h,
 * SCHED_WAKE_BLOCK), stepping over a block whose SMs all sleep; each SM
 * still wakes at its own cycle.  17 SMs (blocks 0-7, 8-15 and 16 alone),
 * a 17 × 1 grid of one-warp CTAs, CTA k on SM k: k × 10 gap instructions
 * (one a cycle, 0 to 10k - 1), a load of a line of its own at 10k (a DRAM
 * transfer each, 10 cycles apart, so none queues: back at 10k + 220), and
 * a store that waits for it, at 10k + 220.  From 71 block 0 sleeps while
 * blocks 1 and 2 issue gap instructions; from 161 to 219 all three do. */
Test(timed, sms_in_blocks_wake_at_their_own_cycles)
{
    enum { SMS = 17 };
    rec recs[2 * SMS];
    for (uint32_t k = 0; k < SMS; k++) {
        recs[2 * k] = (rec){.cta = k, .kind = WST_LOAD, .lanes = 1, .line = {100 + k},
                            .gap = 10 * k, .has_waits = 1};
        recs[2 * k + 1] = (rec){.cta = k, .kind = WST_STORE, .lanes = 1, .line = {200 + k}};
    }
    wst_memtrace *m = timed_trace_grid(recs, 2 * SMS, SMS, 1, 1);
    gpu_config c = tiny_gpu();
    c.sms = SMS;
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    cr_assert_eq(order.count, 2 * SMS);
    for (uint32_t i = 0; i < 2 * SMS; i++) {
        uint32_t k = i % SMS;
        uint64_t at = 10 * k + (i < SMS ? 0 : DRAM);
        cr_assert_eq(order.sm[i], k, "instruction %u", i);
        cr_assert_eq(order.cta[i], k, "instruction %u", i);
        cr_assert_eq(order.cycle[i], at, "instruction %u at %llu, not %llu", i,
                     (unsigned long long)order.cycle[i], (unsigned long long)at);
    }
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* A warp keeps the back cycle of its 32 latest loads, and bit 31 of
 * `waits` names also every older one (docs/metrics.md §12).  Kernel 0
 * loads lines 102-133 (4 records of 8 lines; line k's DRAM transfer starts
 * at 8k, the last back at 220 + 8 × 31 = 468, when the kernel ends).
 * Kernel 1, from T = 468: loads 0 and 1 of new lines at T and T + 1 (their
 * transfers start at T and T + 8: back at T + 220 and T + 228), loads 2-33
 * of lines 102-133 at T + 2 to T + 33, hits back by T + 33 + 120.  A store
 * naming bit 31 (load 2 and the two loads older than the history) waits
 * for load 1: T + 228. */
Test(timed, waits_reach_loads_older_than_the_history)
{
    enum { WARM = 4, LOADS = 34 };
    rec recs[WARM + LOADS + 1];
    for (uint32_t j = 0; j < WARM; j++) {
        recs[j] = (rec){.kernel = 0, .kind = WST_LOAD, .lanes = 8, .has_waits = 1};
        for (uint32_t l = 0; l < 8; l++)
            recs[j].line[l] = 102 + 8 * j + l;
    }
    for (uint32_t i = 0; i < LOADS; i++)
        recs[WARM + i] = (rec){.kernel = 1, .kind = WST_LOAD, .lanes = 1, .line = {100 + i},
                               .has_waits = 1};
    recs[WARM + LOADS] = (rec){.kernel = 1, .kind = WST_STORE, .lanes = 1, .line = {1},
                               .waits = 1u << 31, .has_waits = 1};
    wst_memtrace *m = trace_of(recs, WARM + LOADS + 1, 2, 1);
    gpu_config c = tiny_gpu();
    timed_set(&c, "mshr.entries=64");
    seen order = {0};
    hierarchy *h = run_timed(m, &c, "rr,gto", &order);
    const uint64_t t = DRAM + 8 * 31;
    cr_assert_eq(kernel_cycles(h, 0), t);
    cr_assert_eq(order.count, WARM + LOADS + 1);
    for (uint32_t i = 0; i < LOADS; i++)
        cr_assert_eq(order.cycle[WARM + i], t + i, "load %u of kernel 1 at %llu", i,
                     (unsigned long long)order.cycle[WARM + i]);
    cr_assert_eq(order.cycle[WARM + LOADS], t + DRAM + 8, "the store at %llu",
                 (unsigned long long)order.cycle[WARM + LOADS]);
    assert_cycles_add_up(h, &c);
    hierarchy_free(h);
    wst_memtrace_free(m);
}
