/* tests/test_metrics.c: docs/metrics.md §2-3 metrics over hand-made instruction streams. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/metrics.h"
#include "analyzer/metrics_pack.h"

static metrics *make(uint32_t sms, uint32_t slots, int include_stores)
{
    metrics_options o = {.coalesce = coalesce_config_default(),
                         .sm_count = sms,
                         .warp_slots_per_sm = slots,
                         .exact_distances = 16,
                         .include_stores = include_stores};
    ws_error err;
    metrics *m = metrics_new(&o, &err);
    cr_assert_not_null(m, "%s", err.msg);
    return m;
}

/* One warp instruction: lanes 0..n-1 at base + lane*stride, 4 B each. */
static void issue(metrics *m, uint32_t sm, uint32_t slot, uint32_t cta, uint32_t warp,
                  uint32_t pc, wst_kind kind, uint64_t base, uint64_t stride, int lanes)
{
    wst_record r;
    memset(&r, 0, sizeof r);
    r.cta = cta;
    r.warp = warp;
    r.pc = pc;
    r.kind = (uint8_t)kind;
    r.space = WST_GLOBAL;
    r.size = 4;
    r.mask = lanes == 32 ? 0xffffffffu : (1u << lanes) - 1;
    for (int l = 0; l < lanes; l++)
        r.addr[l] = base + (uint64_t)l * stride;
    ws_request reqs[COALESCE_MAX_REQUESTS];
    coalesce_summary sum;
    coalesce_config cc = coalesce_config_default();
    ws_error err;
    cr_assert_geq(coalesce_record(&cc, &r, 0, reqs, &sum, &err), 0);
    metrics_issue is = metrics_issue_of(&r, sm, slot);
    cr_assert_eq(metrics_instruction(m, &is, reqs, &sum, &err), 0, "%s", err.msg);
}

static void begin(metrics *m, uint32_t pcs)
{
    ws_error err;
    cr_assert_eq(metrics_kernel_begin(m, pcs, &err), 0, "%s", err.msg);
}

static void end(metrics *m)
{
    ws_error err;
    cr_assert_eq(metrics_kernel_end(m, &err), 0, "%s", err.msg);
}

Test(metrics, s1_fig1_utilization)
{
    metrics *m = make(1, 4, 0);
    begin(m, 1);
    issue(m, 0, 0, 0, 0, 0, WST_LOAD, 96, 4, 32); /* bytes 96..223 */
    end(m);
    const metrics_totals *t = metrics_summary(m);
    cr_assert_eq(t->counts.requests, 2);
    cr_assert_float_eq(metrics_utilization(&t->counts, 128, GRAN_LINE), 0.5, 1e-12);
    cr_assert_float_eq(metrics_utilization(&t->counts, 128, GRAN_SECTOR), 1.0, 1e-12);
    cr_assert_eq(t->req_hist[2], 1);
    cr_assert_eq(t->counts.coherent, 1);
    cr_assert_eq(t->counts.u_hist[5], 1, "instruction U 50%% is in the 50-60%% bin");
    /* Lines: line 0 used 32 of 128 B (25%), line 1 96 of 128 B (75%). */
    cr_assert_eq(t->line_u_hist[GRAN_LINE][2], 1);
    cr_assert_eq(t->line_u_hist[GRAN_LINE][7], 1);
    cr_assert_eq(t->line_u_hist[GRAN_SECTOR][9], 2, "sector-aligned bytes: 100%%");
    metrics_free(m);
}

Test(metrics, reuse_scopes_hand_worked)
{
    metrics *m = make(2, 4, 0);
    begin(m, 2);
    /* One lane each, so one line per instruction.  Lines A=0, B=128, C=256.
     * SM0 slot0 (cta0 w0): A, B      SM0 slot1 (cta0 w1): A
     * SM1 slot0 (cta1 w0): B, A
     * Global stream A B A B A: distances cold cold 1 1 1.
     * Per SM: SM0 A B A -> cold cold 1; SM1 B A -> cold cold.
     * Per warp: all cold. */
    issue(m, 0, 0, 0, 0, 0, WST_LOAD, 0, 0, 1);
    issue(m, 0, 0, 0, 0, 1, WST_LOAD, 128, 0, 1);
    issue(m, 0, 1, 0, 1, 0, WST_LOAD, 0, 0, 1);
    issue(m, 1, 0, 1, 0, 1, WST_LOAD, 128, 0, 1);
    issue(m, 1, 0, 1, 0, 0, WST_LOAD, 0, 0, 1);
    end(m);
    const metrics_kernel *k = metrics_kernel_at(m, 0);
    const reuse_hist *g = &k->totals.reuse[GRAN_LINE][SCOPE_GLOBAL].distance;
    cr_assert_eq(g->cold, 2);
    cr_assert_eq(g->exact[1], 3);
    const reuse_hist *sm = &k->totals.reuse[GRAN_LINE][SCOPE_PER_SM].distance;
    cr_assert_eq(sm->cold, 4);
    cr_assert_eq(sm->exact[1], 1);
    cr_assert_eq(k->totals.reuse[GRAN_LINE][SCOPE_PER_WARP].distance.cold, 5);
    /* Reuse time on SM0's A A: one access (B) in between. */
    cr_assert_eq(k->totals.reuse[GRAN_LINE][SCOPE_PER_SM].time.exact[1], 1);
    /* Per PC: PC 0 issued A three times: global cold, 1, 1. */
    reuse_pair pc0;
    metrics_pc_reuse(&k->pcs[0], SCOPE_GLOBAL, &pc0);
    cr_assert_eq(pc0.distance.cold, 1);
    cr_assert_eq(pc0.distance.log2[1], 2);
    cr_assert_eq(pc0.distance.total, 3);
    cr_assert_eq(k->pcs[0].counts.executions, 3);
    /* Sector granularity: one sector per access, same pattern. */
    cr_assert_eq(k->totals.reuse[GRAN_SECTOR][SCOPE_GLOBAL].distance.exact[1], 3);
    metrics_free(m);
}

Test(metrics, warp_slot_reuse_restarts_the_stream)
{
    metrics *m = make(1, 1, 0);
    begin(m, 1);
    issue(m, 0, 0, 0, 0, 0, WST_LOAD, 0, 0, 1);
    issue(m, 0, 0, 0, 0, 0, WST_LOAD, 0, 0, 1); /* same warp: distance 0 */
    issue(m, 0, 0, 1, 0, 0, WST_LOAD, 0, 0, 1); /* CTA 1's warp took the slot: cold */
    end(m);
    const reuse_hist *w = &metrics_kernel_at(m, 0)->totals.reuse[GRAN_LINE][SCOPE_PER_WARP].distance;
    cr_assert_eq(w->cold, 2);
    cr_assert_eq(w->exact[0], 1);
    metrics_free(m);
}

Test(metrics, kernels_restart_l1_views_but_not_global)
{
    metrics *m = make(1, 2, 0);
    begin(m, 1);
    issue(m, 0, 0, 0, 0, 0, WST_LOAD, 0, 0, 1);
    end(m);
    begin(m, 1);
    issue(m, 0, 0, 0, 0, 0, WST_LOAD, 0, 0, 1);
    end(m);
    const metrics_kernel *k1 = metrics_kernel_at(m, 1);
    cr_assert_eq(k1->totals.reuse[GRAN_LINE][SCOPE_GLOBAL].distance.exact[0], 1);
    cr_assert_eq(k1->totals.reuse[GRAN_LINE][SCOPE_PER_SM].distance.cold, 1);
    const metrics_totals *s = metrics_summary(m);
    cr_assert_eq(s->counts.executions, 2);
    cr_assert_eq(s->reuse[GRAN_LINE][SCOPE_GLOBAL].distance.total, 2);
    cr_assert_eq(s->reuse[GRAN_LINE][SCOPE_PER_SM].distance.cold, 2);
    cr_assert_eq(metrics_kernel_count(m), 2);
    cr_assert_not_null(metrics_kernel_at(m, 0), "the last KERNEL_SLOTS kernels are kept");
    for (int i = 2; i <= KERNEL_SLOTS; i++) {
        begin(m, 1);
        end(m);
    }
    cr_assert_null(metrics_kernel_at(m, 0), "and no earlier one");
    cr_assert_not_null(metrics_kernel_at(m, 1));
    metrics_free(m);
}

/* --l2-cold: the second kernel's reread of the first kernel's line is a
 * cold access in every scope, the global (L2) one too. */
Test(metrics, global_per_kernel_restarts_the_l2_view)
{
    metrics_options o = {.coalesce = coalesce_config_default(), .sm_count = 1,
                         .warp_slots_per_sm = 2, .exact_distances = 16, .global_per_kernel = 1};
    ws_error err;
    metrics *m = metrics_new(&o, &err);
    cr_assert_not_null(m, "%s", err.msg);
    for (int k = 0; k < 2; k++) {
        begin(m, 1);
        issue(m, 0, 0, 0, 0, 0, WST_LOAD, 0, 0, 1);
        issue(m, 0, 0, 0, 0, 0, WST_LOAD, 0, 0, 1);
        end(m);
    }
    const reuse_hist *k1 = &metrics_kernel_at(m, 1)->totals.reuse[GRAN_LINE][SCOPE_GLOBAL].distance;
    cr_assert_eq(k1->cold, 1, "the first access of kernel 1 finds nothing of kernel 0");
    cr_assert_eq(k1->exact[0], 1, "the second is at distance 0 within the kernel");
    const reuse_hist *s = &metrics_summary(m)->reuse[GRAN_LINE][SCOPE_GLOBAL].distance;
    cr_assert_eq(s->cold, 2);
    cr_assert_eq(s->exact[0], 2);
    const reuse_hist *t = &metrics_summary(m)->reuse[GRAN_LINE][SCOPE_GLOBAL].time;
    cr_assert_eq(t->cold, 2, "no reuse time reaches back into the kernel before");
    cr_assert_eq(t->exact[0], 2, "no request between the two of a kernel (docs/metrics.md §3)");
    metrics_free(m);
}

Test(metrics, stores_count_only_when_asked)
{
    metrics *loads_only = make(1, 1, 0), *with_stores = make(1, 1, 1);
    metrics *both[2] = {loads_only, with_stores};
    for (int i = 0; i < 2; i++) {
        begin(both[i], 2);
        issue(both[i], 0, 0, 0, 0, 0, WST_LOAD, 0, 4, 32);
        issue(both[i], 0, 0, 0, 0, 1, WST_STORE, 0, 4, 32);
        end(both[i]);
    }
    cr_assert_eq(metrics_summary(loads_only)->counts.executions, 1);
    cr_assert_eq(metrics_summary(loads_only)->stores, 1, "stores are still counted by kind");
    cr_assert_eq(metrics_summary(with_stores)->counts.executions, 2);
    cr_assert_eq(metrics_summary(with_stores)->reuse[GRAN_LINE][SCOPE_GLOBAL].distance.exact[0], 1);
    metrics_free(loads_only);
    metrics_free(with_stores);
}

Test(metrics, rejects_out_of_range_placement)
{
    metrics *m = make(1, 1, 0);
    begin(m, 1);
    wst_record r;
    memset(&r, 0, sizeof r);
    r.size = 4;
    r.mask = 1;
    ws_request reqs[COALESCE_MAX_REQUESTS];
    coalesce_summary sum;
    coalesce_config cc = coalesce_config_default();
    ws_error err;
    coalesce_record(&cc, &r, 0, reqs, &sum, &err);
    metrics_issue bad_slot = metrics_issue_of(&r, 0, 3);
    cr_assert_eq(metrics_instruction(m, &bad_slot, reqs, &sum, &err), -1);
    cr_assert(strstr(err.msg, "warp slot 3") != NULL);
    r.pc = 9;
    metrics_issue bad_pc = metrics_issue_of(&r, 0, 0);
    cr_assert_eq(metrics_instruction(m, &bad_pc, reqs, &sum, &err), -1);
    metrics_free(m);
}

/* Two instances with complementary reuse masks, joined, equal one instance
 * that runs every stream (how analyze spreads the reuse over threads). */
static int hist_equal(const reuse_hist *a, const reuse_hist *b)
{
    return a->total == b->total && a->cold == b->cold && a->total > 0 &&
           memcmp(a->log2, b->log2, sizeof a->log2) == 0;
}

Test(metrics, split_reuse_joins_to_the_whole)
{
    metrics *whole = make(2, 4, 0);
    uint32_t right_mask = METRICS_REUSE_BIT(GRAN_SECTOR, SCOPE_GLOBAL) |
                          METRICS_REUSE_BIT(GRAN_SECTOR, SCOPE_PER_SM);
    metrics_options o = {.coalesce = coalesce_config_default(), .sm_count = 2,
                         .warp_slots_per_sm = 4, .exact_distances = 16};
    ws_error err;
    o.reuse_mask = METRICS_REUSE_ALL & ~right_mask;
    metrics *left = metrics_new(&o, &err);
    o.reuse_mask = right_mask;
    o.reuse_only = 1;
    metrics *right = metrics_new(&o, &err);
    cr_assert(left && right, "%s", err.msg);
    metrics *all[3] = {whole, left, right};
    uint64_t rng = 5;
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 3; i++)
            begin(all[i], 2);
        for (int n = 0; n < 400; n++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            uint64_t base = ((rng >> 33) % 64) * 96;
            uint32_t sm = (uint32_t)(rng >> 20) & 1, slot = (uint32_t)(rng >> 22) & 3;
            int lanes = 1 + (int)((rng >> 40) % 32);
            for (int i = 0; i < 3; i++)
                issue(all[i], sm, slot, slot, slot, (uint32_t)n & 1, WST_LOAD, base, 4, lanes);
        }
        for (int i = 0; i < 3; i++)
            end(all[i]);
        /* Each kernel is joined when both halves have ended it. */
        cr_assert_eq(metrics_adopt_kernel_reuse(left, right, (uint32_t)k, right_mask, &err), 0);
        for (int g = 0; g < GRANULARITIES; g++)
            for (int s = 0; s < SCOPES; s++) {
                const reuse_pair *a = &metrics_kernel_at(whole, (uint32_t)k)->totals.reuse[g][s];
                const reuse_pair *b = &metrics_kernel_at(left, (uint32_t)k)->totals.reuse[g][s];
                cr_expect(hist_equal(&a->distance, &b->distance) && hist_equal(&a->time, &b->time),
                          "kernel %d %s %s", k, reuse_granularity_name(g), reuse_scope_name(s));
            }
    }
    cr_assert_eq(metrics_adopt_reuse(left, right, right_mask, &err), 0);
    for (int g = 0; g < GRANULARITIES; g++)
        for (int s = 0; s < SCOPES; s++)
            cr_expect(hist_equal(&metrics_summary(whole)->reuse[g][s].distance,
                                 &metrics_summary(left)->reuse[g][s].distance));
    cr_expect_eq(metrics_summary(whole)->counts.requests, metrics_summary(left)->counts.requests);
    for (int i = 0; i < 3; i++)
        metrics_free(all[i]);
}

static void expect_hist_equal(const reuse_hist *a, const reuse_hist *b, const char *what)
{
    cr_expect_eq(a->exact_limit, b->exact_limit, "%s", what);
    cr_expect_eq(a->cold, b->cold, "%s", what);
    cr_expect_eq(a->total, b->total, "%s", what);
    cr_expect_eq(a->skipped, b->skipped, "%s", what);
    cr_expect_arr_eq(a->log2, b->log2, sizeof a->log2, "%s", what);
    if (a->exact_limit == b->exact_limit && a->exact_limit)
        cr_expect_arr_eq(a->exact, b->exact, a->exact_limit * sizeof *a->exact, "%s", what);
}

static void expect_totals_equal(const metrics_totals *a, const metrics_totals *b)
{
    cr_expect_eq(memcmp(&a->counts, &b->counts, sizeof a->counts), 0);
    cr_expect_eq(memcmp(a->req_hist, b->req_hist, sizeof a->req_hist), 0);
    cr_expect_eq(memcmp(a->line_u_hist, b->line_u_hist, sizeof a->line_u_hist), 0);
    cr_expect_eq(a->loads + a->stores + a->atomics, b->loads + b->stores + b->atomics);
    for (int g = 0; g < GRANULARITIES; g++)
        for (int s = 0; s < SCOPES; s++) {
            expect_hist_equal(&a->reuse[g][s].distance, &b->reuse[g][s].distance, "distance");
            expect_hist_equal(&a->reuse[g][s].time, &b->reuse[g][s].time, "time");
        }
}

/* docs/analysis.md "Ranks": a kernel's metrics packed on one rank and
 * adopted on rank 0 give rank 0 the kernel and the summary the pass that
 * computed them has, histogram for histogram. */
Test(metrics, kernels_packed_and_adopted_equal_the_computed)
{
    metrics *computed = make(2, 4, 1), *adopted = make(2, 4, 1);
    ws_error err;
    for (uint32_t k = 0; k < 3; k++) {
        begin(computed, 2);
        issue(computed, 0, 0, 0, 0, 0, WST_LOAD, 0, 4, 32);
        issue(computed, 1, 1, 1, 0, 1, WST_STORE, 4096 * k, 128, 8);
        issue(computed, 0, 0, 0, 0, 0, WST_LOAD, 64, 8, 16 + k);
        end(computed);
        pack_bytes bytes = {0};
        cr_assert_eq(metrics_kernel_pack(metrics_kernel_at(computed, k), &bytes, &err), 0);
        metrics_kernel got;
        cr_assert_eq(metrics_kernel_unpack(bytes.data, bytes.size, &got, &err), 0, "%s", err.msg);
        cr_assert_eq(metrics_kernel_adopt(adopted, &got, &err), 0, "%s", err.msg);
        metrics_kernel_unpacked_free(&got); /* emptied by the adoption */
        const metrics_kernel *a = metrics_kernel_at(computed, k), *b = metrics_kernel_at(adopted, k);
        cr_assert_not_null(b);
        expect_totals_equal(&a->totals, &b->totals);
        cr_assert_eq(b->pc_count, 2);
        for (uint32_t pc = 0; pc < 2; pc++) {
            cr_expect_eq(memcmp(&a->pcs[pc].counts, &b->pcs[pc].counts, sizeof a->pcs[pc].counts), 0);
            for (int s = 0; s < SCOPES; s++) {
                reuse_pair pa, pb;
                metrics_pc_reuse(&a->pcs[pc], (reuse_scope)s, &pa);
                metrics_pc_reuse(&b->pcs[pc], (reuse_scope)s, &pb);
                expect_hist_equal(&pa.distance, &pb.distance, "pc distance");
                expect_hist_equal(&pa.time, &pb.time, "pc time");
            }
        }
        pack_bytes_free(&bytes);
    }
    cr_assert_eq(metrics_kernel_count(adopted), 3);
    expect_totals_equal(metrics_summary(computed), metrics_summary(adopted));
    cr_assert_eq(metrics_summary(adopted)->counts.executions, 9, "stores count (include_stores)");
    metrics_free(computed);
    metrics_free(adopted);
}

/* Every cut of the bytes is refused with a message, and frees what it read. */
Test(metrics, short_packed_kernels_are_refused)
{
    metrics *m = make(1, 2, 0);
    begin(m, 3);
    issue(m, 0, 0, 0, 0, 2, WST_LOAD, 0, 4, 32);
    end(m);
    pack_bytes bytes = {0};
    ws_error err;
    cr_assert_eq(metrics_kernel_pack(metrics_kernel_at(m, 0), &bytes, &err), 0);
    for (size_t cut = 0; cut < bytes.size; cut += 1 + cut / 32) {
        metrics_kernel got;
        err.msg[0] = '\0';
        cr_expect_neq(metrics_kernel_unpack(bytes.data, cut, &got, &err), 0, "cut at %zu", cut);
        cr_expect_neq(err.msg[0], '\0');
        cr_expect_null(got.pcs, "nothing is left to free");
    }
    pack_bytes_free(&bytes);
    metrics_free(m);
}

/* A PC whose histograms turned dense (pc_reuse.h) and one still sparse
 * travel between ranks and read back the same, histogram for histogram. */
Test(metrics, dense_and_sparse_pc_histograms_pack_and_unpack)
{
    metrics *m = make(1, 2, 0);
    begin(m, 2);
    end(m);
    metrics_kernel *k = (metrics_kernel *)metrics_kernel_at(m, 0);
    for (unsigned i = 0; i < 40; i++) /* 40 buckets in histogram 2: dense */
        cr_assert_eq(pc_reuse_add(&k->pcs[0].reuse, 2, (UINT64_C(1) << i) + 1), 0);
    cr_assert_eq(pc_reuse_add(&k->pcs[1].reuse, 5, REUSE_COLD), 0);
    cr_assert_not_null(k->pcs[0].reuse.dense);
    cr_assert_null(k->pcs[1].reuse.dense);
    pack_bytes bytes = {0};
    ws_error err;
    cr_assert_eq(metrics_kernel_pack(k, &bytes, &err), 0);
    metrics_kernel got;
    cr_assert_eq(metrics_kernel_unpack(bytes.data, bytes.size, &got, &err), 0, "%s", err.msg);
    for (uint32_t pc = 0; pc < 2; pc++)
        for (int s = 0; s < SCOPES; s++) {
            reuse_pair a, b;
            metrics_pc_reuse(&k->pcs[pc], (reuse_scope)s, &a);
            metrics_pc_reuse(&got.pcs[pc], (reuse_scope)s, &b);
            expect_hist_equal(&a.distance, &b.distance, "pc distance");
            expect_hist_equal(&a.time, &b.time, "pc time");
        }
    reuse_pair global;
    metrics_pc_reuse(&got.pcs[0], SCOPE_PER_SM, &global);
    cr_expect_eq(global.distance.total, 40, "histogram 2 is the per-SM distance");
    metrics_kernel_unpacked_free(&got);
    pack_bytes_free(&bytes);
    metrics_free(m);
}
