/* tests/test_workloads_polybench.c: record counts and lane strides of the
 * PolyBench/GPU ports at small size, derived from the original indexing.
 * (Outputs are checked against CPU references in test_workloads.c.) */
#include <criterion/criterion.h>

#include "collectors/workloads/workloads.h"
#include "formats/memtrace.h"
#include "tests/workload_record.h"

static wst_memtrace *small(const char *name)
{
    return test_record_workload(name, SIZE_SMALL, 1, 0);
}

static uint64_t total(const wst_memtrace *m)
{
    uint64_t n = 0;
    for (uint32_t k = 0; k < m->trace.kernel_count; k++)
        n += m->per_kernel[k].count;
    return n;
}

/* Address step per lane between the first two active lanes. */
static int64_t lane_stride(const wst_memtrace *m, uint32_t kernel, size_t record)
{
    const wst_record *r = &m->per_kernel[kernel].records[record];
    int first = __builtin_ctz(r->mask), second = __builtin_ctz(r->mask & (r->mask - 1));
    return (int64_t)(r->addr[second] - r->addr[first]) / (second - first);
}

static void expect(const char *name, uint32_t kernels, uint64_t records, int64_t stride0)
{
    wst_memtrace *m = small(name);
    cr_assert_eq(m->trace.kernel_count, kernels, "%s kernels", name);
    if (records)
        cr_assert_eq(total(m), records, "%s records", name);
    cr_assert_eq(lane_stride(m, 0, 0), stride0, "%s: first record's lane stride", name);
    wst_memtrace_free(m);
}

/* N = 256, 1-D blocks of 256 (8 warps a kernel). */
Test(polybench, atax)
{
    /* Each kernel: 8 warps × 256 iterations × (A, x, tmp load, tmp store).
     * kernel1 reads A[i*NY + j] over lanes i: a stride of one row. */
    expect("atax", 2, 2 * 8 * 256 * 4, 256 * 4);
}

Test(polybench, bicg)
{
    /* s[j] = 0 then 256 × 4 per warp; kernel1 reads A[i*NY + j] over lanes j. */
    expect("bicg", 2, 2 * 8 * (1 + 256 * 4), 0 + 4 /* the s[j] store */);
}

Test(polybench, mvt)
{
    wst_memtrace *m = small("mvt");
    cr_assert_eq(total(m), 2 * 8 * 256 * 4);
    cr_assert_eq(lane_stride(m, 0, 0), 256 * 4, "kernel1: A[i*N + j], lanes i");
    cr_assert_eq(lane_stride(m, 1, 0), 4, "kernel2: A[j*N + i], lanes i");
    wst_memtrace_free(m);
}

Test(polybench, gesummv)
{
    /* 8 warps × (256 × 8 + 3). */
    expect("gesummv", 1, 8 * (256 * 8 + 3), 256 * 4);
}

/* N = 64, 2-D blocks of 32×8: 128 warps. */
Test(polybench, syrk)
{
    wst_memtrace *m = small("syrk");
    cr_assert_eq(total(m), 128 * (2 + 64 * 4));
    cr_assert_eq(lane_stride(m, 0, 2), 0, "a[i*M + k] is a broadcast");
    cr_assert_eq(lane_stride(m, 0, 3), 64 * 4, "a[j*M + k] strides by a row");
    wst_memtrace_free(m);
}

Test(polybench, syr2k)
{
    expect("syr2k", 1, 128 * (2 + 64 * 6), 4);
}

Test(polybench, conv2d)
{
    /* N = 128: rows 1..126, 4 warps a row, 9 loads and a store. */
    expect("2dconv", 1, 126 * 4 * 10, 4);
}

Test(polybench, conv3d)
{
    /* N = 32: 30 planes; j rows 1..30, one warp each; 15 loads and a store. */
    expect("3dconv", 30, 30 * 30 * 16, 4);
}

Test(polybench, covariance)
{
    wst_memtrace *m = small("covariance");
    cr_assert_eq(m->trace.kernel_count, 3);
    cr_assert_eq(m->per_kernel[0].count, 2 * (1 + 64 * 3 + 2), "mean: 2 warps, 3 per step");
    cr_assert_eq(m->per_kernel[1].count, 64 * 2 * 3, "reduce: a 64×64 grid of 2 warps a row");
    cr_assert_eq(lane_stride(m, 0, 1), 4, "data[i*(M+1) + j], lanes j");
    wst_memtrace_free(m);
}

Test(polybench, fdtd2d)
{
    wst_memtrace *m = small("fdtd-2d");
    cr_assert_eq(m->trace.kernel_count, 9, "3 steps × 3 kernels");
    cr_assert_eq(m->per_kernel[0].count, 4 * 2 + 127 * 4 * 4, "row 0 takes _fict_[t]");
    cr_assert_eq(m->per_kernel[1].count, 128 * 4 * 4);
    cr_assert_eq(lane_stride(m, 0, 0), 0, "_fict_[t] is a broadcast");
    wst_memtrace_free(m);
}

Test(polybench, gramschmidt)
{
    wst_memtrace *m = small("gramschmidt");
    cr_assert_eq(m->trace.kernel_count, 3 * 64);
    cr_assert_eq(m->per_kernel[0].count, 64 + 1, "one thread: 64 loads and the norm");
    cr_assert_eq(m->per_kernel[0].records[0].mask, 0x1u);
    cr_assert_eq(m->per_kernel[1].count, 2 * 3);
    wst_memtrace_free(m);
}
