/* collectors/workloads/conv2d.c: PolyBench/GPU 2DCONV
 * (Convolution2D_kernel): a 3×3 stencil, one thread per output. */
#include <stdlib.h>

#include "collectors/workloads/workloads.h"

typedef struct conv2d_args {
    float *a, *b;
    int ni, nj;
} conv2d_args;

static const float coefficient[3][3] = {{0.2f, -0.3f, 0.4f}, {0.5f, 0.6f, 0.7f}, {-0.8f, -0.9f, 0.10f}};

static void conv2d_kernel(emu_thread *t)
{
    const conv2d_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    int i = (int)(t->blockIdx.y * t->blockDim.y + t->threadIdx.y);
    if (i < g->ni - 1 && j < g->nj - 1 && i > 0 && j > 0) {
        /* PolyBench's order: c11 A[i-1][j-1], c21 A[i-1][j], c31 A[i-1][j+1],
         * c12 A[i][j-1], ..., c33 A[i+1][j+1] (row by row). */
        float sum = 0;
        for (int di = -1; di <= 1; di++)
            for (int dj = -1; dj <= 1; dj++)
                { emu_gap(t, di == -1 && dj == -1 ? 33 : dj == -1 ? 21 : 9); sum += coefficient[dj + 1][di + 1] * EMU_LD(t, float, &g->a[(i + di) * g->nj + (j + dj)]); emu_use(t, emu_loaded(t)); } /* timing: docs/cuda-workloads.md */
        emu_gap(t, 12); EMU_ST(t, float, &g->b[i * g->nj + j], sum);
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {128, 1024, 4096};
    int n = sizes[size];
    uint64_t s = seed;
    float *ha = NULL;
    conv2d_args g = {.ni = n, .nj = n};
    g.a = workload_random_floats(e, (size_t)n * n, &s, verify ? &ha : NULL);
    g.b = emu_malloc(e, (size_t)n * n * 4);
    int rc = !g.a || !g.b ? ws_fail(err, "2dconv: emulated device memory is full") : 0;
    if (rc == 0)
        rc = workload_launch_timed_2d(e, "Convolution2D_kernel", (unsigned)n, (unsigned)n, conv2d_kernel, &g, err);
    if (rc == 0 && verify) {
        float *want = calloc((size_t)n * n, 4);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++) {
                float sum = 0;
                for (int di = -1; di <= 1; di++)
                    for (int dj = -1; dj <= 1; dj++)
                        sum += coefficient[dj + 1][di + 1] * ha[(i + di) * n + (j + dj)];
                want[i * n + j] = sum;
            }
        rc = workload_check_floats("2dconv B", g.b, want, (uint64_t)n * n, 1e-5f, err);
        free(want);
    }
    free(ha);
    return rc;
}

const workload workload_2dconv = {
    .name = "2dconv",
    .suite = "polybench",
    .kernels = "Convolution2D_kernel",
    .description = "3x3 convolution; neighbouring rows reused across warps",
    .sizes = {"128x128", "1024x1024", "4096x4096"},
    .run = run,
};
