/* collectors/workloads/covariance.c: PolyBench/GPU covariance: mean_kernel
 * (column means), reduce_kernel (centre the data), covar_kernel (the upper
 * triangle, mirrored); data is (N+1)×(M+1), 1-based as in the original. */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

typedef struct cov_args {
    float *data, *mean, *symmat;
    int n, m;
} cov_args;

static void mean_kernel(emu_thread *t)
{
    const cov_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x) + 1, w = g->m + 1; emu_gap(t, 17); /* timing: docs/cuda-workloads.md */
    if (j >= 1 && j < g->m + 1) {
        EMU_ST(t, float, &g->mean[j], 0.0f); emu_gap(t, 11);
        for (int i = 1; i < g->n + 1; i++) {
            float d = EMU_LD(t, float, &g->data[i * w + j]); emu_value loaded_d = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->mean[j]); workload_use_loaded(t, loaded_d, 4);
            EMU_ST(t, float, &g->mean[j], acc + d); emu_gap(t, 1);
        }
        float acc = EMU_LD(t, float, &g->mean[j]); workload_used(t, 7);
        EMU_ST(t, float, &g->mean[j], acc / (float)g->n);
    }
}

static void reduce_kernel(emu_thread *t)
{
    const cov_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x) + 1;
    int i = (int)(t->blockIdx.y * t->blockDim.y + t->threadIdx.y) + 1, w = g->m + 1; emu_gap(t, 23);
    if (i >= 1 && i < g->n + 1 && j >= 1 && j < g->m + 1) {
        float mean = EMU_LD(t, float, &g->mean[j]); emu_value loaded_mean = emu_loaded(t); emu_gap(t, 1);
        float d = EMU_LD(t, float, &g->data[i * w + j]); workload_use_loaded(t, loaded_mean, 1);
        EMU_ST(t, float, &g->data[i * w + j], d - mean);
    }
}

static void covar_kernel(emu_thread *t)
{
    const cov_args *g = t->args;
    int j1 = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x) + 1, w = g->m + 1; emu_gap(t, 24);
    if (j1 >= 1 && j1 < g->m + 1)
        for (int j2 = j1; j2 < g->m + 1; j2++) { emu_gap(t, 8);
            EMU_ST(t, float, &g->symmat[j1 * w + j2], 0.0f); emu_gap(t, 2);
            for (int i = 1; i < g->n + 1; i++) {
                float a = EMU_LD(t, float, &g->data[i * w + j1]); emu_value loaded_a = emu_loaded(t);
                float b = EMU_LD(t, float, &g->data[i * w + j2]); emu_value loaded_b = emu_loaded(t);
                float acc = EMU_LD(t, float, &g->symmat[j1 * w + j2]); emu_use(t, loaded_a); workload_use_loaded(t, loaded_b, 5);
                EMU_ST(t, float, &g->symmat[j1 * w + j2], acc + a * b); emu_gap(t, 1);
            }
            float v = EMU_LD(t, float, &g->symmat[j1 * w + j2]); workload_used(t, 5);
            EMU_ST(t, float, &g->symmat[j2 * w + j1], v); emu_gap(t, 1);
        }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 256, 512};
    int n = sizes[size], m = n, w = m + 1;
    size_t cells = (size_t)(n + 1) * w;
    uint64_t s = seed;
    float *hd = NULL;
    cov_args g = {.n = n, .m = m};
    g.data = workload_random_floats(e, cells, &s, verify ? &hd : NULL);
    g.mean = emu_malloc(e, (size_t)w * 4);
    g.symmat = emu_malloc(e, (size_t)w * w * 4);
    int rc = !g.data || !g.mean || !g.symmat ? ws_fail(err, "covariance: emulated device memory is full") : 0;
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "mean_kernel", (unsigned)m, mean_kernel, &g, err);
    if (rc == 0)
        rc = workload_launch_timed_2d(e, "reduce_kernel", (unsigned)m, (unsigned)n, reduce_kernel, &g, err);
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "covar_kernel", (unsigned)m, covar_kernel, &g, err);
    if (rc == 0 && verify) {
        float *mean = calloc((size_t)w, 4), *sym = calloc((size_t)w * w, 4);
        for (int j = 1; j <= m; j++) {
            for (int i = 1; i <= n; i++)
                mean[j] += hd[i * w + j];
            mean[j] /= (float)n;
        }
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= m; j++)
                hd[i * w + j] -= mean[j];
        for (int j1 = 1; j1 <= m; j1++)
            for (int j2 = j1; j2 <= m; j2++) {
                for (int i = 1; i <= n; i++)
                    sym[j1 * w + j2] += hd[i * w + j1] * hd[i * w + j2];
                sym[j2 * w + j1] = sym[j1 * w + j2];
            }
        /* Row and column 0 are never written (1-based); compare the rest. */
        for (int i = 0; i < w; i++)
            sym[i] = g.symmat[i], sym[i * w] = g.symmat[i * w];
        rc = workload_check_floats("covariance symmat", g.symmat, sym, (uint64_t)w * w, 1e-4f, err);
        free(mean);
        free(sym);
    }
    free(hd);
    return rc;
}

const workload workload_covariance = {
    .name = "covariance",
    .suite = "polybench",
    .kernels = "mean_kernel, reduce_kernel, covar_kernel",
    .description = "covariance matrix; triangular loops give divergent trip counts",
    .sizes = {"64x64", "256x256", "512x512"},
    .run = run,
};
