/* collectors/workloads/gemm.c: PolyBench/GPU gemm, C = alpha·A·B + beta·C,
 * one thread per element of C with the original indexing (gemm.cu):
 * A[i*NK + k], B[k*NJ + j], C[i*NJ + j].  Not restrict: C is loaded and
 * stored every iteration, as a compiler unsure of aliasing must (nvcc 13
 * keeps the sum in a register instead: docs/cuda-workloads.md). */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define ALPHA 32412.0f
#define BETA 2123.0f

typedef struct gemm_args {
    float *a, *b, *c;
    int ni, nj, nk;
} gemm_args;

static void gemm_kernel(emu_thread *t)
{
    const gemm_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    int i = (int)(t->blockIdx.y * t->blockDim.y + t->threadIdx.y); emu_gap(t, 18); /* timing: docs/cuda-workloads.md */
    if (i < g->ni && j < g->nj) {
        float c = EMU_LD(t, float, &g->c[i * g->nj + j]); workload_used(t, 2);
        EMU_ST(t, float, &g->c[i * g->nj + j], c * BETA); emu_gap(t, 7);
        for (int k = 0; k < g->nk; k++) {
            float a = EMU_LD(t, float, &g->a[i * g->nk + k]); emu_value loaded_a = emu_loaded(t);
            float b = EMU_LD(t, float, &g->b[k * g->nj + j]); emu_value loaded_b = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->c[i * g->nj + j]); emu_use(t, loaded_a); workload_use_loaded(t, loaded_b, 7);
            EMU_ST(t, float, &g->c[i * g->nj + j], acc + ALPHA * a * b); emu_gap(t, 1);
        }
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 256, 768};
    int n = sizes[size];
    size_t cells = (size_t)n * n;
    gemm_args g = {emu_malloc(e, cells * 4), emu_malloc(e, cells * 4), emu_malloc(e, cells * 4),
                   n, n, n};
    if (!g.a || !g.b || !g.c)
        return ws_fail(err, "gemm: emulated device memory is full");
    uint64_t s = seed;
    for (size_t i = 0; i < cells; i++) {
        g.a[i] = workload_rand_float(&s);
        g.b[i] = workload_rand_float(&s);
        g.c[i] = workload_rand_float(&s);
    }
    float *ref = NULL;
    if (verify) {
        ref = malloc(cells * 4);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                float acc = g.c[i * n + j] * BETA;
                for (int k = 0; k < n; k++)
                    acc += ALPHA * g.a[i * n + k] * g.b[k * n + j];
                ref[i * n + j] = acc;
            }
    }
    /* DIM_THREAD_BLOCK_X 32, DIM_THREAD_BLOCK_Y 8, as in PolyBench/GPU. */
    emu_launch l = {.name = "gemm_kernel", .grid = {(unsigned)(n + 31) / 32, (unsigned)(n + 7) / 8, 1},
                    .block = {32, 8, 1}, .kernel = gemm_kernel, .args = &g, .timed = 1};
    int rc = emu_launch_kernel(e, &l, err);
    if (rc == 0 && verify)
        rc = workload_check_floats("gemm C", g.c, ref, cells, 1e-4f, err);
    free(ref);
    return rc;
}

const workload workload_gemm = {
    .name = "gemm",
    .suite = "polybench",
    .kernels = "gemm_kernel",
    .description = "matrix multiply, one thread per output; row-broadcast A, coalesced B",
    .sizes = {"N=64", "N=256", "N=768 (56 M records)"},
    .run = run,
};
