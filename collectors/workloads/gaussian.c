/* collectors/workloads/gaussian.c: Rodinia gaussian elimination (Fan1,
 * Fan2), the kernels S1 profiles for its bypass study.  Indexing as in
 * Rodinia's gaussian.cu; for t in 0..Size-2 the host launches Fan1 then Fan2. */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

typedef struct gaussian_args {
    float *m, *a, *b;
    int size, t;
} gaussian_args;

/* Fan1: multipliers of column t. */
static void fan1(emu_thread *th)
{
    const gaussian_args *g = th->args;
    int Size = g->size, t = g->t;
    int x = (int)(th->threadIdx.x + th->blockIdx.x * th->blockDim.x); emu_gap(th, 16); /* timing: docs/cuda-workloads.md */
    if (x >= Size - 1 - t)
        return;
    float pivot_row = EMU_LD(th, float, &g->a[Size * (x + t + 1) + t]); emu_value loaded_row = emu_loaded(th); emu_gap(th, 1);
    float pivot = EMU_LD(th, float, &g->a[Size * t + t]); workload_use_loaded(th, loaded_row, 15);
    EMU_ST(th, float, &g->m[Size * (x + t + 1) + t], pivot_row / pivot);
}

/* Fan2: eliminate column t below the pivot, and update b. */
static void fan2(emu_thread *th)
{
    const gaussian_args *g = th->args;
    int Size = g->size, t = g->t;
    if ((int)(th->threadIdx.x + th->blockIdx.x * th->blockDim.x) >= Size - 1 - t)
        return;
    if ((int)(th->threadIdx.y + th->blockIdx.y * th->blockDim.y) >= Size - t)
        return;
    int xidx = (int)(th->blockIdx.x * th->blockDim.x + th->threadIdx.x);
    int yidx = (int)(th->blockIdx.y * th->blockDim.y + th->threadIdx.y); emu_gap(th, 29);
    float mult = EMU_LD(th, float, &g->m[Size * (xidx + 1 + t) + t]); emu_value loaded_mult = emu_loaded(th); emu_gap(th, 1);
    float above = EMU_LD(th, float, &g->a[Size * t + (yidx + t)]); emu_value loaded_above = emu_loaded(th);
    float cur = EMU_LD(th, float, &g->a[Size * (xidx + 1 + t) + (yidx + t)]); emu_use(th, loaded_mult); emu_use(th, loaded_above); workload_used(th, 2);
    EMU_ST(th, float, &g->a[Size * (xidx + 1 + t) + (yidx + t)], cur - mult * above); emu_gap(th, 6);
    if (yidx == 0) {
        float mult0 = EMU_LD(th, float, &g->m[Size * (xidx + 1 + t) + (yidx + t)]); emu_value loaded_mult0 = emu_loaded(th); emu_gap(th, 2);
        float bt = EMU_LD(th, float, &g->b[t]); emu_value loaded_bt = emu_loaded(th);
        float bx = EMU_LD(th, float, &g->b[xidx + 1 + t]); emu_use(th, loaded_mult0); emu_use(th, loaded_bt); workload_used(th, 1);
        EMU_ST(th, float, &g->b[xidx + 1 + t], bx - mult0 * bt);
    }
}

/* The same elimination on the CPU. */
static void reference(float *m, float *a, float *b, int n)
{
    for (int t = 0; t < n - 1; t++) {
        for (int x = 0; x < n - 1 - t; x++)
            m[n * (x + t + 1) + t] = a[n * (x + t + 1) + t] / a[n * t + t];
        for (int x = 0; x < n - 1 - t; x++) {
            for (int y = 0; y < n - t; y++)
                a[n * (x + 1 + t) + (y + t)] -= m[n * (x + 1 + t) + t] * a[n * t + (y + t)];
            b[x + 1 + t] -= m[n * (x + 1 + t) + t] * b[t];
        }
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 256, 512};
    int n = sizes[size];
    size_t cells = (size_t)n * n;
    gaussian_args g = {emu_malloc(e, cells * 4), emu_malloc(e, cells * 4), emu_malloc(e, n * 4),
                       n, 0};
    if (!g.m || !g.a || !g.b)
        return ws_fail(err, "gaussian: emulated device memory is full");
    /* A diagonally dominant matrix keeps the elimination stable without
     * pivoting, as Rodinia's generated inputs do. */
    uint64_t s = seed;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            g.a[i * n + j] = workload_rand_float(&s) + (i == j ? (float)n : 0.0f);
        g.b[i] = workload_rand_float(&s);
    }
    float *ref_m = NULL, *ref_a = NULL, *ref_b = NULL;
    if (verify) {
        ref_m = calloc(cells, 4);
        ref_a = malloc(cells * 4);
        ref_b = malloc((size_t)n * 4);
        memcpy(ref_a, g.a, cells * 4);
        memcpy(ref_b, g.b, (size_t)n * 4);
        reference(ref_m, ref_a, ref_b, n);
    }
    int rc = 0;
    for (int t = 0; t < n - 1 && rc == 0; t++) {
        g.t = t;
        emu_launch fan1_launch = {.name = "_Z4Fan1PfS_ii", .grid = {(n + 511) / 512, 1, 1},
                                  .block = {512, 1, 1}, .kernel = fan1, .args = &g, .timed = 1};
        emu_launch fan2_launch = {.name = "_Z4Fan2PfS_S_iii",
                                  .grid = {(n + 3) / 4, (n + 3) / 4, 1},
                                  .block = {4, 4, 1}, .kernel = fan2, .args = &g, .timed = 1};
        rc = emu_launch_kernel(e, &fan1_launch, err);
        if (rc == 0)
            rc = emu_launch_kernel(e, &fan2_launch, err);
    }
    if (rc == 0 && verify)
        rc = workload_check_floats("gaussian a", g.a, ref_a, cells, 1e-4f, err) ||
                     workload_check_floats("gaussian b", g.b, ref_b, (uint64_t)n, 1e-4f, err)
                 ? -1
                 : 0;
    free(ref_m);
    free(ref_a);
    free(ref_b);
    return rc;
}

const workload workload_gaussian = {
    .name = "gaussian",
    .suite = "rodinia",
    .kernels = "Fan1, Fan2",
    .description = "Gaussian elimination; Fan2's column walks give low load utilization (S1)",
    .sizes = {"64x64 matrix", "256x256", "512x512"},
    .run = run,
};
