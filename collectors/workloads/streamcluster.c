/* collectors/workloads/streamcluster.c: Rodinia streamcluster
 * (streamcluster_cuda.cu, kernel_compute_cost): for a candidate centre x,
 * each thread computes its point's cost against x and records the gain.
 * The host launches it once per candidate (here a fixed list). */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define THREADS_PER_BLOCK 512
#define CANDIDATES 6

/* Rodinia's Point on a 64-bit host: 32 bytes. */
typedef struct sc_point {
    float weight;
    float *coord;
    long assign;
    float cost;
} sc_point;

typedef struct sc_args {
    int num, dim, k, stride;
    long x;
    sc_point *p;
    float *coord, *work_mem;
    int *center_table;
    uint8_t *switch_membership;
} sc_args;
/* timing (docs/cuda-workloads.md): the SASS unrolls d_dist 16 times: gaps before each load, and how many loads its arithmetic has used by then */ static const uint8_t sc_gap[32] = {25, 0, 2, 0, 2, 0, 2, 0, 4, 1, 2, 0, 6, 0, 5, 0, 6, 4, 4, 1, 1, 0, 4, 0, 8, 1, 3, 2, 1, 3, 2, 0}, sc_used[32] = {0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 6, 6, 6, 6, 10, 12, 12, 14, 14, 14, 14, 14, 18, 18, 20, 22, 22, 22, 22, 22};
static float d_dist(emu_thread *t, int p1, int p2, int num, int dim, const float *coord)
{
    float retval = 0; emu_value loaded[32]; unsigned used = 0;
    for (int i = 0; i < dim; i++) {
        if (i < 16) { emu_gap(t, sc_gap[2 * i]); workload_use_upto(t, loaded, &used, sc_used[2 * i]); } float a = EMU_LD(t, float, &coord[(i * num) + p1]); if (i < 16) loaded[2 * i] = emu_loaded(t);
        if (i < 16) { emu_gap(t, sc_gap[2 * i + 1]); workload_use_upto(t, loaded, &used, sc_used[2 * i + 1]); } float b = EMU_LD(t, float, &coord[(i * num) + p2]); if (i < 16) loaded[2 * i + 1] = emu_loaded(t);
        retval += (a - b) * (a - b);
    }
    workload_use_upto(t, loaded, &used, 2 * (unsigned)(dim < 16 ? dim : 16)); emu_gap(t, 26); return retval;
}

static void compute_cost(emu_thread *t)
{
    const sc_args *a = t->args;
    int bid = (int)(t->blockIdx.x + t->gridDim.x * t->blockIdx.y);
    int tid = (int)(t->blockDim.x * (unsigned)bid + t->threadIdx.x); emu_gap(t, 17);
    if (tid < a->num) {
        float *lower = &a->work_mem[tid * a->stride];
        float weight = EMU_LD(t, float, &a->p[tid].weight); emu_value loaded_weight = emu_loaded(t);
        float x_cost = d_dist(t, tid, (int)a->x, a->num, a->dim, a->coord) * weight;
        float cost = EMU_LD(t, float, &a->p[tid].cost); emu_use(t, loaded_weight); emu_use(t, emu_loaded(t));
        if (x_cost < cost) { emu_gap(t, 12);
            EMU_ST(t, uint8_t, &a->switch_membership[tid], 1); emu_gap(t, 1);
            float v = EMU_LD(t, float, &lower[a->k]); workload_used(t, 2);
            EMU_ST(t, float, &lower[a->k], v + x_cost - cost);
        } else { emu_gap(t, 3);
            long assign = EMU_LD(t, long, &a->p[tid].assign); workload_used(t, 4);
            int center = EMU_LD(t, int, &a->center_table[assign]); workload_used(t, 4);
            float v = EMU_LD(t, float, &lower[center]); workload_used(t, 2);
            EMU_ST(t, float, &lower[center], v + cost - x_cost);
        }
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {4096, 65536, 524288};
    sc_args a = {.num = sizes[size], .dim = 16, .k = 8};
    a.stride = a.k + 1;
    a.p = emu_malloc(e, (size_t)a.num * sizeof *a.p);
    a.coord = emu_malloc(e, (size_t)a.num * a.dim * 4);
    a.work_mem = emu_malloc(e, (size_t)a.num * a.stride * 4);
    a.center_table = emu_malloc(e, (size_t)a.num * 4);
    a.switch_membership = emu_malloc(e, (size_t)a.num);
    if (!a.p || !a.coord || !a.work_mem || !a.center_table || !a.switch_membership)
        return ws_fail(err, "streamcluster: emulated device memory is full");
    uint64_t s = seed;
    for (int i = 0; i < a.num * a.dim; i++)
        a.coord[i] = workload_rand_float(&s);
    for (int i = 0; i < a.num; i++) {
        a.p[i].weight = 1.0f;
        a.p[i].assign = (long)(workload_rand(&s) % (uint64_t)a.k);
        a.p[i].cost = workload_rand_float(&s) * (float)a.dim / 4;
        a.center_table[i] = (int)(i % a.k);
    }
    float *want = verify ? calloc((size_t)a.num * a.stride, 4) : NULL;
    uint8_t *want_switch = verify ? calloc((size_t)a.num, 1) : NULL;
    unsigned blocks = (unsigned)(a.num + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    emu_launch l = {.name = "kernel_compute_cost", .grid = {blocks, 1, 1},
                    .block = {THREADS_PER_BLOCK, 1, 1}, .kernel = compute_cost, .args = &a, .timed = 1};
    int rc = 0;
    for (int c = 0; c < CANDIDATES && rc == 0; c++) {
        a.x = (long)(workload_rand(&s) % (uint64_t)a.num);
        rc = emu_launch_kernel(e, &l, err);
        for (int tid = 0; verify && tid < a.num; tid++) {
            float x_cost = 0;
            for (int i = 0; i < a.dim; i++) {
                float d = a.coord[i * a.num + tid] - a.coord[i * a.num + a.x];
                x_cost += d * d;
            }
            x_cost *= a.p[tid].weight;
            if (x_cost < a.p[tid].cost) {
                want_switch[tid] = 1;
                want[tid * a.stride + a.k] += x_cost - a.p[tid].cost;
            } else {
                want[tid * a.stride + a.center_table[a.p[tid].assign]] += a.p[tid].cost - x_cost;
            }
        }
    }
    if (rc == 0 && verify) {
        rc = workload_check_floats("streamcluster work_mem", a.work_mem, want,
                                   (uint64_t)a.num * a.stride, 1e-4f, err);
        if (rc == 0 && memcmp(want_switch, a.switch_membership, (size_t)a.num) != 0)
            rc = ws_fail(err, "streamcluster switch_membership differs from the CPU reference");
    }
    free(want);
    free(want_switch);
    return rc;
}

const workload workload_streamcluster = {
    .name = "streamcluster",
    .suite = "rodinia",
    .kernels = "kernel_compute_cost (per candidate centre)",
    .description = "online clustering; strided 32-byte point records, gathered centre ids",
    .sizes = {"4 K points", "64 K points", "512 K points"},
    .run = run,
};
