/* collectors/workloads/syrk.c: PolyBench/GPU syrk, C = alpha·A·Aᵀ + beta·C,
 * one thread per element of C (32×8 blocks). */
#include <stdlib.h>

#include "collectors/workloads/workloads.h"

#define ALPHA 12435.0f
#define BETA 4546.0f

typedef struct syrk_args {
    float *a, *c;
    int n, m;
} syrk_args;

static void syrk_kernel(emu_thread *t)
{
    const syrk_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    int i = (int)(t->blockIdx.y * t->blockDim.y + t->threadIdx.y); emu_gap(t, 18); /* timing: docs/cuda-workloads.md */
    if (i < g->n && j < g->n) {
        float c = EMU_LD(t, float, &g->c[i * g->n + j]); workload_used(t, 2);
        EMU_ST(t, float, &g->c[i * g->n + j], c * BETA); emu_gap(t, 10);
        for (int k = 0; k < g->m; k++) { emu_gap(t, 2);
            float ai = EMU_LD(t, float, &g->a[i * g->m + k]); emu_value loaded_ai = emu_loaded(t); emu_gap(t, 2);
            float aj = EMU_LD(t, float, &g->a[j * g->m + k]); emu_value loaded_aj = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->c[i * g->n + j]); emu_use(t, loaded_ai); emu_use(t, loaded_aj); workload_used(t, 8);
            EMU_ST(t, float, &g->c[i * g->n + j], acc + ALPHA * ai * aj); emu_gap(t, 1);
        }
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 256, 768};
    int n = sizes[size];
    uint64_t s = seed;
    float *ha = NULL, *hc = NULL;
    syrk_args g = {.n = n, .m = n};
    g.a = workload_random_floats(e, (size_t)n * n, &s, verify ? &ha : NULL);
    g.c = workload_random_floats(e, (size_t)n * n, &s, verify ? &hc : NULL);
    int rc = !g.a || !g.c ? ws_fail(err, "syrk: emulated device memory is full") : 0;
    if (rc == 0)
        rc = workload_launch_timed_2d(e, "syrk_kernel", (unsigned)n, (unsigned)n, syrk_kernel, &g, err);
    if (rc == 0 && verify) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                float acc = hc[i * n + j] * BETA;
                for (int k = 0; k < n; k++)
                    acc += ALPHA * ha[i * n + k] * ha[j * n + k];
                hc[i * n + j] = acc;
            }
        rc = workload_check_floats("syrk C", g.c, hc, (uint64_t)n * n, 1e-4f, err);
    }
    free(ha);
    free(hc);
    return rc;
}

const workload workload_syrk = {
    .name = "syrk",
    .suite = "polybench",
    .kernels = "syrk_kernel",
    .description = "symmetric rank-k update; row-broadcast and row-strided A reads",
    .sizes = {"N=64", "N=256", "N=768"},
    .run = run,
};
