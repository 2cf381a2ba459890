/* collectors/workloads/gesummv.c: PolyBench/GPU gesummv,
 * y = alpha·A x + beta·B x, one thread per row. */
#include <stdlib.h>

#include "collectors/workloads/workloads.h"

#define ALPHA 43532.0f
#define BETA 12313.0f

typedef struct gesummv_args {
    float *a, *b, *x, *y, *tmp;
    int n;
} gesummv_args;

static void gesummv_kernel(emu_thread *t)
{
    const gesummv_args *g = t->args;
    int i = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x); emu_gap(t, 28); /* timing: docs/cuda-workloads.md */
    if (i < g->n) {
        for (int j = 0; j < g->n; j++) { emu_gap(t, 3);
            float a = EMU_LD(t, float, &g->a[i * g->n + j]); emu_value loaded_a = emu_loaded(t);
            float x = EMU_LD(t, float, &g->x[j]); emu_value loaded_x = emu_loaded(t);
            float tmp = EMU_LD(t, float, &g->tmp[i]); emu_use(t, loaded_a); workload_use_loaded(t, loaded_x, 3);
            EMU_ST(t, float, &g->tmp[i], tmp + a * x);
            float b = EMU_LD(t, float, &g->b[i * g->n + j]); emu_value loaded_b = emu_loaded(t);
            float x2 = EMU_LD(t, float, &g->x[j]); emu_value loaded_x2 = emu_loaded(t);
            float y = EMU_LD(t, float, &g->y[i]); emu_use(t, loaded_b); workload_use_loaded(t, loaded_x2, 9);
            EMU_ST(t, float, &g->y[i], y + b * x2); emu_gap(t, 1);
        }
        float tmp = EMU_LD(t, float, &g->tmp[i]); emu_value loaded_tmp = emu_loaded(t);
        float y = EMU_LD(t, float, &g->y[i]); workload_use_loaded(t, loaded_tmp, 2);
        EMU_ST(t, float, &g->y[i], ALPHA * tmp + BETA * y);
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {256, 1024, 4096};
    int n = sizes[size];
    uint64_t s = seed;
    float *ha = NULL, *hb = NULL, *hx = NULL;
    gesummv_args g = {.n = n};
    g.a = workload_random_floats(e, (size_t)n * n, &s, verify ? &ha : NULL);
    g.b = workload_random_floats(e, (size_t)n * n, &s, verify ? &hb : NULL);
    g.x = workload_random_floats(e, (size_t)n, &s, verify ? &hx : NULL);
    g.y = emu_malloc(e, (size_t)n * 4);
    g.tmp = emu_malloc(e, (size_t)n * 4);
    int rc = !g.a || !g.b || !g.x || !g.y || !g.tmp ? ws_fail(err, "gesummv: emulated device memory is full") : 0;
    if (rc == 0)
        rc = workload_launch_timed_1d(e, "gesummv_kernel", (unsigned)n, gesummv_kernel, &g, err);
    if (rc == 0 && verify) {
        float *y = malloc((size_t)n * 4);
        for (int i = 0; i < n; i++) {
            float tmp = 0, acc = 0;
            for (int j = 0; j < n; j++) {
                tmp += ha[i * n + j] * hx[j];
                acc += hb[i * n + j] * hx[j];
            }
            y[i] = ALPHA * tmp + BETA * acc;
        }
        rc = workload_check_floats("gesummv y", g.y, y, (uint64_t)n, 1e-4f, err);
        free(y);
    }
    free(ha);
    free(hb);
    free(hx);
    return rc;
}

const workload workload_gesummv = {
    .name = "gesummv",
    .suite = "polybench",
    .kernels = "gesummv_kernel",
    .description = "scalar, vector and matrix multiplication; two row walks per thread",
    .sizes = {"N=256", "N=1024", "N=4096"},
    .run = run,
};
