/* tests/test_emu_timing.c: the timing a port states (emu_gap, emu_loaded,
 * emu_use; collectors/emu/emu_timing.h) becomes each warp record's gap and
 * waits, across a barrier and with lanes that differ in what they use; every
 * port states its own (docs/cuda-workloads.md, "Timing"), and recording
 * without timing leaves its trace as it was. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/emu/emu.h"
#include "collectors/workloads/workloads.h"
#include "formats/memtrace.h"
#include "tests/workload_record.h"

typedef struct timed_args {
    float *buf;
} timed_args;

/* Two warps; the comments give each warp record's expected timing. */
static void timed_kernel(emu_thread *t)
{
    float *buf = ((const timed_args *)t->args)->buf;
    emu_gap(t, 4);
    float a = EMU_LD(t, float, &buf[t->linear]); /* gap 4, waits none: load 0 */
    emu_value loaded_a = emu_loaded(t);
    float b = EMU_LD(t, float, &buf[64 + t->linear]); /* gap 0, waits none: load 1 */
    emu_value loaded_b = emu_loaded(t);
    emu_use(t, loaded_a);
    emu_gap(t, 1);
    emu_gap(t, 1);
    EMU_ST(t, float, &buf[128 + t->linear], a); /* gap 2, waits a: 2nd most recent, bit 1 */
    EMU_SYNC(t);
    if (t->linear % 32 < 16) /* half the lanes use b, after the barrier */
        emu_use(t, loaded_b);
    EMU_ST(t, float, &buf[192 + t->linear], b); /* gap 0, waits b: bit 0 */
    float c = EMU_ATOMIC_ADD(t, float, &buf[256], 1.0f); /* load 2 */
    emu_use(t, emu_loaded(t));
    emu_use(t, loaded_a);
    emu_gap(t, 7);
    EMU_ST(t, float, &buf[260 + t->linear], c); /* gap 7, waits c (bit 0) and a (bit 2) */
}

Test(emu_timing, stated_gaps_and_uses_become_record_timing)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(m);
    ws_error err;
    emu *e = emu_new(&sink, 1u << 20, &err);
    cr_assert_not_null(e, "%s", err.msg);
    emu_set_timing(e, 1);
    timed_args args = {emu_malloc(e, 512 * sizeof(float))};
    emu_launch l = {.name = "timed", .grid = {1, 1, 1}, .block = {64, 1, 1},
                    .uses_barriers = 1, .timed = 1, .kernel = timed_kernel, .args = &args};
    cr_assert_eq(emu_launch_kernel(e, &l, &err), 0, "%s", err.msg);
    cr_assert(m->trace.kernels[0].has_timing);
    static const struct {
        uint32_t gap, waits;
    } want[] = {{4, 0}, {0, 0}, {2, 0x2}, {0, 0x1}, {0, 0}, {7, 0x5}};
    const wst_memkernel_records *per = &m->per_kernel[0];
    cr_assert_eq(per->count, 12); /* six a warp */
    uint32_t seen[2] = {0, 0};
    for (size_t i = 0; i < per->count; i++) {
        const wst_record *r = &per->records[i];
        uint32_t at = seen[r->warp]++;
        cr_assert(r->has_waits);
        cr_assert_eq(r->gap, want[at].gap, "warp %u record %u: gap %u", r->warp, at, r->gap);
        cr_assert_eq(r->waits, want[at].waits, "warp %u record %u: waits %#x", r->warp, at,
                     r->waits);
    }
    emu_free(e);
    wst_memtrace_free(m);
}

/* A launch that states no timing records none, whatever it calls, and so
 * does a timed launch while timing is off (the default). */
Test(emu_timing, untimed_launch_records_blocking_loads)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(m);
    ws_error err;
    emu *e = emu_new(&sink, 1u << 20, &err);
    timed_args args = {emu_malloc(e, 512 * sizeof(float))};
    emu_launch l = {.name = "untimed", .grid = {1, 1, 1}, .block = {64, 1, 1},
                    .uses_barriers = 1, .kernel = timed_kernel, .args = &args};
    cr_assert_eq(emu_launch_kernel(e, &l, &err), 0, "%s", err.msg);
    l.timed = 1; /* timing is off */
    cr_assert_eq(emu_launch_kernel(e, &l, &err), 0, "%s", err.msg);
    emu_set_timing(e, 1);
    l.timed = 0;
    cr_assert_eq(emu_launch_kernel(e, &l, &err), 0, "%s", err.msg);
    for (uint32_t k = 0; k < 3; k++)
        cr_assert_not(m->trace.kernels[k].has_timing);
    for (uint32_t k = 0; k < 3; k++)
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            const wst_record *r = &m->per_kernel[k].records[i];
            cr_assert(!r->has_waits && r->gap == 0 && r->waits == 0);
        }
    emu_free(e);
    wst_memtrace_free(m);
}

/* Each port's kernels and the gaps their records carry at --size small
 * (seed 1), every distinct value: the numbers of docs/cuda-workloads.md's
 * timing table, from the CUDA programs' sm_90 SASS. */
static const struct {
    const char *workload, *kernel, *gaps;
} port_gaps[] = {
    {"gaussian", "_Z4Fan1PfS_ii", "1 15 16"},
    {"gaussian", "_Z4Fan2PfS_S_iii", "0 1 2 6 29"},
    {"bfs", "_Z6KernelP4NodePiPbS2_S2_S1_i", "0 1 2 3 4 5 12 21"},
    {"bfs", "_Z7Kernel2PbS_S_S_i", "0 10 12"},
    {"kmeans", "invert_mapping", "0 1 6 31"},
    {"kmeans", "kmeansPoint", "0 1 2 6 35 51 54"},
    {"streamcluster", "kernel_compute_cost", "0 1 2 3 4 5 6 8 12 17 25 26"},
    {"pathfinder", "_Z14dynproc_kerneliPiS_S_iiii", "16 27 35 44"},
    {"backprop", "_Z22bpnn_layerforward_CUDAPfS_S_S_ii", "7 8 15 38"},
    {"backprop", "_Z24bpnn_adjust_weights_cudaPfiS_iS_S_", "0 1 2 3 5 18"},
    {"hotspot", "_Z14calculate_tempiPfS_S_iiiiffffff", "1 24 168"},
    {"srad", "_Z11srad_cuda_1PfS_S_S_S_S_iif", "0 4 5 6 14 18 19 23 24 113"},
    {"srad", "_Z11srad_cuda_2PfS_S_S_S_S_iiff", "0 2 13 14 15 16 19 20"},
    {"nw", "_Z20needle_cuda_shared_1PiS_iiii", "0 1 2 5 9 22 25 476"},
    {"nw", "_Z20needle_cuda_shared_2PiS_iiii", "0 1 2 5 9 22 26 476"},
    {"lud", "_Z12lud_diagonalPfii", "0 1 2 3 6 8 2257"},
    {"lud", "_Z13lud_perimeterPfii", "0 1 2 3 4 5 7 13 15 1211 1475"},
    {"lud", "_Z12lud_internalPfii", "0 15 18 37"},
    {"gemm", "gemm_kernel", "0 1 2 7 18"},
    {"atax", "atax_kernel1", "0 1 7 22"},
    {"atax", "atax_kernel2", "0 1 6 17"},
    {"bicg", "bicg_kernel1", "0 1 6 12 13"},
    {"bicg", "bicg_kernel2", "0 1 7 11 13"},
    {"mvt", "mvt_kernel1", "0 1 7 21"},
    {"mvt", "mvt_kernel2", "0 1 6 17"},
    {"gesummv", "gesummv_kernel", "0 1 2 3 4 9 31"},
    {"syrk", "syrk_kernel", "0 2 3 8 12 18"},
    {"syr2k", "syr2k_kernel", "0 1 2 11 15 18"},
    {"2dconv", "Convolution2D_kernel", "9 12 21 33"},
    {"3dconv", "convolution3D_kernel", "9 13 34"},
    {"covariance", "mean_kernel", "0 1 4 7 11 17"},
    {"covariance", "reduce_kernel", "1 23"},
    {"covariance", "covar_kernel", "0 1 2 5 9 32"},
    {"fdtd-2d", "fdtd_step1_kernel", "0 1 2 21 24"},
    {"fdtd-2d", "fdtd_step2_kernel", "0 1 2 21"},
    {"fdtd-2d", "fdtd_step3_kernel", "0 1 4 22"},
    {"gramschmidt", "gramschmidt_kernel1", "5 16 23"},
    {"gramschmidt", "gramschmidt_kernel2", "2 12 15"},
    {"gramschmidt", "gramschmidt_kernel3", "0 1 2 4 5 11 16"},
    {"spmv", "spmv_csr_scalar_kernel", "0 3 6 11 13 16"},
    {"spmv", "spmv_csr_vector_kernel", "0 3 6 13 18 25"},
};

static const char *expected_gaps(const char *port, const char *kernel)
{
    for (size_t i = 0; i < sizeof port_gaps / sizeof *port_gaps; i++)
        if (strcmp(port_gaps[i].workload, port) == 0 && strcmp(port_gaps[i].kernel, kernel) == 0)
            return port_gaps[i].gaps;
    return NULL;
}

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The distinct gaps of every launch of `kernel` in m, ascending, as text;
 * *waits: whether a record of one waits on a load. */
static void distinct_gaps(const wst_memtrace *m, const char *kernel, char *out, size_t cap,
                          int *waits)
{
    *waits = 0;
    size_t n = 0, capacity = 64;
    uint32_t *seen = malloc(capacity * sizeof *seen);
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        if (strcmp(m->trace.kernels[k].name, kernel) != 0)
            continue;
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            uint32_t gap = m->per_kernel[k].records[i].gap;
            *waits |= m->per_kernel[k].records[i].waits != 0;
            size_t j = 0;
            while (j < n && seen[j] != gap)
                j++;
            if (j < n)
                continue;
            if (n == capacity)
                seen = realloc(seen, (capacity *= 2) * sizeof *seen);
            seen[n++] = gap;
        }
    }
    qsort(seen, n, sizeof *seen, compare_u32);
    size_t used = 0;
    out[0] = '\0';
    for (size_t j = 0; j < n && used < cap; j++)
        used += (size_t)snprintf(out + used, cap - used, "%s%u", j ? " " : "", seen[j]);
    free(seen);
}

/* Recorded with timing, every kernel of every port states it: each record
 * has waits, they name only loads its warp has made, some record of each
 * kernel (over its launches) waits on one, and the gaps are the SASS's
 * (port_gaps). */
Test(emu_timing, every_port_states_its_timing)
{
    size_t kernels_checked = 0;
    for (unsigned w = 0; workload_at(w); w++) {
        const char *name = workload_at(w)->name;
        wst_memtrace *m = test_record_workload_timing(name, SIZE_SMALL, 1, 0, 1);
        for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
            const wst_kernel *kernel = &m->trace.kernels[k];
            cr_assert(kernel->has_timing, "%s: %s is launched timed", name, kernel->name);
            uint64_t ctas = (uint64_t)kernel->grid.x * kernel->grid.y * kernel->grid.z;
            uint32_t warps = (kernel->block.x * kernel->block.y * kernel->block.z + 31) / 32;
            uint32_t *loads = calloc(ctas * warps, sizeof *loads);
            for (size_t i = 0; i < m->per_kernel[k].count; i++) {
                const wst_record *r = &m->per_kernel[k].records[i];
                cr_assert(r->has_waits, "%s: %s record %zu has waits", name, kernel->name, i);
                uint32_t before = loads[(uint64_t)r->cta * warps + r->warp];
                for (uint32_t bit = 0; bit < 32; bit++)
                    if (r->waits >> bit & 1)
                        cr_assert(bit < 31 ? before > bit : before >= 32,
                                  "%s: %s record %zu waits on load %u back of %u", name,
                                  kernel->name, i, bit + 1, before);
                if (r->kind != WST_STORE)
                    loads[(uint64_t)r->cta * warps + r->warp]++;
            }
            free(loads);
            const char *want = expected_gaps(name, kernel->name);
            cr_assert_not_null(want, "%s: %s is in port_gaps", name, kernel->name);
            char got[256];
            int some_wait;
            distinct_gaps(m, kernel->name, got, sizeof got, &some_wait);
            cr_assert_str_eq(got, want, "%s: %s's gaps", name, kernel->name);
            cr_assert(some_wait, "%s: some record of %s waits on a load", name, kernel->name);
            kernels_checked++;
        }
        wst_memtrace_free(m);
    }
    cr_assert_gt(kernels_checked, 0);
}

/* Recording without timing gives the trace it gave before the ports stated
 * theirs (`warpscope record` without --timing): no kernel has timing, no
 * record a gap or waits, and but for those fields the records and PC tables
 * are the timed recording's, so the statements move no PC and no access. */
Test(emu_timing, untimed_recording_of_every_port_is_unchanged)
{
    for (unsigned w = 0; workload_at(w); w++) {
        const char *name = workload_at(w)->name;
        wst_memtrace *plain = test_record_workload_timing(name, SIZE_SMALL, 1, 0, 0);
        wst_memtrace *timed = test_record_workload_timing(name, SIZE_SMALL, 1, 0, 1);
        cr_assert_eq(plain->trace.kernel_count, timed->trace.kernel_count, "%s", name);
        for (uint32_t k = 0; k < plain->trace.kernel_count; k++) {
            const wst_kernel *a = &plain->trace.kernels[k], *b = &timed->trace.kernels[k];
            cr_assert_not(a->has_timing, "%s: %s", name, a->name);
            cr_assert_eq(a->pc_count, b->pc_count, "%s: %s", name, a->name);
            for (uint32_t p = 0; p < a->pc_count; p++)
                cr_assert(a->pcs[p].offset == b->pcs[p].offset && a->pcs[p].line == b->pcs[p].line,
                          "%s: %s pc %u", name, a->name, p);
            cr_assert_eq(plain->per_kernel[k].count, timed->per_kernel[k].count, "%s", name);
            for (size_t i = 0; i < plain->per_kernel[k].count; i++) {
                const wst_record *x = &plain->per_kernel[k].records[i],
                                 *y = &timed->per_kernel[k].records[i];
                cr_assert(!x->has_waits && x->gap == 0 && x->waits == 0, "%s: %s record %zu", name,
                          a->name, i);
                cr_assert(x->cta == y->cta && x->warp == y->warp && x->pc == y->pc &&
                              x->kind == y->kind && x->space == y->space &&
                              x->cache_op == y->cache_op && x->size == y->size &&
                              x->mask == y->mask && x->has_sm == y->has_sm &&
                              x->has_time == y->has_time && x->sm == y->sm &&
                              x->timestamp == y->timestamp &&
                              memcmp(x->addr, y->addr, sizeof x->addr) == 0,
                          "%s: %s record %zu differs", name, a->name, i);
            }
        }
        wst_memtrace_free(plain);
        wst_memtrace_free(timed);
    }
}
