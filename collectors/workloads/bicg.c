/* collectors/workloads/bicg.c: PolyBench/GPU bicg, s = Aᵀr (bicg_kernel1,
 * column walks) and q = A p (bicg_kernel2, row walks). */
#include <stdlib.h>

#include "collectors/workloads/workloads.h"

typedef struct bicg_args {
    float *a, *r, *s, *p, *q;
    int nx, ny;
} bicg_args;

static void bicg_kernel1(emu_thread *t)
{
    const bicg_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    if (j < g->ny) {
        emu_gap(t, 13); EMU_ST(t, float, &g->s[j], 0.0f);
        for (int i = 0; i < g->nx; i++) { emu_gap(t, i == 0 ? 12 : 1);
            float a = EMU_LD(t, float, &g->a[i * g->ny + j]); emu_value loaded_matrix = emu_loaded(t);
            float r = EMU_LD(t, float, &g->r[i]); emu_value loaded_vector = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->s[j]); emu_use(t, loaded_matrix); workload_use_loaded(t, loaded_vector, 6);
            EMU_ST(t, float, &g->s[j], acc + a * r);
        }
    }
}

static void bicg_kernel2(emu_thread *t)
{
    const bicg_args *g = t->args;
    int i = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    if (i < g->nx) {
        emu_gap(t, 13); EMU_ST(t, float, &g->q[i], 0.0f);
        for (int j = 0; j < g->ny; j++) { emu_gap(t, j == 0 ? 11 : 1);
            float a = EMU_LD(t, float, &g->a[i * g->ny + j]); emu_value loaded_matrix = emu_loaded(t);
            float p = EMU_LD(t, float, &g->p[j]); emu_value loaded_vector = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->q[i]); emu_use(t, loaded_matrix); workload_use_loaded(t, loaded_vector, 7);
            EMU_ST(t, float, &g->q[i], acc + a * p);
        }
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {256, 1024, 4096};
    int n = sizes[size];
    uint64_t st = seed;
    float *ha = NULL, *hr = NULL, *hp = NULL;
    bicg_args g = {.nx = n, .ny = n};
    g.a = workload_random_floats(e, (size_t)n * n, &st, verify ? &ha : NULL);
    g.r = workload_random_floats(e, (size_t)n, &st, verify ? &hr : NULL);
    g.p = workload_random_floats(e, (size_t)n, &st, verify ? &hp : NULL);
    g.s = emu_malloc(e, (size_t)n * 4);
    g.q = emu_malloc(e, (size_t)n * 4);
    int rc = !g.a || !g.r || !g.p || !g.s || !g.q ? ws_fail(err, "bicg: emulated device memory is full") : 0;
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "bicg_kernel1", (unsigned)n, bicg_kernel1, &g, err);
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "bicg_kernel2", (unsigned)n, bicg_kernel2, &g, err);
    if (rc == 0 && verify) {
        float *s = calloc((size_t)n, 4), *q = calloc((size_t)n, 4);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                s[j] += ha[i * n + j] * hr[i];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                q[i] += ha[i * n + j] * hp[j];
        rc = workload_check_floats("bicg s", g.s, s, (uint64_t)n, 1e-4f, err) ||
                     workload_check_floats("bicg q", g.q, q, (uint64_t)n, 1e-4f, err)
                 ? -1
                 : 0;
        free(s);
        free(q);
    }
    free(ha);
    free(hr);
    free(hp);
    return rc;
}

const workload workload_bicg = {
    .name = "bicg",
    .suite = "polybench",
    .kernels = "bicg_kernel1, bicg_kernel2",
    .description = "BiCG sub-kernel; column walks (coalesced) then row walks (divergent)",
    .sizes = {"N=256", "N=1024", "N=4096"},
    .run = run,
};
