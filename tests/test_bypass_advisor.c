/* tests/test_bypass_advisor.c: bypass hints (docs/metrics.md §9) on a constructed trace
 * with known answers, and the bypass policies. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/bypass_advisor.h"
#include "reports/bypass_out.h"
#include "tests/trace_gen.h"
#include "tests/workload_record.h"

/* PC 0 streams: one lane, a new line each time (U = 32/128 sector-rounded,
 * R = 0: bypass-worthy).  PC 1 sweeps 8 lines over and over, fully
 * coalesced (U = 1: never bypass-worthy). */
/* One kernel of one one-warp CTA with two load PCs, 0x10 (k.cu:7) and
 * 0x20 (k.cu:9). */
static wst_memtrace *two_pc_kernel(wst_sink *s)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    *s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel k = {.name = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_sink_add_kernel(s, &k, &err), 0);
    wst_sink_add_pc(s, 0, &(wst_pc){.offset = 0x10, .file = "k.cu", .line = 7}, &err);
    wst_sink_add_pc(s, 0, &(wst_pc){.offset = 0x20, .file = "k.cu", .line = 9}, &err);
    return m;
}

static wst_memtrace *make_trace(int with_reused)
{
    wst_sink s;
    wst_memtrace *m = two_pc_kernel(&s);
    ws_error err;
    for (uint32_t i = 0; i < 400; i++) {
        wst_record r;
        memset(&r, 0, sizeof r);
        r.size = 4;
        r.pc = 0;
        r.mask = 1;
        r.addr[0] = 0x100000 + (uint64_t)i * 128;
        cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0);
        if (!with_reused)
            continue;
        r.pc = 1;
        r.mask = 0xffffffffu;
        for (int l = 0; l < 32; l++)
            r.addr[l] = 0x900000 + (uint64_t)(i % 8) * 128 + (uint64_t)l * 4;
        cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0);
    }
    return m;
}

/* The hints for m on the fermi preset with `sms` SMs (0 = the preset's). */
static bypass_advice *advise_with(const wst_memtrace *m, uint32_t sms, uint32_t trials,
                                  bypass_u_kind utilization)
{
    sched_source src = sched_source_memtrace(m);
    hierarchy_options base = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&base.config, "fermi", &err), 0);
    if (sms)
        base.config.sms = sms;
    replay_options ro;
    replay_options_default(&ro);
    bypass_advice *a = bypass_advise(&src, &ro, &base, trials, utilization, 1, &err);
    cr_assert_not_null(a, "%s", err.msg);
    cr_assert_eq(a->utilization, utilization);
    sched_source_free(&src);
    return a;
}

static bypass_advice *advise(const wst_memtrace *m, uint32_t sms, uint32_t trials)
{
    return advise_with(m, sms, trials, BYPASS_U_SECTOR);
}

/* Every lane reads one byte, 4 apart: a line's 32 used bytes spread over all
 * 4 sectors, read twice in a row (R = 1).  Sector-rounded U = 1, so
 * 1 x (1 + 1) >= 1 keeps it; S1's raw U = 1/4, so 1/4 x 2 < 1 bypasses it. */
Test(bypass_advisor, raw_and_sector_utilization_disagree_on_scattered_bytes)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel k = {.name = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_sink_add_kernel(&s, &k, &err), 0);
    wst_sink_add_pc(&s, 0, &(wst_pc){.offset = 0x10}, &err);
    for (uint32_t i = 0; i < 2 * 50; i++) {
        wst_record r;
        memset(&r, 0, sizeof r);
        r.size = 1;
        r.mask = 0xffffffffu;
        for (int l = 0; l < 32; l++)
            r.addr[l] = 0x100000 + (uint64_t)(i / 2) * 128 + (uint64_t)l * 4;
        cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0);
    }
    bypass_advice *sector = advise_with(m, 0, 1, BYPASS_U_SECTOR);
    bypass_advice *raw = advise_with(m, 0, 1, BYPASS_U_RAW_BYTES);
    cr_assert_eq(bypass_table_count(sector->table), 50);
    cr_assert_eq(bypass_table_worthy_count(sector->table), 0);
    cr_assert_eq(bypass_table_worthy_count(raw->table), 50);
    cr_assert_float_eq(bypass_share(&sector->pcs[0]), 0.0, 1e-12);
    cr_assert_float_eq(bypass_share(&raw->pcs[0]), 1.0, 1e-12);
    bypass_advice_free(sector);
    bypass_advice_free(raw);
    wst_memtrace_free(m);
}

Test(bypass_advisor, known_shares_and_recommendations)
{
    wst_memtrace *m = make_trace(1);
    bypass_advice *a = advise(m, 0, 8);
    cr_assert_eq(a->pc_count, 2);
    const bypass_pc_hint *stream = &a->pcs[0], *reused = &a->pcs[1];
    cr_expect_eq(stream->pc, 0);
    cr_expect_eq(stream->accesses, 400);
    cr_expect_float_eq(bypass_share(stream), 1.0, 1e-12);
    cr_expect_float_eq(bypass_share(reused), 0.0, 1e-12);
    cr_expect(stream->recommend, "bypassing the stream saves 96 B per access");
    cr_expect(!reused->recommend, "bypassing the reused lines would cost");
    cr_expect_eq(stream->traffic_change, -400 * 96, "exactly 3 of 4 sectors saved per access");
    cr_expect_eq(a->recommended, 1);
    cr_expect_eq(a->baseline.traffic.l1_to_l2_read_bytes, 400 * 128 + 8 * 128);
    cr_expect_eq(a->with_table.traffic.l1_to_l2_read_bytes, 400 * 32 + 8 * 128);
    cr_expect_eq(a->with_pcs.traffic.l1_to_l2_read_bytes, 400 * 32 + 8 * 128);
    cr_expect_eq(a->with_pcs.l1.bypasses, 400);
    bypass_advice_free(a);
    wst_memtrace_free(m);
}

Test(bypass_advisor, table_never_increases_global_load_traffic)
{
    for (uint64_t seed = 1; seed <= 4; seed++) {
        wst_memtrace *m = test_random_trace(seed, 3, 600);
        bypass_advice *a = advise(m, 2, 4);
        cr_expect_leq(a->with_table.traffic.l1_to_l2_read_bytes, a->baseline.traffic.l1_to_l2_read_bytes,
                      "seed %llu", (unsigned long long)seed);
        bypass_advice_free(a);
        wst_memtrace_free(m);
    }
}

/* When every load of a file should bypass, the summary says to compile the
 * file with -dlcm=cg; with one load to keep, it does not. */
static char *summary_of(int with_reused)
{
    wst_memtrace *m = make_trace(with_reused);
    bypass_advice *a = advise(m, 0, 8);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    bypass_print_summary(f, a, &m->trace);
    fclose(f);
    bypass_advice_free(a);
    wst_memtrace_free(m);
    return text;
}

Test(bypass_advisor, whole_file_flag_only_when_every_load_bypasses)
{
    char *all = summary_of(0), *some = summary_of(1);
    cr_expect(strstr(all, "k.cu:7") && strstr(all, "__ldcg"), "%s", all);
    cr_expect(strstr(all, "-dlcm=cg") != NULL, "%s", all);
    cr_expect(strstr(some, "k.cu:7") != NULL, "%s", some);
    cr_expect(strstr(some, "-dlcm=cg") == NULL, "%s", some);
    free(all);
    free(some);
}

/* ---- the advice is what __ldcg would do (docs/metrics.md §9) ---- */

/* Traffic of an LRU replay of m under `schedule` with (kernel, pc)'s global
 * loads rewritten to `cg` (pc = UINT32_MAX: as recorded). */
static uint64_t traffic_with_cg(wst_memtrace *m, const char *schedule, uint32_t kernel, uint32_t pc)
{
    wst_memkernel_records *per = &m->per_kernel[kernel];
    uint8_t *saved = malloc(per->count + 1);
    for (size_t i = 0; i < per->count; i++) {
        saved[i] = per->records[i].cache_op;
        if (per->records[i].pc == pc && per->records[i].kind == WST_LOAD &&
            per->records[i].space == WST_GLOBAL)
            per->records[i].cache_op = WST_OP_CG;
    }
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    replay_options ro;
    replay_options_default(&ro);
    cr_assert_eq(sched_options_parse(schedule, &ro.schedule, &err), 0);
    sched_source src = sched_source_memtrace(m);
    hierarchy *h;
    cr_assert_eq(replay_run(&src, &o.config, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
    uint64_t traffic = bypass_traffic(&hierarchy_results(h)->total);
    hierarchy_free(h);
    sched_source_free(&src);
    for (size_t i = 0; i < per->count; i++)
        per->records[i].cache_op = saved[i];
    free(saved);
    return traffic;
}

/* For every PC `bypass` tried, rewriting its loads to `cg` and replaying
 * gives exactly the traffic change it printed.  The warp order is lrr, which
 * no cache outcome changes, so the rewritten trace keeps its schedule. */
static void check_cg_rewrite(wst_memtrace *m)
{
    sched_source src = sched_source_memtrace(m);
    hierarchy_options base = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&base.config, "fermi", &err), 0);
    replay_options ro;
    replay_options_default(&ro);
    cr_assert_eq(sched_options_parse("rr,lrr", &ro.schedule, &err), 0);
    bypass_advice *a = bypass_advise(&src, &ro, &base, 16, BYPASS_U_SECTOR, 1, &err);
    cr_assert_not_null(a, "%s", err.msg);
    sched_source_free(&src);
    uint64_t before = traffic_with_cg(m, "rr,lrr", 0, UINT32_MAX);
    cr_assert_eq(before, bypass_traffic(&a->baseline));
    uint32_t tested = 0;
    for (uint32_t i = 0; i < a->pc_count; i++) {
        const bypass_pc_hint *h = &a->pcs[i];
        if (!h->tested || m->trace.kernel_count != 1)
            continue;
        tested++;
        int64_t change = (int64_t)traffic_with_cg(m, "rr,lrr", h->kernel, h->pc) - (int64_t)before;
        cr_expect_eq(change, h->traffic_change, "PC %u: advice %lld B, as __ldcg %lld B", h->pc,
                     (long long)h->traffic_change, (long long)change);
    }
    cr_expect_gt(tested, 0);
    bypass_advice_free(a);
}

Test(bypass_advisor, a_bypassed_pc_loses_its_l1_hits_as_ldcg_does)
{
    /* PC 0 fills lines with whole-warp loads; PC 1 then reads one word of
     * each, an L1 hit.  With PC 1 bypassed it must go to L2 (+32 B each), as
     * `__ldcg` would, not keep its hits for free. */
    wst_sink s;
    wst_memtrace *m = two_pc_kernel(&s);
    ws_error err;
    for (uint32_t i = 0; i < 64; i++) {
        wst_record r;
        memset(&r, 0, sizeof r);
        r.size = 4;
        r.mask = 0xffffffffu;
        for (int l = 0; l < 32; l++)
            r.addr[l] = 0x100000 + (uint64_t)i * 128 + (uint64_t)l * 4;
        cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0);
        r.pc = 1;
        r.mask = 1;
        cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0);
    }
    check_cg_rewrite(m);
    bypass_advice *a = advise(m, 0, 16);
    for (uint32_t i = 0; i < a->pc_count; i++)
        if (a->pcs[i].pc == 1) {
            cr_expect_eq(a->pcs[i].traffic_change, 64 * 32, "each lost hit fetches a sector");
            cr_expect_not(a->pcs[i].recommend);
        }
    bypass_advice_free(a);
    wst_memtrace_free(m);
}

Test(bypass_advisor, advice_equals_replaying_the_pc_as_cg_on_workloads)
{
    const char *const names[] = {"bfs", "spmv", "gaussian"};
    for (int w = 0; w < 3; w++) {
        wst_memtrace *m = test_record_workload(names[w], SIZE_SMALL, 1, 0);
        /* The PCs of the first kernel launch (the rewrite is per launch). */
        uint32_t kernels = m->trace.kernel_count;
        m->trace.kernel_count = 1;
        check_cg_rewrite(m);
        m->trace.kernel_count = kernels;
        wst_memtrace_free(m);
    }
}
