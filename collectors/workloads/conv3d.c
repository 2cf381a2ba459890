/* collectors/workloads/conv3d.c: PolyBench/GPU 3DCONV
 * (convolution3D_kernel), launched once per plane i as the original host
 * code does; 15 loads per output with PolyBench's own (repetitive) terms. */
#include <stdlib.h>

#include "collectors/workloads/workloads.h"

typedef struct conv3d_args {
    float *a, *b;
    int ni, nj, nk, i;
} conv3d_args;

/* (di, dj, dk, coefficient) of each term, in PolyBench's order. */
static const struct { int di, dj, dk; float c; } terms[15] = {
    {-1, -1, -1, 2}, {1, -1, -1, 4}, {-1, -1, -1, 5}, {1, -1, -1, 7}, {-1, -1, -1, -8},
    {1, -1, -1, 10}, {0, -1, 0, -3}, {0, 0, 0, 6},    {0, 1, 0, -9},  {-1, -1, 1, 2},
    {1, -1, 1, 4},   {-1, 0, 1, 5},  {1, 0, 1, 7},    {-1, 1, 1, -8}, {1, 1, 1, 10},
};

static float cell(const float *a, int nj, int nk, int i, int j, int k) { return a[i * (nk * nj) + j * nk + k]; }

static void conv3d_kernel(emu_thread *t)
{
    const conv3d_args *g = t->args;
    int k = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    int j = (int)(t->blockIdx.y * t->blockDim.y + t->threadIdx.y);
    int i = g->i;
    if (i < g->ni - 1 && j < g->nj - 1 && k < g->nk - 1 && i > 0 && j > 0 && k > 0) {
        float sum = 0;
        for (int n = 0; n < 15; n++)
            { emu_gap(t, n == 0 ? 34 : 13); sum += terms[n].c * EMU_LD(t, float, &g->a[(i + terms[n].di) * (g->nk * g->nj) +
                                                      (j + terms[n].dj) * g->nk + (k + terms[n].dk)]); emu_use(t, emu_loaded(t)); } /* timing: docs/cuda-workloads.md */
        emu_gap(t, 9); EMU_ST(t, float, &g->b[i * (g->nk * g->nj) + j * g->nk + k], sum);
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {32, 128, 256};
    int n = sizes[size];
    size_t cells = (size_t)n * n * n;
    uint64_t s = seed;
    float *ha = NULL;
    conv3d_args g = {.ni = n, .nj = n, .nk = n};
    g.a = workload_random_floats(e, cells, &s, verify ? &ha : NULL);
    g.b = emu_malloc(e, cells * 4);
    int rc = !g.a || !g.b ? ws_fail(err, "3dconv: emulated device memory is full") : 0;
    for (int i = 1; i < n - 1 && rc == 0; i++) {
        g.i = i;
        rc = workload_launch_timed_2d(e, "convolution3D_kernel", (unsigned)n, (unsigned)n, conv3d_kernel, &g, err);
    }
    if (rc == 0 && verify) {
        float *want = calloc(cells, 4);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                for (int k = 1; k < n - 1; k++) {
                    float sum = 0;
                    for (int t = 0; t < 15; t++)
                        sum += terms[t].c * cell(ha, n, n, i + terms[t].di, j + terms[t].dj, k + terms[t].dk);
                    want[i * n * n + j * n + k] = sum;
                }
        rc = workload_check_floats("3dconv B", g.b, want, cells, 1e-5f, err);
        free(want);
    }
    free(ha);
    return rc;
}

const workload workload_3dconv = {
    .name = "3dconv",
    .suite = "polybench",
    .kernels = "convolution3D_kernel (per plane)",
    .description = "3-D convolution; neighbouring planes re-read by successive launches",
    .sizes = {"32^3", "128^3", "256^3"},
    .run = run,
};
