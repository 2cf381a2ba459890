/* collectors/workloads/atax.c: PolyBench/GPU atax, y = Aᵀ(A x): atax_kernel1
 * walks rows of A (tmp), atax_kernel2 walks columns (y). */
#include <stdlib.h>

#include "collectors/workloads/workloads.h"

typedef struct atax_args {
    float *a, *x, *y, *tmp;
    int nx, ny;
} atax_args;

static void atax_kernel1(emu_thread *t)
{
    const atax_args *g = t->args;
    int i = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    if (i < g->nx)
        for (int j = 0; j < g->ny; j++) { emu_gap(t, j == 0 ? 22 : 1);
            float a = EMU_LD(t, float, &g->a[i * g->ny + j]); emu_value loaded_matrix = emu_loaded(t);
            float x = EMU_LD(t, float, &g->x[j]); emu_value loaded_vector = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->tmp[i]); emu_use(t, loaded_matrix); workload_use_loaded(t, loaded_vector, 7);
            EMU_ST(t, float, &g->tmp[i], acc + a * x);
        }
}

static void atax_kernel2(emu_thread *t)
{
    const atax_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    if (j < g->ny)
        for (int i = 0; i < g->nx; i++) { emu_gap(t, i == 0 ? 17 : 1);
            float a = EMU_LD(t, float, &g->a[i * g->ny + j]); emu_value loaded_matrix = emu_loaded(t); emu_gap(t, 1);
            float tmp = EMU_LD(t, float, &g->tmp[i]); emu_value loaded_vector = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->y[j]); emu_use(t, loaded_matrix); workload_use_loaded(t, loaded_vector, 6);
            EMU_ST(t, float, &g->y[j], acc + a * tmp);
        }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {256, 1024, 4096};
    int n = sizes[size];
    uint64_t s = seed;
    float *ha = NULL, *hx = NULL;
    atax_args g = {.nx = n, .ny = n};
    g.a = workload_random_floats(e, (size_t)n * n, &s, verify ? &ha : NULL);
    g.x = workload_random_floats(e, (size_t)n, &s, verify ? &hx : NULL);
    g.y = emu_malloc(e, (size_t)n * 4);
    g.tmp = emu_malloc(e, (size_t)n * 4);
    int rc = !g.a || !g.x || !g.y || !g.tmp ? ws_fail(err, "atax: emulated device memory is full") : 0;
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "atax_kernel1", (unsigned)n, atax_kernel1, &g, err);
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "atax_kernel2", (unsigned)n, atax_kernel2, &g, err);
    if (rc == 0 && verify) {
        float *tmp = calloc((size_t)n, 4), *y = calloc((size_t)n, 4);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                tmp[i] += ha[i * n + j] * hx[j];
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                y[j] += ha[i * n + j] * tmp[i];
        rc = workload_check_floats("atax y", g.y, y, (uint64_t)n, 1e-4f, err);
        free(tmp);
        free(y);
    }
    free(ha);
    free(hx);
    return rc;
}

const workload workload_atax = {
    .name = "atax",
    .suite = "polybench",
    .kernels = "atax_kernel1, atax_kernel2",
    .description = "A-transpose times A x; row walks (divergent) then column walks (coalesced)",
    .sizes = {"N=256", "N=1024", "N=4096"},
    .run = run,
};
