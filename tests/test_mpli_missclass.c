/* tests/test_mpli_missclass.c: docs/metrics.md §8 on constructed loads and evictions. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/missclass.h"
#include "analyzer/mpli.h"

Test(mpli, buckets)
{
    cr_assert_eq(mpli_bucket(0), 0);
    cr_assert_eq(mpli_bucket(2), 2);
    cr_assert_eq(mpli_bucket(3), 3);
    cr_assert_eq(mpli_bucket(31), 3);
    cr_assert_eq(mpli_bucket(32), 4);
    cr_assert_str_eq(mpli_bucket_name(3), "3-31");
}

Test(mpli, coherent_divergent_and_outcomes)
{
    mpli_counts c;
    memset(&c, 0, sizeof c);
    mpli_add_load(&c, 1, 0);   /* coherent, fully cached */
    mpli_add_load(&c, 2, 2);   /* coherent, fully missed, MPLI 2 */
    mpli_add_load(&c, 32, 16); /* divergent, half hits: partially cached, 3-31 */
    mpli_add_load(&c, 32, 32); /* divergent, fully missed, 32 */
    mpli_add_load(&c, 3, 1);   /* divergent (Req 3 > 2), partially, MPLI 1 */
    mpli_add_load(&c, 0, 0);   /* mask 0: ignored */
    cr_assert_eq(c.loads, 5);
    cr_assert_eq(c.coherent_loads, 2);
    cr_assert_eq(c.divergent_loads, 3);
    cr_assert_eq(c.coherent[0], 1);
    cr_assert_eq(c.coherent[2], 1);
    cr_assert_eq(c.divergent[3], 1);
    cr_assert_eq(c.divergent[4], 1);
    cr_assert_eq(c.divergent[1], 1);
    cr_assert_eq(c.fully_cached, 1);
    cr_assert_eq(c.fully_missed, 2);
    cr_assert_eq(c.partially_cached, 2);
    cr_assert_eq(c.requests, 1 + 2 + 32 + 32 + 3);
    cr_assert_eq(c.misses, 0 + 2 + 16 + 32 + 1);
    cr_assert_float_eq(mpli_mean(&c), (0 + 2 + 16 + 32 + 1) / 5.0, 1e-12);
    mpli_counts sum;
    memset(&sum, 0, sizeof sum);
    mpli_merge(&sum, &c);
    mpli_merge(&sum, &c);
    cr_assert_eq(sum.loads, 10);
    cr_assert_eq(sum.divergent[4], 2);
}

Test(missclass, cold_conflicts_write_evict_and_3c)
{
    ws_error err;
    missclass *mc = missclass_new(2, &err);
    miss_counts counts;
    memset(&counts, 0, sizeof counts);
    cr_assert_eq(missclass_miss(mc, 0, 100, 1, 0, &counts), MISS_COLD);
    cr_assert_eq(missclass_evicted(mc, 0, 100, 1, &err), 0); /* warp 1 evicted it */
    cr_assert_eq(missclass_miss(mc, 0, 100, 1, 1, &counts), MISS_INTRA_WARP);
    cr_assert_eq(missclass_evicted(mc, 0, 100, 4, &err), 0);
    cr_assert_eq(missclass_miss(mc, 0, 100, 1, 0, &counts), MISS_INTER_WARP);
    cr_assert_eq(missclass_invalidated(mc, 0, 100, &err), 0);
    cr_assert_eq(missclass_miss(mc, 0, 100, 1, 0, &counts), MISS_WRITE_EVICT);
    /* Another SM's L1 is separate: still cold there. */
    cr_assert_eq(missclass_miss(mc, 1, 100, 1, 0, &counts), MISS_COLD);
    cr_assert_eq(counts.by_class[MISS_COLD], 2);
    cr_assert_eq(counts.by_class[MISS_INTRA_WARP], 1);
    cr_assert_eq(counts.by_class[MISS_INTER_WARP], 1);
    cr_assert_eq(counts.by_class[MISS_WRITE_EVICT], 1);
    cr_assert_eq(counts.conflict, 1, "the intra-warp miss a fully-associative LRU hits");
    cr_assert_eq(counts.capacity, 1, "the inter-warp miss; write-evict is outside the split");
    /* A new kernel starts cold again. */
    missclass_begin_kernel(mc);
    cr_assert_eq(missclass_miss(mc, 0, 100, 1, 0, &counts), MISS_COLD);
    cr_assert_eq(missclass_evicted(mc, 5, 1, 1, &err), -1);
    missclass_free(mc);
}
