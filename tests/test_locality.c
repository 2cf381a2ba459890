/* tests/test_locality.c: docs/metrics.md §4 generation classes on hand-made events. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/locality.h"

static locality *make(uint32_t sms, uint32_t pcs)
{
    ws_error err;
    locality *loc = locality_new(sms, &err);
    cr_assert_not_null(loc);
    cr_assert_eq(locality_begin_kernel(loc, pcs, &err), 0);
    return loc;
}

static void fill(locality *loc, uint32_t sm, uint64_t line, uint32_t warp, uint32_t pc, int mon)
{
    ws_error err;
    cr_assert_eq(locality_fill(loc, sm, line, warp, pc, mon, &err), 0, "%s", err.msg);
}

Test(locality, classify_table)
{
    cr_assert_eq(locality_classify(1, 1), LOCALITY_STREAMING);
    cr_assert_eq(locality_classify(3, 3), LOCALITY_INTRA_ONLY);
    cr_assert_eq(locality_classify(2, 1), LOCALITY_INTER_ONLY); /* S2 Table 1 example */
    cr_assert_eq(locality_classify(4, 2), LOCALITY_BOTH);
}

Test(locality, generations_attributed_to_filling_pc)
{
    locality *loc = make(2, 3);
    /* PC 0: line 10 filled by warp 1, hit by warp 1 twice: intra-only. */
    fill(loc, 0, 10, 1, 0, 1);
    locality_hit(loc, 0, 10, 1);
    locality_hit(loc, 0, 10, 1);
    locality_evict(loc, 0, 10);
    /* PC 1: line 20 filled by warp 2, hit by warp 3: inter-only; then refilled
     * by warp 2 and never touched again: streaming. */
    fill(loc, 0, 20, 2, 1, 0);
    locality_hit(loc, 0, 20, 3);
    locality_evict(loc, 0, 20);
    fill(loc, 0, 20, 2, 1, 0);
    locality_evict(loc, 0, 20);
    /* PC 2: on SM 1, warp 5 fills, warp 5 and warp 6 hit: both; still open at
     * kernel end. A hit on SM 0 for the same line must not count. */
    fill(loc, 1, 30, 5, 2, 0);
    locality_hit(loc, 1, 30, 5);
    locality_hit(loc, 1, 30, 6);
    locality_hit(loc, 0, 30, 6);
    locality_end_kernel(loc);

    uint32_t n;
    const locality_pc *pcs = locality_pcs(loc, &n);
    cr_assert_eq(n, 3);
    cr_assert_eq(pcs[0].generations[LOCALITY_INTRA_ONLY], 1);
    cr_assert_eq(pcs[0].monitored_generations[LOCALITY_INTRA_ONLY], 1);
    cr_assert_eq(pcs[0].intra_warp_hits, 2);
    cr_assert_eq(pcs[1].generations[LOCALITY_INTER_ONLY], 1);
    cr_assert_eq(pcs[1].generations[LOCALITY_STREAMING], 1);
    cr_assert_eq(pcs[1].inter_warp_hits, 1);
    cr_assert_eq(pcs[2].generations[LOCALITY_BOTH], 1);
    cr_assert_eq(pcs[2].intra_warp_hits, 1);
    cr_assert_eq(pcs[2].inter_warp_hits, 1);
    locality_free(loc);
}

Test(locality, hits_after_eviction_are_ignored_and_kernels_reset)
{
    locality *loc = make(1, 1);
    fill(loc, 0, 7, 0, 0, 0);
    locality_evict(loc, 0, 7);
    locality_hit(loc, 0, 7, 0); /* no open generation */
    locality_end_kernel(loc);
    uint32_t n;
    cr_assert_eq(locality_pcs(loc, &n)[0].generations[LOCALITY_STREAMING], 1);
    ws_error err;
    cr_assert_eq(locality_begin_kernel(loc, 1, &err), 0);
    cr_assert_eq(locality_pcs(loc, &n)[0].generations[LOCALITY_STREAMING], 0);
    locality_free(loc);
}

Test(locality, monitored_agreement)
{
    locality_pc pcs[3];
    memset(pcs, 0, sizeof pcs);
    pcs[0].generations[LOCALITY_STREAMING] = 10;
    pcs[0].monitored_generations[LOCALITY_STREAMING] = 1;
    pcs[1].generations[LOCALITY_INTER_ONLY] = 10;
    pcs[1].monitored_generations[LOCALITY_INTRA_ONLY] = 2;
    /* pcs[2] has no monitored generation: not compared. */
    locality_totals all = {0}, none = {0};
    locality_totals_add(&all, pcs, 3);
    locality_totals_add(&none, pcs + 2, 1);
    cr_assert_float_eq(locality_totals_agreement(&all), 0.5, 1e-12);
    cr_assert_float_eq(locality_totals_agreement(&none), -1.0, 1e-12);
    cr_assert_eq(all.generations[LOCALITY_STREAMING], 10);
    /* Kernels add up: the trace's figures without keeping its kernels. */
    locality_totals_add(&all, pcs, 2);
    cr_assert_eq(all.compared, 4);
    cr_assert_eq(all.agreed, 2);
}
