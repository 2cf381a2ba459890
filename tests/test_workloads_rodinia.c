/* tests/test_workloads_rodinia.c: closed forms from the original Rodinia
 * indexing for kmeans, streamcluster, pathfinder and backprop.  (Their
 * outputs are checked against CPU references in test_workloads.c.) */
#include <criterion/criterion.h>
#include <string.h>

#include "collectors/workloads/workloads.h"
#include "formats/memtrace.h"
#include "tests/workload_record.h"

static wst_memtrace *small_trace(const char *name)
{
    return test_record_workload(name, SIZE_SMALL, 1, 0);
}

/* The n-th record of a warp (records of different warps interleave). */
static const wst_record *nth_of(const wst_memtrace *m, uint32_t kernel, uint32_t cta, uint32_t warp,
                                unsigned n)
{
    for (size_t i = 0; i < m->per_kernel[kernel].count; i++) {
        const wst_record *r = &m->per_kernel[kernel].records[i];
        if (r->cta == cta && r->warp == warp && n-- == 0)
            return r;
    }
    cr_assert_fail("no record for kernel %u CTA %u warp %u", kernel, cta, warp);
    return NULL;
}

static const wst_record *first_of(const wst_memtrace *m, uint32_t kernel, uint32_t cta, uint32_t warp)
{
    return nth_of(m, kernel, cta, warp, 0);
}

/* 4096 points, 8 features, 5 clusters, 3 iterations.  invert_mapping reads
 * input[p*8 + i] (32-byte stride over lanes); kmeansPoint makes per warp
 * 5 × 8 × 2 loads and one store. */
Test(rodinia, kmeans)
{
    wst_memtrace *m = small_trace("kmeans");
    cr_assert_eq(m->trace.kernel_count, 4);
    const wst_record *r = first_of(m, 0, 3, 1);
    for (int l = 0; l < 32; l++)
        cr_assert_eq(r->addr[l] - r->addr[0], 32u * l);
    cr_assert_eq(m->per_kernel[1].count, 4096 / 32 * (5 * 8 * 2 + 1));
    const wst_record *f = first_of(m, 1, 0, 0), *c = nth_of(m, 1, 0, 0, 1);
    cr_assert_eq(f->addr[31] - f->addr[0], 31 * 4, "features are point-major after inversion");
    cr_assert_eq(c->addr[31], c->addr[0], "a cluster centre is a broadcast");
    wst_memtrace_free(m);
}

/* 4096 points of 32-byte Point records, 6 candidates: the weight load of a
 * warp strides by sizeof(Point). */
Test(rodinia, streamcluster)
{
    wst_memtrace *m = small_trace("streamcluster");
    cr_assert_eq(m->trace.kernel_count, 6);
    const wst_record *r = first_of(m, 2, 1, 3);
    for (int l = 0; l < 32; l++)
        cr_assert_eq(r->addr[l] - r->addr[0], 32u * l, "lane %d", l);
    const wst_record *coord = nth_of(m, 2, 1, 3, 1);
    cr_assert_eq(coord->addr[1] - coord->addr[0], 4, "coord[i*num + tid]: coalesced");
    wst_memtrace_free(m);
}

/* 2048 columns, 100 rows, pyramid height 20: ceil(99/20) = 5 launches of
 * ceil(2048/216) = 10 CTAs; each CTA first reads src[216·bx - 20 + tx]
 * for the lanes inside the row. */
Test(rodinia, pathfinder)
{
    wst_memtrace *m = small_trace("pathfinder");
    cr_assert_eq(m->trace.kernel_count, 5);
    cr_assert_eq(m->trace.kernels[0].grid.x, 10);
    const wst_record *cta0 = first_of(m, 0, 0, 0), *cta1 = first_of(m, 0, 1, 0);
    cr_assert_eq(cta0->mask, 0xfff00000u, "xidx = tx - 20 < 0 for lanes 0..19");
    cr_assert_eq(cta1->mask, 0xffffffffu);
    cr_assert_eq(cta1->addr[0] - cta0->addr[20], 4u * (216 - 20), "CTA 1 starts at column 196");
    wst_memtrace_free(m);
}

/* 4096 inputs in 16×16 blocks: warp w holds ty = 2w, 2w+1, so the tx == 0
 * load of input[16·by + ty + 1] has lanes 0 and 16. */
Test(rodinia, backprop)
{
    wst_memtrace *m = small_trace("backprop");
    cr_assert_eq(m->trace.kernel_count, 2);
    cr_assert_eq(m->trace.kernels[0].grid.y, 256);
    const wst_record *r = first_of(m, 0, 5, 3);
    cr_assert_eq(r->mask, 0x00010001u);
    cr_assert_eq(r->addr[16] - r->addr[0], 4, "ty and ty + 1");
    const wst_record *w = nth_of(m, 0, 5, 3, 1); /* input_hidden[(hid+1)·(16·by + ty + 1) + tx + 1] */
    cr_assert_eq(w->mask, 0xffffffffu);
    cr_assert_eq(w->addr[16] - w->addr[0], 4u * 17, "rows of hid + 1 = 17 floats");
    wst_memtrace_free(m);
}

/* 64×64 grid, 16×16 blocks computing 12×12 each with a border of 2:
 * ceil(64/12) = 6 blocks a side.  CTA (0,0) starts at row and column -2, so
 * warp 0 (ty 0-1) loads nothing and warp 1 (ty 2-3 = rows 0-1) loads the
 * lanes with tx >= 2. */
Test(rodinia, hotspot)
{
    wst_memtrace *m = small_trace("hotspot");
    cr_assert_eq(m->trace.kernel_count, 2, "4 steps, pyramids of 2");
    cr_assert_eq(m->trace.kernels[0].grid.x, 6);
    const wst_record *r = first_of(m, 0, 0, 1);
    cr_assert_eq(r->mask, 0xfffcfffcu);
    cr_assert_eq(r->addr[18] - r->addr[2], 64u * 4, "ty 3 is the next grid row");
    for (size_t i = 0; i < m->per_kernel[0].count; i++)
        cr_assert(m->per_kernel[0].records[i].cta != 0 || m->per_kernel[0].records[i].warp != 0 ||
                      m->per_kernel[0].records[i].kind == WST_STORE,
                  "warp 0 of CTA 0 loads nothing");
    wst_memtrace_free(m);
}

/* 64×64 image, 4×4 tiles, 2 iterations of two kernels.  srad_cuda_1's
 * first load is J[base + tx - cols]: for block row 0 the row above the
 * image, the same 16 columns for ty 0 and 1 (lanes 0-15 and 16-31). */
Test(rodinia, srad)
{
    wst_memtrace *m = small_trace("srad");
    cr_assert_eq(m->trace.kernel_count, 4);
    cr_assert_eq(m->trace.kernels[0].grid.x, 4);
    const wst_record *north = first_of(m, 0, 1, 0), *south = nth_of(m, 0, 1, 0, 1);
    for (int l = 0; l < 16; l++)
        cr_assert_eq(north->addr[l + 16], north->addr[l]);
    cr_assert_eq(north->addr[1] - north->addr[0], 4);
    cr_assert_eq(south->addr[0] - north->addr[0], 4u * 64 * 17, "16 rows below the row above");
    const wst_record *reload = nth_of(m, 0, 1, 0, 2);
    cr_assert_eq(reload->addr[0] - north->addr[0], 4u * 64, "by == 0 reloads image row 0");
    wst_memtrace_free(m);
}

/* 128×128 (129 columns): 8 + 7 diagonal launches of 16-thread CTAs.  A
 * tile loads its north-west corner with lane 0, then 16 reference rows
 * 129 floats apart. */
Test(rodinia, nw)
{
    wst_memtrace *m = small_trace("nw");
    cr_assert_eq(m->trace.kernel_count, 15);
    cr_assert_eq(m->trace.kernels[7].grid.x, 8, "the longest diagonal");
    const wst_record *corner = first_of(m, 0, 0, 0);
    cr_assert_eq(corner->mask, 0x1u);
    const wst_record *ref0 = nth_of(m, 0, 0, 0, 1), *ref1 = nth_of(m, 0, 0, 0, 2);
    cr_assert_eq(ref0->mask, 0xffffu, "16 threads");
    cr_assert_eq(ref1->addr[0] - ref0->addr[0], 4u * 129);
    wst_memtrace_free(m);
}

/* 64×64: steps at offsets 0, 16, 32 (diagonal, perimeter, internal) and a
 * last diagonal.  lud_perimeter's two half-warps diverge: lanes 0-15 load
 * the diagonal tile's rows first. */
Test(rodinia, lud)
{
    wst_memtrace *m = small_trace("lud");
    cr_assert_eq(m->trace.kernel_count, 10);
    cr_assert_eq(m->trace.kernels[1].grid.x, 3);
    cr_assert_eq(m->trace.kernels[2].grid.y, 3);
    const wst_record *r = first_of(m, 1, 0, 0);
    cr_assert_eq(r->mask, 0x0000ffffu);
    cr_assert_eq(r->addr[15] - r->addr[0], 60);
    wst_memtrace_free(m);
}
