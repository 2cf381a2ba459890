/* tests/test_sweep_grid.c: the sweep grid's lean hierarchies
 * (COLLECT_GRID, analyzer/hierarchy.h) keep no per-PC counts and of MPLI
 * the loads alone, and every figure a sweep point reports
 * (analyzer/sweep.h) stays what the hierarchy with them gives. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/replay.h"
#include "analyzer/sweep.h"
#include "formats/memtrace.h"
#include "tests/trace_gen.h"

/* The point (n, p) replayed alone as the sweep's grid makes it, with
 * `collect`; its whole-run counts in *out, and the sum of its per-PC
 * accesses and MPLI loads. */
static void replay_point(const sched_source *src, const gpu_config *c, uint32_t n, uint32_t p,
                         hierarchy_collect collect, replay_counts *out, uint64_t *pc_sum)
{
    replay_options ro;
    replay_options_default(&ro);
    hierarchy_options o = {.config = *c, .seed = 3, .collect = collect, .allocate_p = p,
                           .warp_order = {&warp_order_tuple, n, n}};
    hierarchy *h;
    ws_error err;
    cr_assert_eq(replay_run(src, c, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
    const replay_results *r = hierarchy_results(h);
    *out = r->total;
    *pc_sum = 0;
    for (uint32_t k = 0; k < r->kernel_count; k++)
        for (uint32_t i = 0; i < r->kernels[k].pc_count; i++)
            *pc_sum += r->kernels[k].pcs[i].accesses + r->kernels[k].pcs[i].mpli.loads;
    hierarchy_free(h);
}

Test(sweep_grid, a_point_reports_the_same_figures_without_per_pc_counts_and_mpli_detail)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = 2;
    cr_assert_eq(config_override(&c, "--l1", "64K:8:128", &err), 0, "%s", err.msg);
    wst_memtrace *m = test_looping_trace(46, 8, 4, 40); /* loads that reuse their lines */
    sched_source src = sched_source_memtrace(m);
    const uint32_t points[][2] = {{1, 1}, {3, 1}, {3, 3}, {4, 2}};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) {
        uint32_t n = points[i][0], p = points[i][1];
        sweep_point full = {.n = n, .p = p}, lean = full;
        uint64_t full_pcs, lean_pcs;
        replay_point(&src, &c, n, p, COLLECT_NONE, &full.counts, &full_pcs);
        replay_point(&src, &c, n, p, COLLECT_GRID, &lean.counts, &lean_pcs);
        cr_assert_gt(full.counts.l1.hits, 0, "(%u, %u): a case with hits (%llu misses)", n, p,
                     (unsigned long long)full.counts.l1.misses);
        cr_assert_gt(full.counts.l1.misses, 0);
        cr_assert_gt(full.counts.mpli.loads, 0);
        cr_expect_gt(full_pcs, 0, "the full hierarchy counts per PC");
        cr_expect_eq(lean_pcs, 0, "(%u, %u): the lean one does not", n, p);
        /* What the sweep reports of a point (cli/sweep_out.c, poise.c). */
        cr_expect_eq(sweep_hit_rate(&lean), sweep_hit_rate(&full));
        cr_expect_eq(sweep_polluting_hit_rate(&lean), sweep_polluting_hit_rate(&full));
        cr_expect_eq(sweep_non_polluting_hit_rate(&lean), sweep_non_polluting_hit_rate(&full));
        cr_expect_eq(sweep_intra_warp_hit_rate(&lean), sweep_intra_warp_hit_rate(&full));
        cr_expect_eq(sweep_l2_bytes(&lean), sweep_l2_bytes(&full));
        cr_expect_eq(sweep_memory_latency(&lean), sweep_memory_latency(&full));
        cr_expect_eq(lean.counts.mpli.loads, full.counts.mpli.loads, "the run's global loads");
        /* And every other total, MPLI's detail apart. */
        replay_counts want = full.counts;
        want.mpli = (mpli_counts){.loads = full.counts.mpli.loads};
        cr_expect(memcmp(&lean.counts, &want, sizeof want) == 0, "(%u, %u): totals differ", n, p);
        cr_expect_gt(full.counts.mpli.requests, 0, "MPLI's detail is what the lean one drops");
    }
    sched_source_free(&src);
    wst_memtrace_free(m);
}
