/* tests/test_pc_reuse.c: a PC's sparse reuse histograms (analyzer/pc_reuse.h)
 * read back as the dense reuse_hist fed the same accesses would, before and
 * after they turn dense, and an idle PC holds nothing. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/pc_reuse.h"

static void expect_same(const reuse_hist *want, const reuse_hist *got, unsigned hist)
{
    cr_expect_eq(got->total, want->total, "hist %u total", hist);
    cr_expect_eq(got->cold, want->cold, "hist %u cold", hist);
    cr_expect_eq(got->skipped, want->skipped, "hist %u skipped", hist);
    cr_expect_eq(memcmp(got->log2, want->log2, sizeof want->log2), 0, "hist %u buckets", hist);
    cr_expect_null(got->exact);
    cr_expect_eq(got->exact_limit, 0);
}

/* Feeds `count` values to histogram hist of r and of want[hist]. */
static void feed(pc_reuse *r, reuse_hist *want, unsigned hist, const uint64_t *values, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        cr_assert_eq(pc_reuse_add(r, hist, values[i]), 0);
        reuse_hist_add(&want[hist], values[i]);
    }
}

static void expect_all_same(const pc_reuse *r, const reuse_hist *want)
{
    for (unsigned h = 0; h < PC_REUSE_HISTS; h++) {
        reuse_hist got;
        pc_reuse_hist(r, h, &got);
        expect_same(&want[h], &got, h);
    }
}

/* A PC run once: a cold access in each histogram is six cells, no more. */
Test(pc_reuse, a_pc_run_once_holds_six_cells)
{
    pc_reuse r = {0};
    reuse_hist want[PC_REUSE_HISTS] = {0};
    const uint64_t cold = REUSE_COLD;
    for (unsigned h = 0; h < PC_REUSE_HISTS; h++)
        feed(&r, want, h, &cold, 1);
    cr_expect_eq(r.cell_count, 6);
    cr_expect_null(r.dense);
    expect_all_same(&r, want);
    reuse_hist got;
    pc_reuse_hist(&r, 3, &got);
    cr_expect_eq(got.total, 1);
    cr_expect_eq(got.cold, 1);
    pc_reuse_free(&r);
}

/* Hand-worked: distances 0, 1, 2, 3, 3 and a skipped one fill buckets 0, 1,
 * 2 (twice: 2 and 3 are [2, 3]); total 5, the skipped one apart. */
Test(pc_reuse, buckets_cold_and_skipped_as_the_dense_histogram)
{
    pc_reuse r = {0};
    reuse_hist want[PC_REUSE_HISTS] = {0};
    const uint64_t values[] = {0, 1, 2, 3, 3, REUSE_SKIPPED, REUSE_FAILED};
    feed(&r, want, 0, values, sizeof values / sizeof *values);
    reuse_hist got;
    pc_reuse_hist(&r, 0, &got);
    cr_expect_eq(got.total, 5);
    cr_expect_eq(got.skipped, 1);
    cr_expect_eq(got.log2[0], 1);
    cr_expect_eq(got.log2[1], 1);
    cr_expect_eq(got.log2[2], 3);
    cr_expect_eq(r.cell_count, 4, "buckets 0, 1, 2 and skipped");
    expect_all_same(&r, want);
    pc_reuse_free(&r);
}

/* Past PC_REUSE_CELLS_MAX distinct cells the counts move to the dense form
 * and go on there; every histogram still reads as the dense one. */
Test(pc_reuse, many_buckets_turn_dense_and_keep_their_counts)
{
    pc_reuse r = {0};
    reuse_hist want[PC_REUSE_HISTS] = {0};
    uint64_t values[40];
    for (unsigned i = 0; i < 40; i++)
        values[i] = i % 3 == 0 ? REUSE_COLD : (UINT64_C(1) << i) + i;
    feed(&r, want, 1, values, 10);
    cr_expect_null(r.dense, "10 cells stay sparse");
    feed(&r, want, 4, values, 40);
    cr_expect_not_null(r.dense);
    cr_expect_null(r.cells);
    feed(&r, want, 1, values, 40);
    feed(&r, want, 5, values + 7, 3);
    expect_all_same(&r, want);
    pc_reuse_free(&r);
    cr_expect_null(r.dense);
    cr_expect_eq(r.cell_count, 0);
}
