/* collectors/workloads/mvt.c: PolyBench/GPU mvt, x1 += A y1 (mvt_kernel1,
 * row walks) and x2 += Aᵀ y2 (mvt_kernel2, column walks). */
#include <stdlib.h>

#include "collectors/workloads/workloads.h"

typedef struct mvt_args {
    float *a, *x1, *x2, *y1, *y2;
    int n;
} mvt_args;

static void mvt_kernel1(emu_thread *t)
{
    const mvt_args *g = t->args;
    int i = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    if (i < g->n)
        for (int j = 0; j < g->n; j++) { emu_gap(t, j == 0 ? 21 : 1);
            float a = EMU_LD(t, float, &g->a[i * g->n + j]); emu_value loaded_matrix = emu_loaded(t);
            float y = EMU_LD(t, float, &g->y1[j]); emu_value loaded_vector = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->x1[i]); emu_use(t, loaded_matrix); workload_use_loaded(t, loaded_vector, 7);
            EMU_ST(t, float, &g->x1[i], acc + a * y);
        }
}

static void mvt_kernel2(emu_thread *t)
{
    const mvt_args *g = t->args;
    int i = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x);
    if (i < g->n)
        for (int j = 0; j < g->n; j++) { emu_gap(t, j == 0 ? 17 : 1);
            float a = EMU_LD(t, float, &g->a[j * g->n + i]); emu_value loaded_matrix = emu_loaded(t); emu_gap(t, 1);
            float y = EMU_LD(t, float, &g->y2[j]); emu_value loaded_vector = emu_loaded(t);
            float acc = EMU_LD(t, float, &g->x2[i]); emu_use(t, loaded_matrix); workload_use_loaded(t, loaded_vector, 6);
            EMU_ST(t, float, &g->x2[i], acc + a * y);
        }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {256, 1024, 4096};
    int n = sizes[size];
    uint64_t s = seed;
    float *ha = NULL, *hx1 = NULL, *hx2 = NULL, *hy1 = NULL, *hy2 = NULL;
    mvt_args g = {.n = n};
    g.a = workload_random_floats(e, (size_t)n * n, &s, verify ? &ha : NULL);
    g.x1 = workload_random_floats(e, (size_t)n, &s, verify ? &hx1 : NULL);
    g.x2 = workload_random_floats(e, (size_t)n, &s, verify ? &hx2 : NULL);
    g.y1 = workload_random_floats(e, (size_t)n, &s, verify ? &hy1 : NULL);
    g.y2 = workload_random_floats(e, (size_t)n, &s, verify ? &hy2 : NULL);
    int rc = !g.a || !g.x1 || !g.x2 || !g.y1 || !g.y2 ? ws_fail(err, "mvt: emulated device memory is full") : 0;
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "mvt_kernel1", (unsigned)n, mvt_kernel1, &g, err);
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "mvt_kernel2", (unsigned)n, mvt_kernel2, &g, err);
    if (rc == 0 && verify) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                hx1[i] += ha[i * n + j] * hy1[j];
                hx2[i] += ha[j * n + i] * hy2[j];
            }
        rc = workload_check_floats("mvt x1", g.x1, hx1, (uint64_t)n, 1e-4f, err) ||
                     workload_check_floats("mvt x2", g.x2, hx2, (uint64_t)n, 1e-4f, err)
                 ? -1
                 : 0;
    }
    free(ha);
    free(hx1);
    free(hx2);
    free(hy1);
    free(hy2);
    return rc;
}

const workload workload_mvt = {
    .name = "mvt",
    .suite = "polybench",
    .kernels = "mvt_kernel1, mvt_kernel2",
    .description = "matrix-vector products with A and its transpose",
    .sizes = {"N=256", "N=1024", "N=4096"},
    .run = run,
};
