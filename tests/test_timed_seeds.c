/* tests/test_timed_seeds.c: the seed systems (docs/metrics.md §9) in the
 * timed replay (§12), each on a trace of a few records whose timeline is
 * worked by hand to its cycle (tests/timed_fixture.h: one SM and one
 * scheduler unless said; L1 20, L2 120, DRAM 220 cycles from issue; a DRAM
 * line transfer holds the channel 8 cycles).  Each test names its preset:
 * the paper's (S0, S1, S3 ch. 4: fermi; S4: dacache; S2: kepler-s2). */
#include <criterion/criterion.h>

#include <stdio.h>
#include <string.h>

#include "analyzer/bypass_advisor.h"
#include "analyzer/systems.h"
#include "tests/timed_fixture.h"

enum { L1 = TIMED_L1, L2 = TIMED_L2, DRAM = TIMED_DRAM, LINE_XFER = 8 };

/* Hierarchy options with a management system applied (systems.h). */
static hierarchy_options with_system(const gpu_config *c, const char *system)
{
    hierarchy_options o = {.seed = 1, .config = *c};
    ws_error err;
    cr_assert_eq(system_apply_list(system, &o, &err), 0, "%s", err.msg);
    return o;
}

static uint64_t l1_figure(const hierarchy *h, const char *name)
{
    const replay_results *r = hierarchy_results(h);
    for (uint32_t i = 0; i < r->l1_policy_stat_count; i++)
        if (strcmp(r->l1_policy_stats[i].name, name) == 0)
            return r->l1_policy_stats[i].value;
    cr_assert_fail("no L1 policy figure %s", name);
    return 0;
}

/* ---- S1: bypass ---- */

/* One MSHR.  Warp 0 misses X at 0 (back at 220); warp 1's load of Y at 1:
 * cached, it finds no MSHR and waits for X's (until 220), its DRAM transfer
 * then at 220, back at 440.  Bypassed (bypass-pc on the one PC), a load
 * takes no MSHR and no L1 line: warp 0's X goes at 0, warp 1's Y at 1 and
 * waits only for the DRAM channel (X's transfer holds it 0..8): back at 8 +
 * 220 = 228.  The bypassed requests fetch one 32 B sector each. */
Test(timed_seeds, s1_a_bypassed_load_takes_no_mshr)
{
    rec recs[] = {{.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {2}}};
    wst_memtrace *m = timed_trace(recs, 2, 1, 2);
    gpu_config c = timed_tiny_gpu("fermi");
    timed_set(&c, "mshr.entries=1");
    hierarchy *base = timed_run(m, &c, "rr,gto", NULL, NULL);
    cr_assert_eq(timed_total_cycles(base), 2 * DRAM);
    cr_assert_eq(hierarchy_results(base)->total.l1.reservation_fails, 1);

    /* bypass-pc: the trace's one PC goes around L1 (S1 §III-B). */
    one_pc_bypass table;
    hierarchy_options o = timed_bypass_pc(&c, &table);
    hierarchy *bypassed = timed_run(m, &c, "rr,gto", &o, NULL);
    const replay_results *r = hierarchy_results(bypassed);
    cr_assert_eq(timed_total_cycles(bypassed), LINE_XFER + DRAM);
    cr_assert_eq(r->total.l1.bypasses, 2);
    cr_assert_eq(r->total.l1.reservation_fails, 0);
    cr_assert_eq(r->total.traffic.l1_to_l2_read_bytes, 2 * 32);
    hierarchy_free(base);
    hierarchy_free(bypassed);
    wst_memtrace_free(m);
}

/* The same trace through the advisor (`bypass --timed`): both lines are
 * used once by one 4-byte lane, U = 32 ÷ 128 (sector-rounded) and R = 0,
 * so Eq. 1 marks them; the table's replay and the one PC's trial both run
 * the bypassed timeline: 228 cycles against the baseline's 440. */
Test(timed_seeds, s1_the_advice_is_verified_by_a_timed_replay)
{
    rec recs[] = {{.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {2}}};
    wst_memtrace *m = timed_trace(recs, 2, 1, 2);
    gpu_config c = timed_tiny_gpu("fermi");
    timed_set(&c, "mshr.entries=1");
    hierarchy_options o = {.seed = 1, .config = c, .timed = 1};
    replay_options ro;
    replay_options_default(&ro);
    ws_error err;
    cr_assert_eq(sched_options_parse("rr,gto", &ro.schedule, &err), 0);
    sched_source src = sched_source_memtrace(m);
    bypass_advice *a = bypass_advise(&src, &ro, &o, 24, BYPASS_U_SECTOR, 1, &err);
    cr_assert_not_null(a, "%s", err.msg);
    cr_assert(a->timed);
    cr_assert_eq(a->baseline_cycles, 2 * DRAM);
    cr_assert_eq(a->table_cycles, LINE_XFER + DRAM);
    cr_assert_eq(a->recommended, 1);
    cr_assert_eq(a->pcs_cycles, LINE_XFER + DRAM);
    cr_assert_eq(a->pcs[0].cycles_change, (int64_t)(LINE_XFER + DRAM) - 2 * DRAM);
    bypass_advice_free(a);
    sched_source_free(&src);
    wst_memtrace_free(m);
}

/* ---- S4: DaCache ---- */

/* The dacache preset (8 ways, 32 sets, linear index here so that lines
 * 32 apart share set 0), FCW 4: locality region = LRU-chain positions 0..3
 * (S4 §4.3, p = 4 × 32 ÷ 32 − 1).  Warps 0-7 each load one line of set 0
 * (coherent loads of a PC without intra-warp locality: inserted at the LRU
 * end, so line k sits at position k) at cycles 0-7; DRAM returns them at
 * 220 + 8k.  Warp 8 loads a ninth line of the set at 8: every way is
 * pending, so it waits until line 0's way frees at 220 (a reservation
 * fail).  Then line 0 is replaceable but in the locality region:
 *   dacache-uncon takes it: DRAM at 220, back 440;
 *   dacache-stall stalls the warp (it holds the LD/ST unit) until the first
 *     thrashing-region line, line 4, arrives at 220 + 32 = 252: back 472;
 *   dacache bypasses: one 32 B sector to L2 at 220, back 440, no line. */
static hierarchy *dacache_run(const char *policy, const wst_memtrace *m)
{
    gpu_config c = timed_tiny_gpu("dacache");
    timed_set(&c, "l1.index=linear");
    char set[64];
    snprintf(set, sizeof set, "l1.policy=%s", policy);
    timed_set(&c, set);
    return timed_run(m, &c, "rr,gto", NULL, NULL);
}

Test(timed_seeds, s4_constrained_replacement_stalls_or_bypasses)
{
    rec recs[9];
    for (uint32_t w = 0; w < 9; w++)
        recs[w] = (rec){.warp = w, .kind = WST_LOAD, .lanes = 1, .line = {32 * w}};
    wst_memtrace *m = timed_trace(recs, 9, 1, 9);

    hierarchy *uncon = dacache_run("dacache-uncon", m);
    cr_assert_eq(timed_total_cycles(uncon), DRAM + DRAM);
    cr_assert_eq(hierarchy_results(uncon)->total.l1.bypasses, 0);

    hierarchy *stall = dacache_run("dacache-stall", m);
    cr_assert_eq(timed_total_cycles(stall), DRAM + 4 * LINE_XFER + DRAM);
    cr_assert_eq(l1_figure(stall, "stalls"), 1);
    cr_assert_eq(l1_figure(stall, "stall_steps"), 4 * LINE_XFER);
    cr_assert_eq(hierarchy_results(stall)->total.l1.bypasses, 0);

    hierarchy *bypass = dacache_run("dacache", m);
    const replay_results *r = hierarchy_results(bypass);
    cr_assert_eq(timed_total_cycles(bypass), DRAM + DRAM);
    cr_assert_eq(l1_figure(bypass, "constrained_bypasses"), 1);
    cr_assert_eq(r->total.l1.bypasses, 1);
    cr_assert_eq(r->total.traffic.l1_to_l2_read_bytes, 8 * 128 + 32, "the bypass: one sector");
    hierarchy_free(uncon);
    hierarchy_free(stall);
    hierarchy_free(bypass);
    wst_memtrace_free(m);
}

/* The age rank DaCache's gauged insertion and FCW read is GTO's in the
 * timed scheduler: among the warps still live (with records left), oldest
 * first.  Warp 0 loads X at 0 and Y when X is back (220); warp 1 loads Z
 * at 1 (rank 1: warp 0 is older and live), and again when Z is back (228),
 * by then rank 0: warp 0 issued its last record at 220. */
Test(timed_seeds, s4_the_policy_sees_gto_age_ranks_of_the_timed_order)
{
    rec recs[] = {{.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {3}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {4}}};
    wst_memtrace *m = timed_trace(recs, 4, 1, 2);
    gpu_config c = timed_tiny_gpu("dacache");
    timed_set(&c, "l1.policy=dacache");
    seen order = {0};
    hierarchy *h = timed_run(m, &c, "rr,gto", NULL, &order);
    cr_assert_eq(order.count, 4);
    uint64_t cycle[] = {0, 1, DRAM, LINE_XFER + DRAM};
    uint32_t warp[] = {0, 1, 0, 1}, rank[] = {0, 1, 0, 0};
    for (int i = 0; i < 4; i++) {
        cr_expect_eq(order.cycle[i], cycle[i], "instruction %d", i);
        cr_expect_eq(order.warp[i], warp[i], "instruction %d", i);
        cr_expect_eq(order.age_rank[i], rank[i], "instruction %d", i);
    }
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* ---- S0: sharing-aware management ---- */

/* Two SMs, rr dispatch: CTA 0 (one warp) on SM 0, CTA 1 (two warps) on
 * SM 1.  At 0 SM 0 misses X: L2 at 0, DRAM, back at 220, owner SM 0.  At 0
 * SM 1's warp 0 misses X too: the slice takes it at 1, a hit on the line in
 * flight from another SM, which makes it shared (S0 §V); its L1 fill
 * carries the shared flag and waits for the line, back at 220.  At 1 SM
 * 1's warp 1 asks for X: the line is pending in its L1, a merge into the
 * MSHR of a shared line (S0 §VI-B's MSHR hits of shared blocks). */
Test(timed_seeds, s0_shared_requests_merge_into_mshrs)
{
    rec recs[] = {{.cta = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.cta = 1, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.cta = 1, .warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {1}}};
    wst_memtrace *m = timed_trace_grid(recs, 3, 2, 1, 2);
    gpu_config c = timed_tiny_gpu("fermi");
    c.sms = 2;
    hierarchy_options o = with_system(&c, "sharing-aware");
    hierarchy *h = timed_run(m, &c, "rr,gto", &o, NULL);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(timed_total_cycles(h), DRAM);
    cr_assert_eq(r->total.l1.misses, 2);
    cr_assert_eq(r->total.l1.pending_hits, 1);
    cr_assert_eq(r->total.l2.pending_hits, 1);
    cr_assert_eq(r->kernels[0].l2_became_shared, 1);
    cr_assert_eq(r->kernels[0].shared_mshr_hits, 1);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* S0's CTA dispatch drives the timed clock too: a 2 × 2 grid of one-warp
 * CTAs, each loading its own line, on two SMs of one CTA slot each.  qx
 * hands each SM a grid row (CTAs 0, 1 to SM 0; 2, 3 to SM 1): the second
 * CTA of a row starts when the first retires, at 220, on the same SM;
 * qx_adpt too (two groups for two SMs: no group is left to balance).  rr
 * hands out 0 and 1 first (SM 0, SM 1), then 2 and 3 as they retire.  bcs
 * waits for two free slots, which an SM of one slot never has, so it
 * dispatches single CTAs (docs/metrics.md §6), as rr. */
Test(timed_seeds, s0_cta_dispatch_in_the_timed_replay)
{
    rec recs[4];
    for (uint32_t k = 0; k < 4; k++)
        recs[k] = (rec){.cta = k, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {k + 1}};
    wst_memtrace *m = timed_trace_grid(recs, 4, 2, 2, 1);
    gpu_config c = timed_tiny_gpu("fermi");
    c.sms = 2;
    c.max_ctas_per_sm = 1;
    const char *schedules[] = {"qx,gto", "qx_adpt,gto", "rr,gto", "bcs,gto"};
    /* The SM of CTAs 0-3 under each. */
    uint32_t sm_of[][4] = {{0, 0, 1, 1}, {0, 0, 1, 1}, {0, 1, 0, 1}, {0, 1, 0, 1}};
    for (int s = 0; s < 4; s++) {
        seen order = {0};
        hierarchy *h = timed_run(m, &c, schedules[s], NULL, &order);
        cr_assert_eq(order.count, 4);
        for (uint32_t i = 0; i < 4; i++)
            cr_expect_eq(order.sm[i], sm_of[s][order.cta[i]], "%s: CTA %u", schedules[s],
                         order.cta[i]);
        /* Two rounds of one DRAM load, the second starting when the first
         * CTAs retire; the second pair's transfers queue behind each other. */
        cr_expect_geq(timed_total_cycles(h), 2 * DRAM, "%s", schedules[s]);
        hierarchy_free(h);
    }
    wst_memtrace_free(m);
}

/* ---- S3 ch. 4: the Cooperative Caching Network ---- */

/* Two SMs on the ring (4 cycles a hop), CCN-B (no throttler).  SM 0's warp
 * loads X at 0: it probes SM 1's L1 at 4 (empty), comes round the ring
 * (2 hops, 8 cycles) and reaches L2 at 8: DRAM, back at 228.  SM 1's warp
 * loads Z at 0: the same round, the slice's next cycle 9, DRAM after X's
 * transfer (8..16), back at 16 + 220 = 236; then X (it waits for Z): it finds X valid in
 * SM 0's L1 at 240, one hop away: a remote hit, back 2 hops later, at 244. */
Test(timed_seeds, s3_each_hop_costs_its_cycles)
{
    rec recs[] = {{.cta = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.cta = 1, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                  {.cta = 1, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}}};
    wst_memtrace *m = timed_trace_grid(recs, 3, 2, 1, 1);
    gpu_config c = timed_tiny_gpu("fermi");
    c.sms = 2;
    hierarchy_options o = with_system(&c, "ccn-b");
    seen order = {0};
    hierarchy *h = timed_run(m, &c, "rr,gto", &o, &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.count, 3);
    cr_expect_eq(order.cycle[2], 2 * LINE_XFER + DRAM);
    cr_assert_eq(timed_total_cycles(h), 2 * LINE_XFER + DRAM + 2 * 4);
    cr_assert_eq(r->ccn->total.remote_hits, 1);
    cr_assert_eq(r->ccn->total.hit_hops, 2);
    cr_assert_eq(r->total.traffic.l1_to_l2_requests, 2);
    hierarchy_free(h);
    wst_memtrace_free(m);
}

/* A copy still in flight is no remote hit (S3 §4.4.2).  Both SMs load X at
 * 0: SM 1's probe of SM 0's L1 at 4 finds X pending (back at 228), so it
 * goes round to L2 (at 9, a merge into the fill in flight: back at 228).
 * The functional replay, where a line is there from its miss on, calls
 * the same probe a remote hit. */
Test(timed_seeds, s3_a_remote_copy_in_flight_does_not_count)
{
    rec recs[] = {{.cta = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.cta = 1, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}}};
    wst_memtrace *m = timed_trace_grid(recs, 2, 2, 1, 1);
    gpu_config c = timed_tiny_gpu("fermi");
    c.sms = 2;
    hierarchy_options o = with_system(&c, "ccn-b");
    hierarchy *h = timed_run(m, &c, "rr,gto", &o, NULL);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(timed_total_cycles(h), 2 * 4 + DRAM);
    cr_assert_eq(r->ccn->total.remote_hits, 0);
    cr_assert_eq(r->total.l2.pending_hits, 1);
    hierarchy *f = functional_run(m, &c, "rr,gto", &o);
    cr_assert_eq(hierarchy_results(f)->ccn->total.remote_hits, 1);
    hierarchy_free(h);
    hierarchy_free(f);
    wst_memtrace_free(m);
}

/* The throttler (CCN-RT) samples and decides in cycles in the timed
 * replay: a 100-cycle sample at the start of each 1,000-cycle epoch.  One
 * warp on SM 0 of two: X at 0, in the sample, probes SM 1 (empty: no hit)
 * and goes round to L2 at 8, back at 228.  Y at 228 is past the sample:
 * 0 hits of 1 request is under 5%, so the ring is off for the epoch and Y
 * goes straight to L2, back at 228 + 220 = 448.  CCN-B (no throttler)
 * sends Y round the ring too: L2 at 236, back at 456. */
Test(timed_seeds, s3_the_throttler_decides_in_cycles)
{
    rec recs[] = {{.cta = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.cta = 0, .warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}}};
    wst_memtrace *m = timed_trace_grid(recs, 2, 1, 1, 1);
    gpu_config c = timed_tiny_gpu("fermi");
    c.sms = 2;
    hierarchy_options rt = with_system(&c, "ccn");
    rt.ccn.sample_steps = 100;
    rt.ccn.epoch_steps = 1000;
    hierarchy *h = timed_run(m, &c, "rr,gto", &rt, NULL);
    const ccn_results *r = hierarchy_results(h)->ccn;
    cr_assert_eq(timed_total_cycles(h), DRAM + 2 * 4 + DRAM);
    cr_assert_eq(r->total.epochs, 1);
    cr_assert_eq(r->total.ring_off_epochs, 1);
    cr_assert_eq(r->total.throttled, 1);
    hierarchy_options b = with_system(&c, "ccn-b");
    hierarchy *hb = timed_run(m, &c, "rr,gto", &b, NULL);
    cr_assert_eq(timed_total_cycles(hb), DRAM + 2 * 4 + 2 * 4 + DRAM);
    hierarchy_free(h);
    hierarchy_free(hb);
    wst_memtrace_free(m);
}

/* ---- S3 ch. 5: warp-tuple throttling (SWL, PCAL) ---- */

/* Warp 0 loads X, then Y (waiting for X); warp 1 loads Z.  GTO: X at 0, Z
 * at 1 (DRAM after X's transfer: back at 228), Y at 220 (back at 440).
 * swl:1 lets only the oldest live warp issue: warp 1 is ready from 1 but
 * throttled until warp 0 has issued its last record (Y at 220): Z at 221,
 * its transfer after Y's (228), back at 448; 219 throttled cycles. */
Test(timed_seeds, s3_swl_throttles_the_younger_warp)
{
    rec recs[] = {{.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {3}}};
    wst_memtrace *m = timed_trace(recs, 3, 1, 2);
    gpu_config c = timed_tiny_gpu("fermi");
    hierarchy *gto = timed_run(m, &c, "rr,gto", NULL, NULL);
    cr_assert_eq(timed_total_cycles(gto), 2 * DRAM);
    seen order = {0};
    hierarchy *swl = timed_run(m, &c, "rr,swl:1", NULL, &order);
    cr_assert_eq(order.cycle[2], DRAM + 1);
    cr_assert_eq(timed_total_cycles(swl), DRAM + LINE_XFER + DRAM);
    cr_assert_eq(hierarchy_results(swl)->timed_total.stalls[STALL_THROTTLED], DRAM - 1);
    timed_assert_cycles_add_up(swl, &c);
    hierarchy_free(gto);
    hierarchy_free(swl);
    wst_memtrace_free(m);
}

/* A throttled SM sleeps rather than asking its order again every cycle
 * (sched_timed.c next_wake; warp_order.h steady_when_idle), and every
 * figure is the same as stepping each cycle: swl:1 against the same order
 * that does not say it is steady.  Two schedulers, 2 MSHRs: warps 0 and 2
 * on the first, warp 1 alone on the second.  Warp 1 loads at 0 (back at
 * 220); warp 0, after a gap instruction at 0, loads 8 lines at 1, whose
 * requests wait for MSHRs and hold the LD/ST unit for hundreds of cycles.
 * From 2 the SM issues nothing: warp 2 is held back, warps 0 and 1 wait
 * for their data.  At 220 warp 1's data is back but the LD/ST unit is
 * not free: its scheduler's stall turns from memory to pipeline while the
 * SM sleeps, so the SM must wake there. */
Test(timed_seeds, s3_a_throttled_sm_sleeps_with_the_figures_of_every_cycle)
{
    rec recs[] = {{.warp = 0, .kind = WST_LOAD, .lanes = 8, .line = {10, 11, 12, 13, 14, 15, 16, 17}, .gap = 1, .has_waits = 1},
                  {.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {50}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {51}},
                  {.warp = 2, .kind = WST_LOAD, .lanes = 1, .line = {60}}};
    wst_memtrace *m = timed_trace(recs, 5, 1, 3);
    gpu_config c = timed_tiny_gpu("fermi");
    c.schedulers_per_sm = 2;
    timed_set(&c, "mshr.entries=2");
    warp_order_ops stepping = warp_order_swl;
    stepping.steady_when_idle = 0;
    hierarchy *asleep = timed_run_order(m, &c, "rr,swl:1", &warp_order_swl);
    hierarchy *stepped = timed_run_order(m, &c, "rr,swl:1", &stepping);
    const replay_results *a = hierarchy_results(asleep), *b = hierarchy_results(stepped);
    /* The case is the one the sleep must get right: throttled and
     * pipeline cycles both. */
    cr_assert_gt(b->timed_total.stalls[STALL_THROTTLED], 0);
    cr_assert_gt(b->timed_total.stalls[STALL_PIPELINE], 0);
    cr_assert_eq(timed_total_cycles(asleep), timed_total_cycles(stepped));
    for (uint32_t i = 0; i < 2 * STALL_CAUSES; i++)
        cr_assert_eq(a->scheduler_stalls[i], b->scheduler_stalls[i], "scheduler %u, cause %u",
                     i / STALL_CAUSES, i % STALL_CAUSES);
    cr_assert_eq(a->timed_total.issue_cycles, b->timed_total.issue_cycles);
    cr_assert_eq(a->timed_total.instructions, b->timed_total.instructions);
    cr_assert_eq(a->total.l1.hits, b->total.l1.hits);
    cr_assert_eq(a->total.load_miss_latency, b->total.load_miss_latency);
    timed_assert_cycles_add_up(asleep, &c);
    hierarchy_free(asleep);
    hierarchy_free(stepped);
    wst_memtrace_free(m);
}

/* One MSHR; warp 0 loads X, then Y (waiting for X); warp 1 loads Z.
 * Under GTO warp 1's miss of Z at 1 waits for X's MSHR until 220, holding
 * the LD/ST unit: DRAM at 220, back at 440; warp 0's Y then waits for Z's
 * MSHR: back at 660.  Under pcal:2,1 warp 1 (age rank 1) issues but may not
 * allocate: its miss takes no line and no MSHR, so it goes at 1 (DRAM after
 * X's transfer, back at 228), a miss not allocated (S3 ch. 5), not a
 * bypass; Y gets X's MSHR at 220: back at 440. */
Test(timed_seeds, s3_pcal_non_polluting_miss_takes_no_mshr)
{
    rec recs[] = {{.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {3}}};
    wst_memtrace *m = timed_trace(recs, 3, 1, 2);
    gpu_config c = timed_tiny_gpu("fermi");
    timed_set(&c, "mshr.entries=1");
    hierarchy *gto = timed_run(m, &c, "rr,gto", NULL, NULL);
    cr_assert_eq(timed_total_cycles(gto), 3 * DRAM);
    seen order = {0};
    hierarchy *pcal = timed_run(m, &c, "rr,pcal:2,1", NULL, &order);
    const replay_results *r = hierarchy_results(pcal);
    cr_assert_eq(order.cycle[1], 1);
    cr_assert_eq(order.cycle[2], DRAM);
    cr_assert_eq(timed_total_cycles(pcal), 2 * DRAM);
    cr_assert_eq(r->total.l1.misses_not_allocated, 1);
    cr_assert_eq(r->total.l1.bypasses, 0);
    hierarchy_free(gto);
    hierarchy_free(pcal);
    wst_memtrace_free(m);
}

/* ---- S2: LCM's inter-warp coalescing ---- */

/* The kepler-s2 preset, T = 2.  Warps 0 and 1 load X at 0 and 1 (a miss,
 * then a merge into its MSHR): the generation has 2 accesses from 2 warps,
 * so it closes as inter-warp (S2 §4.1) and the PC coalesces from then on.
 * Warp 2 loads Y at 2: it takes a coalescing tag and misses (DRAM after X's
 * transfer, back at 228).  Warp 3's load of Y at 3 merges into the tag (no
 * L1 access) and gets its data with the tag's, at 228 (the coalescer's
 * wait), so its next load, of Z, issues at 228, not at 4. */
Test(timed_seeds, s2_a_merged_request_waits_for_its_tags_data)
{
    rec recs[] = {{.warp = 0, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.warp = 1, .kind = WST_LOAD, .lanes = 1, .line = {1}},
                  {.warp = 2, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                  {.warp = 3, .kind = WST_LOAD, .lanes = 1, .line = {2}},
                  {.warp = 3, .kind = WST_LOAD, .lanes = 1, .line = {9}}};
    wst_memtrace *m = timed_trace(recs, 5, 1, 4);
    gpu_config c = timed_tiny_gpu("kepler-s2");
    hierarchy_options o = with_system(&c, "lcm-coalesce");
    o.lcm.threshold = 2;
    seen order = {0};
    hierarchy *h = timed_run(m, &c, "rr,gto", &o, &order);
    const replay_results *r = hierarchy_results(h);
    cr_assert_eq(order.count, 5);
    cr_assert_eq(order.warp[4], 3);
    cr_assert_eq(order.cycle[4], LINE_XFER + DRAM);
    cr_assert_eq(r->lcm->total.merged_requests, 1);
    cr_assert_eq(timed_total_cycles(h), LINE_XFER + DRAM + DRAM);
    hierarchy_free(h);
    wst_memtrace_free(m);
}
