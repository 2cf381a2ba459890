/* tests/test_sched.c: the scheduler model of docs/metrics.md §6 on small hand-checked
 * grids, and its invariants on random traces. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/sched.h"
#include "tests/trace_gen.h"

/* addr[0] encodes (cta, warp, i) so tests can read the order back. */
#define ENCODE(cta, warp, i) (((uint64_t)(cta) << 32) | ((uint64_t)(warp) << 16) | (i))

/* A gx × gy grid; CTA `missing` (UINT32_MAX: none) has no records, as when
 * a kernel's CTA makes no memory access.  Each warp of CTA c has
 * per_cta[c] records, or per_warp when per_cta is NULL. */
static wst_memtrace *uneven_grid_trace(uint32_t gx, uint32_t gy, uint32_t warps,
                                       uint32_t per_warp, const uint32_t *per_cta,
                                       int with_time, uint32_t missing)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel k = {.name = "k", .grid = {gx, gy, 1}, .block = {32 * warps, 1, 1}};
    wst_sink_add_kernel(&s, &k, &err);
    wst_pc pc = {.offset = 0};
    wst_sink_add_pc(&s, 0, &pc, &err);
    for (uint32_t cta = 0; cta < gx * gy; cta++)
        for (uint32_t i = 0; i < (per_cta ? per_cta[cta] : per_warp) && cta != missing; i++)
            for (uint32_t w = 0; w < warps; w++) {
                wst_record r;
                memset(&r, 0, sizeof r);
                r.cta = cta;
                r.warp = w;
                r.size = 4;
                r.mask = 1;
                r.addr[0] = ENCODE(cta, w, i);
                if (with_time) {
                    r.has_sm = r.has_time = 1;
                    r.sm = (uint16_t)(cta % 2);
                    r.timestamp = 1000 - cta * 10 + i * 100 + w; /* later CTAs start earlier */
                }
                wst_sink_add_record(&s, 0, &r, &err);
            }
    return m;
}

static wst_memtrace *grid_trace_without(uint32_t gx, uint32_t gy, uint32_t warps,
                                        uint32_t per_warp, int with_time, uint32_t missing)
{
    return uneven_grid_trace(gx, gy, warps, per_warp, NULL, with_time, missing);
}

static wst_memtrace *grid_trace(uint32_t gx, uint32_t gy, uint32_t warps, uint32_t per_warp,
                                int with_time)
{
    return grid_trace_without(gx, gy, warps, per_warp, with_time, UINT32_MAX);
}

static gpu_config small_gpu(uint32_t sms, uint32_t ctas_per_sm)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = sms;
    c.max_ctas_per_sm = ctas_per_sm;
    return c;
}

typedef struct run_log {
    uint32_t dispatch_cta[64], dispatch_sm[64], dispatches;
    uint64_t issued[4096];
    uint32_t issued_sm[4096];
    uint32_t age_rank[4096];
    uint8_t may_allocate[4096];
    uint32_t issues, retires, kernels_begun, kernels_ended;
} run_log;

static run_log run(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                   sched_miss_fn miss, void *ctx)
{
    sched_options o;
    ws_error err;
    cr_assert_eq(sched_options_parse(schedule, &o, &err), 0, "%s", err.msg);
    sched_source src = sched_source_memtrace(m);
    sched *s = sched_new(c, &o, &src, miss, ctx, &err);
    run_log log;
    memset(&log, 0, sizeof log);
    sched_event e;
    int rc;
    while ((rc = sched_next(s, &e, &err)) == 1) {
        switch (e.kind) {
        case SCHED_KERNEL_BEGIN: log.kernels_begun++; break;
        case SCHED_KERNEL_END: log.kernels_ended++; break;
        case SCHED_CTA_RETIRE: log.retires++; break;
        case SCHED_CTA_DISPATCH:
            log.dispatch_cta[log.dispatches] = e.cta;
            log.dispatch_sm[log.dispatches++] = e.sm;
            break;
        case SCHED_ISSUE:
            cr_assert_eq(e.record->cta, e.cta);
            log.issued_sm[log.issues] = e.sm;
            log.age_rank[log.issues] = e.age_rank;
            log.may_allocate[log.issues] = e.may_allocate;
            log.issued[log.issues++] = e.record->addr[0];
            break;
        }
    }
    cr_assert_eq(rc, 0, "%s", err.msg);
    cr_assert_leq(sched_peak_resident_ctas(s), c->sms * c->max_ctas_per_sm,
                  "only resident CTAs are held");
    sched_free(s);
    sched_source_free(&src);
    return log;
}

Test(sched, rr_placement)
{
    /* 8 CTAs, 2 SMs with 2 slots: CTA i -> SM i mod 2 until full (0,1,2,3);
     * then a finished CTA's SM takes the next CTA in linear order. */
    wst_memtrace *m = grid_trace(8, 1, 1, 1, 0);
    gpu_config c = small_gpu(2, 2);
    run_log log = run(m, &c, "rr,lrr", NULL, NULL);
    cr_assert_eq(log.dispatches, 8);
    uint32_t want_sm[4] = {0, 1, 0, 1};
    for (uint32_t i = 0; i < 4; i++) {
        cr_assert_eq(log.dispatch_cta[i], i);
        cr_assert_eq(log.dispatch_sm[i], want_sm[i]);
    }
    /* One issue per SM per step: CTA 0 (SM0) then CTA 1 (SM1) retire first. */
    cr_assert_eq(log.issued[0], ENCODE(0, 0, 0));
    cr_assert_eq(log.issued[1], ENCODE(1, 0, 0));
    cr_assert_eq(log.dispatch_cta[4], 4);
    cr_assert_eq(log.dispatch_sm[4], 0, "SM 0 freed first and takes CTA 4");
    cr_assert_eq(log.dispatch_sm[5], 1);
    cr_assert_eq(log.retires, 8);
    cr_assert_eq(log.kernels_begun, 1);
    cr_assert_eq(log.kernels_ended, 1);
    wst_memtrace_free(m);
}

/* A kernel of fewer CTAs than SMs: the SMs that take none hold no arrays
 * (sched.c, sm_arrays), yet every order may be asked about them (LRR reads
 * their live flags).  2 CTAs of one warp and 2 records on 4 SMs of one
 * slot: CTA i on SM i, one issue per SM per step, under each order. */
Test(sched, sms_without_a_cta_take_no_part)
{
    wst_memtrace *m = grid_trace(2, 1, 1, 2, 0);
    gpu_config c = small_gpu(4, 1);
    const char *schedules[] = {"rr,gto", "rr,lrr", "rr,ccws", "rr,lws", "rr,swl:1", "bcs,lrr"};
    const uint64_t want[4] = {ENCODE(0, 0, 0), ENCODE(1, 0, 0), ENCODE(0, 0, 1), ENCODE(1, 0, 1)};
    for (size_t k = 0; k < sizeof schedules / sizeof *schedules; k++) {
        run_log log = run(m, &c, schedules[k], NULL, NULL);
        cr_assert_eq(log.dispatches, 2, "%s", schedules[k]);
        cr_assert_eq(log.dispatch_sm[0], 0, "%s", schedules[k]);
        cr_assert_eq(log.dispatch_sm[1], 1, "%s (BCS: one slot, single CTAs)", schedules[k]);
        cr_assert_eq(log.issues, 4, "%s", schedules[k]);
        for (uint32_t i = 0; i < 4; i++)
            cr_assert_eq(log.issued[i], want[i], "%s: issue %u", schedules[k], i);
        cr_assert_eq(log.retires, 2);
    }
    wst_memtrace_free(m);
}

/* An SM's arrays hold one CTA until it takes a second at once, then grow
 * (sched.c, sm_grow), and a CTA packed in its own slot (no cta_cache) is
 * read from where its slot moved: 3 CTAs of one warp and 2 records on one
 * SM of 3 slots each issue their own records, each once. */
Test(sched, an_sm_that_takes_more_ctas_grows_and_keeps_their_records)
{
    wst_memtrace *m = grid_trace(3, 1, 1, 2, 0);
    gpu_config c = small_gpu(1, 3);
    run_log log = run(m, &c, "rr,lrr", NULL, NULL);
    cr_assert_eq(log.dispatches, 3);
    cr_assert_eq(log.issues, 6);
    for (uint32_t cta = 0; cta < 3; cta++)
        for (uint32_t i = 0; i < 2; i++) {
            uint32_t seen = 0;
            for (uint32_t k = 0; k < log.issues; k++)
                seen += log.issued[k] == ENCODE(cta, 0, i);
            cr_assert_eq(seen, 1, "CTA %u record %u", cta, i);
        }
    wst_memtrace_free(m);
}

Test(sched, an_sms_ctas_depend_on_the_other_sms_records)
{
    /* Why a split of analyze by SM repeats the whole schedule on every rank
     * (docs/analysis.md "Ranks"): 3 CTAs of one warp, 2 SMs of one slot.
     * CTA 0 goes to SM 0, CTA 1 (2 records) to SM 1; the SMs issue in turn,
     * so CTA 2 goes to whichever SM retires first, which SM 0's record count
     * decides: with 1 record CTA 0 retires at step 1, before CTA 1 (step 2),
     * and SM 0 takes CTA 2; with 3 records it retires at step 3, after, and
     * SM 1 does, though nothing of SM 1's own records changed. */
    gpu_config c = small_gpu(2, 1);
    const uint32_t short_first[3] = {1, 2, 1}, long_first[3] = {3, 2, 1};
    const uint32_t *records[2] = {short_first, long_first};
    const uint32_t cta2_on[2] = {0, 1};
    for (int v = 0; v < 2; v++) {
        wst_memtrace *m = uneven_grid_trace(3, 1, 1, 0, records[v], 0, UINT32_MAX);
        run_log log = run(m, &c, "rr,lrr", NULL, NULL);
        cr_assert_eq(log.dispatches, 3);
        cr_assert_eq(log.dispatch_sm[0], 0);
        cr_assert_eq(log.dispatch_sm[1], 1);
        cr_assert_eq(log.dispatch_cta[2], 2);
        cr_assert_eq(log.dispatch_sm[2], cta2_on[v], "CTA 0 with %u records: CTA 2 on SM %u",
                     records[v][0], cta2_on[v]);
        wst_memtrace_free(m);
    }
}

Test(sched, qx_groups_rows_of_ctas)
{
    /* Grid 4x2: qx groups each row (4 consecutive CTAs) on one SM. */
    wst_memtrace *m = grid_trace(4, 2, 1, 1, 0);
    gpu_config c = small_gpu(2, 2);
    run_log log = run(m, &c, "qx,lrr", NULL, NULL);
    for (uint32_t i = 0; i < log.dispatches; i++)
        cr_assert_eq(log.dispatch_sm[i], log.dispatch_cta[i] / 4, "CTA %u", log.dispatch_cta[i]);
    cr_assert_eq(log.dispatch_cta[0], 0);
    cr_assert_eq(log.dispatch_cta[1], 4);
    wst_memtrace_free(m);
}

Test(sched, qx_on_a_1d_grid_and_qn)
{
    /* 1-D grid of 12 on 2 SMs: N = min(12, ceil(12/2)) = 6. */
    wst_memtrace *m = grid_trace(12, 1, 1, 1, 0);
    gpu_config c = small_gpu(2, 2);
    run_log log = run(m, &c, "qx,lrr", NULL, NULL);
    for (uint32_t i = 0; i < log.dispatches; i++)
        cr_assert_eq(log.dispatch_sm[i], log.dispatch_cta[i] / 6);
    /* q3: groups of 3: {0,1,2} SM0, {3,4,5} SM1, {6,7,8} to whichever SM
     * finishes its group first, ... every group stays on one SM. */
    log = run(m, &c, "q3,lrr", NULL, NULL);
    uint32_t group_sm[4] = {9, 9, 9, 9};
    for (uint32_t i = 0; i < log.dispatches; i++) {
        uint32_t g = log.dispatch_cta[i] / 3;
        if (group_sm[g] == 9)
            group_sm[g] = log.dispatch_sm[i];
        cr_assert_eq(log.dispatch_sm[i], group_sm[g], "group %u split", g);
    }
    wst_memtrace_free(m);
}

Test(sched, qx_adpt_switches_to_rr)
{
    /* 2-D grid 2x5 on 4 SMs: 5 groups of 2.  Groups 0-3 go to SMs 0-3; then
     * 1 group < 4 SMs remain, so its CTAs spread like rr. */
    wst_memtrace *m = grid_trace(2, 5, 1, 1, 0);
    gpu_config c = small_gpu(4, 1);
    run_log log = run(m, &c, "qx_adpt,lrr", NULL, NULL);
    cr_assert_eq(log.dispatches, 10);
    uint32_t sm_of[10];
    for (uint32_t i = 0; i < 10; i++)
        sm_of[log.dispatch_cta[i]] = log.dispatch_sm[i];
    cr_assert_eq(sm_of[0], 0);
    cr_assert_eq(sm_of[2], 1);
    cr_assert_neq(sm_of[8], sm_of[9], "the last group is spread");
    wst_memtrace_free(m);
}

Test(sched, bcs_dispatches_pairs)
{
    wst_memtrace *m = grid_trace(8, 1, 1, 1, 0);
    gpu_config c = small_gpu(2, 2);
    run_log log = run(m, &c, "bcs,lrr", NULL, NULL);
    for (uint32_t i = 0; i < log.dispatches; i += 2) {
        cr_assert_eq(log.dispatch_cta[i + 1], log.dispatch_cta[i] + 1);
        cr_assert_eq(log.dispatch_sm[i + 1], log.dispatch_sm[i], "pairs share an SM");
    }
    wst_memtrace_free(m);
}

Test(sched, qx_groups_are_grid_rows_when_a_cta_is_missing)
{
    /* docs/metrics.md §6: groups are cut by linear CTA id.  A 2×2 grid without CTA 1:
     * row 0 is {0} alone, row 1 is {2, 3}; CTA 2 must not join row 0. */
    wst_memtrace *m = grid_trace_without(2, 2, 1, 1, 0, 1);
    gpu_config c = small_gpu(2, 2);
    const char *schedules[] = {"qx,gto", "q2,lrr"};
    for (int p = 0; p < 2; p++) {
        run_log log = run(m, &c, schedules[p], NULL, NULL);
        cr_assert_eq(log.dispatches, 3, "%s", schedules[p]);
        for (uint32_t i = 0; i < log.dispatches; i++)
            cr_assert_eq(log.dispatch_sm[i], log.dispatch_cta[i] / 2, "%s: CTA %u on SM %u",
                         schedules[p], log.dispatch_cta[i], log.dispatch_sm[i]);
    }
    wst_memtrace_free(m);
}

Test(sched, qn_skips_groups_the_trace_lacks)
{
    /* q2 over 8 CTAs without CTA 2: groups {0,1} {3} {4,5} {6,7}; on 4 SMs
     * with room for one group each, group g goes to SM g. */
    wst_memtrace *m = grid_trace_without(8, 1, 1, 1, 0, 2);
    gpu_config c = small_gpu(4, 2);
    run_log log = run(m, &c, "q2,lrr", NULL, NULL);
    cr_assert_eq(log.dispatches, 7);
    for (uint32_t i = 0; i < log.dispatches; i++)
        cr_assert_eq(log.dispatch_sm[i], log.dispatch_cta[i] / 2, "CTA %u on SM %u",
                     log.dispatch_cta[i], log.dispatch_sm[i]);
    wst_memtrace_free(m);
}

Test(sched, bcs_with_one_slot_dispatches_single_ctas)
{
    /* docs/metrics.md §6: an SM that can hold one CTA of the kernel takes single CTAs;
     * it never waits for a second slot that cannot exist. */
    wst_memtrace *m = grid_trace(6, 1, 2, 3, 0);
    gpu_config c = small_gpu(2, 1);
    run_log log = run(m, &c, "bcs,gto", NULL, NULL);
    cr_assert_eq(log.dispatches, 6);
    cr_assert_eq(log.issues, 6 * 2 * 3, "every record issued");
    cr_assert_eq(log.retires, 6);
    wst_memtrace_free(m);
}

Test(sched, gto_greedy_choice_is_a_warp_not_a_slot)
{
    /* docs/metrics.md §6: one SM with 2 CTA slots, one scheduler, three one-warp CTAs.
     * When CTA 0's warp finishes, CTA 2 takes its slot; the next pick is the
     * oldest ready warp (CTA 1's), not the newcomer in the greedy slot. */
    wst_memtrace *m = grid_trace(3, 1, 1, 2, 0);
    gpu_config c = small_gpu(1, 2);
    c.schedulers_per_sm = 1;
    run_log log = run(m, &c, "rr,gto", NULL, NULL);
    cr_assert_eq(log.issues, 6);
    for (uint32_t i = 0; i < 6; i++)
        cr_assert_eq(log.issued[i], ENCODE(i / 2, 0, i % 2), "issue %u: CTA %llu", i,
                     (unsigned long long)(log.issued[i] >> 32));
    wst_memtrace_free(m);
}

Test(sched, age_rank_is_the_position_among_the_schedulers_live_warps)
{
    /* One scheduler, 4 warps of 1, 1, 2, 2 records under lrr (order w0 w1
     * w2 w3 w2 w3): a warp's rank counts the older warps still live, so
     * each finished warp moves the younger ones up. */
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel k = {.name = "k", .grid = {1, 1, 1}, .block = {128, 1, 1}};
    wst_sink_add_kernel(&s, &k, &err);
    wst_sink_add_pc(&s, 0, &(wst_pc){.offset = 0}, &err);
    uint32_t records[4] = {1, 1, 2, 2};
    for (uint32_t w = 0; w < 4; w++)
        for (uint32_t i = 0; i < records[w]; i++) {
            wst_record r;
            memset(&r, 0, sizeof r);
            r.warp = w;
            r.size = 4;
            r.mask = 1;
            r.addr[0] = ENCODE(0, w, i);
            wst_sink_add_record(&s, 0, &r, &err);
        }
    gpu_config c = small_gpu(1, 1);
    c.schedulers_per_sm = 1;
    run_log log = run(m, &c, "rr,lrr", NULL, NULL);
    cr_assert_eq(log.issues, 6);
    uint32_t want[6] = {0, 0, 0, 1, 0, 0};
    for (int i = 0; i < 6; i++)
        cr_expect_eq(log.age_rank[i], want[i], "issue %d: rank %u (record %llx)", i, log.age_rank[i],
                     (unsigned long long)log.issued[i]);
    wst_memtrace_free(m);
}

Test(sched, lrr_interleaves_warps)
{
    /* One CTA of 4 warps, 2 records each, 1 SM with 2 schedulers: warps 0,2
     * on scheduler 0 and 1,3 on scheduler 1; the SM alternates schedulers. */
    wst_memtrace *m = grid_trace(1, 1, 4, 2, 0);
    gpu_config c = small_gpu(1, 1);
    run_log log = run(m, &c, "rr,lrr", NULL, NULL);
    uint64_t want[8] = {ENCODE(0, 0, 0), ENCODE(0, 1, 0), ENCODE(0, 2, 0), ENCODE(0, 3, 0),
                        ENCODE(0, 0, 1), ENCODE(0, 1, 1), ENCODE(0, 2, 1), ENCODE(0, 3, 1)};
    for (int i = 0; i < 8; i++)
        cr_assert_eq(log.issued[i], want[i], "issue %d", i);
    wst_memtrace_free(m);
}

static int miss_on_warp0_first(void *ctx, const sched_event *e)
{
    (void)ctx;
    return (e->record->addr[0] & 0xffff) == 0 && ((e->record->addr[0] >> 16) & 0xffff) == 0;
}

Test(sched, gto_greedy_then_oldest)
{
    /* One scheduler: GTO keeps issuing the oldest warp until it misses. */
    wst_memtrace *m = grid_trace(1, 1, 3, 3, 0);
    gpu_config c = small_gpu(1, 1);
    c.schedulers_per_sm = 1;
    run_log greedy = run(m, &c, "rr,gto", NULL, NULL);
    for (int i = 0; i < 9; i++)
        cr_assert_eq(greedy.issued[i], ENCODE(0, i / 3, i % 3), "no misses: warp by warp");
    /* Warp 0's first access misses: warp 1 (next oldest) runs until warp 0
     * is ready again K = 8 issues later... warp 1 and 2 finish first. */
    run_log missed = run(m, &c, "rr,gto", miss_on_warp0_first, NULL);
    cr_assert_eq(missed.issued[0], ENCODE(0, 0, 0));
    cr_assert_eq(missed.issued[1], ENCODE(0, 1, 0));
    cr_assert_eq(missed.issued[3], ENCODE(0, 1, 2));
    cr_assert_eq(missed.issued[4], ENCODE(0, 2, 0));
    cr_assert_eq(missed.issued[7], ENCODE(0, 0, 1), "warp 0 again once every other warp is done");
    wst_memtrace_free(m);
}

Test(sched, recorded_follows_timestamps_and_sm_ids)
{
    wst_memtrace *m = grid_trace(4, 1, 2, 2, 1);
    gpu_config c = small_gpu(2, 4);
    run_log log = run(m, &c, "recorded", NULL, NULL);
    cr_assert_eq(log.issues, 16);
    uint64_t previous = 0;
    for (uint32_t i = 0; i < log.issues; i++) {
        uint32_t cta = (uint32_t)(log.issued[i] >> 32), w = (log.issued[i] >> 16) & 0xffff,
                 n = log.issued[i] & 0xffff;
        uint64_t t = 1000 - cta * 10 + n * 100 + w;
        cr_assert_geq(t, previous, "issue %u is out of timestamp order", i);
        previous = t;
        cr_assert_eq(log.issued_sm[i], cta % 2, "the trace's SM ids are kept");
    }
    /* Without timestamps the recorded schedule is refused with a reason. */
    wst_memtrace *plain = grid_trace(2, 1, 1, 1, 0);
    sched_options o;
    ws_error err;
    sched_options_parse("recorded", &o, &err);
    sched_source src = sched_source_memtrace(plain);
    sched *s = sched_new(&c, &o, &src, NULL, NULL, &err);
    sched_event e;
    while (sched_next(s, &e, &err) == 1)
        ;
    cr_assert(strstr(err.msg, "needs SM ids and timestamps") != NULL, "%s", err.msg);
    sched_free(s);
    sched_source_free(&src);
    wst_memtrace_free(plain);
    wst_memtrace_free(m);
}

Test(sched, residency_limits)
{
    gpu_config c = small_gpu(1, 8);
    wst_kernel k = {.grid = {1, 1, 1}, .block = {256, 1, 1}};
    cr_assert_eq(sched_residency(&c, &k), 6, "1536 threads / 256");
    k.registers_per_thread = 32;
    cr_assert_eq(sched_residency(&c, &k), 4, "32768 registers / (256 x 32)");
    k.shared_mem_bytes = 20000;
    cr_assert_eq(sched_residency(&c, &k), 2, "48 KB / 20000 B");
    k.block.x = 1024;
    k.shared_mem_bytes = 0;
    k.registers_per_thread = 64;
    cr_assert_eq(sched_residency(&c, &k), 0, "does not fit");
}

Test(sched, options_parse)
{
    sched_options o;
    ws_error err;
    char buf[32];
    cr_assert_eq(sched_options_parse("q4,lrr", &o, &err), 0);
    cr_assert_eq(o.cta, CTA_QN);
    cr_assert_eq(o.group, 4);
    sched_options_format(&o, buf, sizeof buf);
    cr_assert_str_eq(buf, "q4,lrr");
    cr_assert_eq(sched_options_parse("gto", &o, &err), 0);
    cr_assert_eq(o.cta, CTA_RR);
    cr_assert_eq(sched_options_parse("rr,fifo", &o, &err), -1);
    cr_assert(strstr(err.msg, "unknown CTA schedule or warp order 'fifo'") != NULL);
    cr_assert_eq(sched_options_parse("recorded,lrr", &o, &err), -1);
}

/* Property: every record issued exactly once, per-warp order kept. */
Test(sched, every_record_once_in_warp_order)
{
    const char *schedules[] = {"rr,lrr", "rr,gto", "q2,lrr", "qx,gto", "qx_adpt,lrr", "bcs,gto"};
    wst_memtrace *m = test_random_trace(21, 3, 300);
    gpu_config c = small_gpu(3, 2);
    for (int p = 0; p < 6; p++) {
        sched_options o;
        ws_error err;
        sched_options_parse(schedules[p], &o, &err);
        sched_source src = sched_source_memtrace(m);
        sched *s = sched_new(&c, &o, &src, miss_on_warp0_first, NULL, &err);
        sched_event e;
        uint64_t issued[3] = {0};
        static uint32_t warp_progress[3][4096];
        memset(warp_progress, 0, sizeof warp_progress);
        int rc;
        uint32_t kernel_now = 0;
        while ((rc = sched_next(s, &e, &err)) == 1) {
            if (e.kind == SCHED_KERNEL_BEGIN)
                kernel_now = e.kernel;
            if (e.kind != SCHED_ISSUE)
                continue;
            cr_assert_eq(e.kernel, kernel_now, "kernels do not overlap");
            /* It must be the next record of its warp, in trace order. */
            const wst_memkernel_records *per = &m->per_kernel[e.kernel];
            uint32_t key = e.record->cta * 64 + e.record->warp;
            cr_assert_lt(key, 4096);
            uint32_t nth = warp_progress[e.kernel][key]++, seen = 0;
            const wst_record *expected = NULL;
            for (size_t i = 0; i < per->count && !expected; i++) {
                const wst_record *r = &per->records[i];
                if (r->cta == e.record->cta && r->warp == e.record->warp && seen++ == nth)
                    expected = r;
            }
            cr_assert_not_null(expected, "%s: a record issued twice", schedules[p]);
            sched_record_lanes(s, &e); /* every lane, for the comparison */
            cr_assert(test_records_equal(expected, e.record), "%s: warp order broken", schedules[p]);
            issued[e.kernel]++;
        }
        cr_assert_eq(rc, 0, "%s: %s", schedules[p], err.msg);
        for (uint32_t k = 0; k < 3; k++)
            cr_assert_eq(issued[k], m->per_kernel[k].count, "%s kernel %u", schedules[p], k);
        sched_free(s);
        sched_source_free(&src);
    }
    wst_memtrace_free(m);
}

/* ---- warp orders are pluggable (analyzer/warp_order.h) ---- */

/* A test order: the youngest live warp first. */
static int32_t youngest_first(void *state, const warp_view *v)
{
    (void)state;
    return v->live_count ? (int32_t)v->by_age[v->live_count - 1] : -1;
}
static void *no_state(const warp_order_geometry *g, ws_error *err)
{
    (void)g, (void)err;
    static int none;
    return &none;
}
static void no_destroy(void *state) { (void)state; }

Test(sched, a_warp_order_is_one_interface)
{
    /* One CTA of 3 warps, 2 records each, one scheduler: youngest first
     * issues warp 2 to its end, then 1, then 0. */
    wst_memtrace *m = grid_trace(1, 1, 3, 2, 0);
    gpu_config c = small_gpu(1, 1);
    c.schedulers_per_sm = 1;
    warp_order_ops order = {.name = "youngest", .create = no_state, .destroy = no_destroy,
                            .pick = youngest_first};
    sched_options o = {.cta = CTA_RR, .warp = &order};
    sched_source src = sched_source_memtrace(m);
    ws_error err;
    sched *s = sched_new(&c, &o, &src, NULL, NULL, &err);
    cr_assert_not_null(s, "%s", err.msg);
    sched_event e;
    uint64_t issued[6];
    int n = 0;
    while (sched_next(s, &e, &err) == 1)
        if (e.kind == SCHED_ISSUE)
            issued[n++] = e.record->addr[0];
    cr_assert_eq(n, 6);
    uint64_t want[6] = {ENCODE(0, 2, 0), ENCODE(0, 2, 1), ENCODE(0, 1, 0),
                        ENCODE(0, 1, 1), ENCODE(0, 0, 0), ENCODE(0, 0, 1)};
    for (int i = 0; i < 6; i++)
        cr_expect_eq(issued[i], want[i], "issue %d", i);
    sched_free(s);
    sched_source_free(&src);
    wst_memtrace_free(m);
}

Test(sched, the_builtin_orders_are_registered)
{
    cr_expect_eq(warp_order_find("gto"), &warp_order_gto);
    cr_expect_eq(warp_order_find("lrr"), &warp_order_lrr);
    cr_expect(warp_order_find("recorded")->recorded);
    cr_expect(warp_order_gto.uses_misses);
    cr_expect_null(warp_order_find("nope"));
}

static int always_miss(void *ctx, const sched_event *e)
{
    (void)ctx, (void)e;
    return 1;
}

Test(sched, throttling_orders_parse_and_print)
{
    sched_options o;
    ws_error err;
    char buf[48];
    cr_assert_eq(sched_options_parse("qx,pcal:6,2", &o, &err), 0, "%s", err.msg);
    cr_expect_eq(o.cta, CTA_QX);
    cr_expect_eq(o.warp, &warp_order_pcal);
    cr_expect_eq(o.warp_n, 6);
    cr_expect_eq(o.warp_p, 2);
    sched_options_format(&o, buf, sizeof buf);
    cr_expect_str_eq(buf, "qx,pcal:6,2");
    cr_assert_eq(sched_options_parse("swl:4", &o, &err), 0, "%s", err.msg);
    cr_expect_eq(o.warp_n, 4);
    cr_expect_eq(o.warp_p, 4, "swl:N = pcal:N,N");
    sched_options_format(&o, buf, sizeof buf);
    cr_expect_str_eq(buf, "rr,swl:4");
    cr_expect_eq(sched_options_parse("rr,swl", &o, &err), -1);
    cr_expect(strstr(err.msg, "takes parameters") != NULL, "%s", err.msg);
    cr_expect_eq(sched_options_parse("rr,pcal:4,5", &o, &err), -1, "p > N");
    cr_expect_eq(sched_options_parse("rr,pcal:4", &o, &err), -1, "no p");
    cr_expect_eq(sched_options_parse("rr,swl:0", &o, &err), -1);
    cr_expect_eq(sched_options_parse("rr,nope:3", &o, &err), -1);
    cr_expect(strstr(err.msg, "unknown CTA schedule or warp order 'nope:3'") != NULL, "%s",
              err.msg);
}

Test(sched, tuple_2_1_issues_the_two_oldest_and_lets_only_the_oldest_allocate)
{
    /* One scheduler, 3 warps of 2 records, a miss on every issue (S3's
     * (N, p) = (2, 1)): GTO rotates between the two oldest live warps; the
     * third issues only once warp 0 is done, as the younger of the two;
     * only the oldest live warp may allocate. */
    wst_memtrace *m = grid_trace(1, 1, 3, 2, 0);
    gpu_config c = small_gpu(1, 1);
    c.schedulers_per_sm = 1;
    run_log log = run(m, &c, "rr,tuple:2,1", always_miss, NULL);
    cr_assert_eq(log.issues, 6);
    const uint64_t order[6] = {ENCODE(0, 0, 0), ENCODE(0, 1, 0), ENCODE(0, 0, 1),
                               ENCODE(0, 2, 0), ENCODE(0, 1, 1), ENCODE(0, 2, 1)};
    const uint8_t allocates[6] = {1, 0, 1, 0, 1, 1};
    for (uint32_t i = 0; i < 6; i++) {
        cr_expect_eq(log.issued[i], order[i], "issue %u", i);
        cr_expect_eq(log.may_allocate[i], allocates[i], "issue %u (rank %u)", i, log.age_rank[i]);
    }
    wst_memtrace_free(m);
}

Test(sched, swl_issues_only_the_n_oldest_warps)
{
    /* One scheduler, 3 warps of 2 records, a miss on every issue: GTO
     * would rotate; swl:1 keeps to the oldest live warp. */
    wst_memtrace *m = grid_trace(1, 1, 3, 2, 0);
    gpu_config c = small_gpu(1, 1);
    c.schedulers_per_sm = 1;
    run_log log = run(m, &c, "rr,swl:1", always_miss, NULL);
    cr_assert_eq(log.issues, 6);
    for (uint32_t i = 0; i < 6; i++)
        cr_expect_eq(log.issued[i], ENCODE(0, i / 2, i % 2), "issue %u", i);
    wst_memtrace_free(m);
}
