/* collectors/workloads/syr2k.c: PolyBench/GPU syr2k,
 * C = alpha·A·Bᵀ + alpha·B·Aᵀ + beta·C, one thread per element of C. */
#include <stdlib.h>

#include "collectors/workloads/workloads.h"

#define ALPHA 12435.0f
#define BETA 4546.0f

typedef struct syr2k_args {
    float *a, *b, *c;
    int n, m;
} syr2k_args;

static void syr2k_kernel(emu_thread *t)
{
    const syr2k_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    int i = (int)(t->blockIdx.y * t->blockDim.y + t->threadIdx.y); emu_gap(t, 18); /* timing: docs/cuda-workloads.md */
    if (i < g->n && j < g->n) {
        float c = EMU_LD(t, float, &g->c[i * g->n + j]); workload_used(t, 2);
        EMU_ST(t, float, &g->c[i * g->n + j], c * BETA); emu_gap(t, 11);
        for (int k = 0; k < g->m; k++) {
            float ai = EMU_LD(t, float, &g->a[i * g->m + k]); emu_value loaded_ai = emu_loaded(t); emu_gap(t, 1);
            float bj = EMU_LD(t, float, &g->b[j * g->m + k]); emu_value loaded_bj = emu_loaded(t);
            float bi = EMU_LD(t, float, &g->b[i * g->m + k]); emu_value loaded_bi = emu_loaded(t);
            float aj = EMU_LD(t, float, &g->a[j * g->m + k]); emu_value loaded_aj = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->c[i * g->n + j]); emu_use(t, loaded_ai); emu_use(t, loaded_bj); emu_use(t, loaded_bi); workload_use_loaded(t, loaded_aj, 15);
            EMU_ST(t, float, &g->c[i * g->n + j], acc + ALPHA * ai * bj + ALPHA * bi * aj); emu_gap(t, 1);
        }
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 256, 768};
    int n = sizes[size];
    uint64_t s = seed;
    float *ha = NULL, *hb = NULL, *hc = NULL;
    syr2k_args g = {.n = n, .m = n};
    g.a = workload_random_floats(e, (size_t)n * n, &s, verify ? &ha : NULL);
    g.b = workload_random_floats(e, (size_t)n * n, &s, verify ? &hb : NULL);
    g.c = workload_random_floats(e, (size_t)n * n, &s, verify ? &hc : NULL);
    int rc = !g.a || !g.b || !g.c ? ws_fail(err, "syr2k: emulated device memory is full") : 0;
    if (rc == 0)
        rc = workload_launch_timed_2d(e, "syr2k_kernel", (unsigned)n, (unsigned)n, syr2k_kernel, &g, err);
    if (rc == 0 && verify) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                float acc = hc[i * n + j] * BETA;
                for (int k = 0; k < n; k++)
                    acc += ALPHA * ha[i * n + k] * hb[j * n + k] + ALPHA * hb[i * n + k] * ha[j * n + k];
                hc[i * n + j] = acc;
            }
        rc = workload_check_floats("syr2k C", g.c, hc, (uint64_t)n * n, 1e-4f, err);
    }
    free(ha);
    free(hb);
    free(hc);
    return rc;
}

const workload workload_syr2k = {
    .name = "syr2k",
    .suite = "polybench",
    .kernels = "syr2k_kernel",
    .description = "symmetric rank-2k update; four A/B reads per step",
    .sizes = {"N=64", "N=256", "N=768"},
    .run = run,
};
