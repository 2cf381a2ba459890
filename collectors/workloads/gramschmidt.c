/* collectors/workloads/gramschmidt.c: PolyBench/GPU gramschmidt: for each
 * column k, gramschmidt_kernel1 (one thread: the column's norm),
 * gramschmidt_kernel2 (normalise into Q) and gramschmidt_kernel3 (project
 * the later columns out). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

typedef struct gs_args {
    float *a, *r, *q;
    int m, n, k;
} gs_args;

static void gs_kernel1(emu_thread *t)
{
    const gs_args *g = t->args;
    int tid = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x), n = g->n, k = g->k; emu_gap(t, 23); /* timing: docs/cuda-workloads.md */
    if (tid == 0) {
        float nrm = 0;
        for (int i = 0; i < g->m; i++) {
            float a = EMU_LD(t, float, &g->a[i * n + k]); workload_used(t, 5);
            nrm += a * a;
        } emu_gap(t, 11);
        EMU_ST(t, float, &g->r[k * n + k], sqrtf(nrm));
    }
}

static void gs_kernel2(emu_thread *t)
{
    const gs_args *g = t->args;
    int i = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x), n = g->n, k = g->k; emu_gap(t, 15);
    if (i < g->m) {
        float a = EMU_LD(t, float, &g->a[i * n + k]); emu_value loaded_a = emu_loaded(t); emu_gap(t, 2);
        float r = EMU_LD(t, float, &g->r[k * n + k]); workload_use_loaded(t, loaded_a, 12);
        EMU_ST(t, float, &g->q[i * n + k], a / r);
    }
}

static void gs_kernel3(emu_thread *t)
{
    const gs_args *g = t->args;
    int j = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x), n = g->n, k = g->k; emu_gap(t, 16);
    if (j > k && j < n) {
        EMU_ST(t, float, &g->r[k * n + j], 0.0f); emu_gap(t, 11);
        for (int i = 0; i < g->m; i++) {
            float q = EMU_LD(t, float, &g->q[i * n + k]); emu_value loaded_q = emu_loaded(t);
            float a = EMU_LD(t, float, &g->a[i * n + j]); emu_value loaded_a = emu_loaded(t);
            float r = EMU_LD(t, float, &g->r[k * n + j]); emu_use(t, loaded_q); workload_use_loaded(t, loaded_a, 5);
            EMU_ST(t, float, &g->r[k * n + j], r + q * a); emu_gap(t, 1);
        } emu_gap(t, 1);
        for (int i = 0; i < g->m; i++) {
            float a = EMU_LD(t, float, &g->a[i * n + j]); emu_value loaded_a = emu_loaded(t);
            float q = EMU_LD(t, float, &g->q[i * n + k]); emu_value loaded_q = emu_loaded(t);
            float r = EMU_LD(t, float, &g->r[k * n + j]); emu_use(t, loaded_a); workload_use_loaded(t, loaded_q, 4);
            EMU_ST(t, float, &g->a[i * n + j], a - q * r); emu_gap(t, 2);
        }
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 256, 512};
    int n = sizes[size], m = n;
    size_t cells = (size_t)m * n;
    uint64_t s = seed;
    float *ha = NULL;
    gs_args g = {.m = m, .n = n};
    g.a = workload_random_floats(e, cells, &s, NULL);
    g.r = emu_malloc(e, cells * 4);
    g.q = emu_malloc(e, cells * 4);
    if (!g.a || !g.r || !g.q)
        return ws_fail(err, "gramschmidt: emulated device memory is full");
    for (int i = 0; i < n; i++) /* well-conditioned columns */
        g.a[i * n + i] += (float)n;
    if (verify) {
        ha = malloc(cells * 4);
        memcpy(ha, g.a, cells * 4);
    }
    int rc = 0;
    for (int k = 0; k < n && rc == 0; k++) {
        g.k = k;
        emu_launch one = {.name = "gramschmidt_kernel1", .grid = {1, 1, 1}, .block = {256, 1, 1},
                          .kernel = gs_kernel1, .args = &g, .timed = 1};
        rc = emu_launch_kernel(e, &one, err);
        if (rc == 0)
            rc = workload_launch_timed_1d(e, "gramschmidt_kernel2", (unsigned)m, gs_kernel2, &g, err);
        if (rc == 0)
            rc = workload_launch_timed_1d(e, "gramschmidt_kernel3", (unsigned)n, gs_kernel3, &g, err);
    }
    if (rc == 0 && verify) {
        float *q = calloc(cells, 4), *r = calloc(cells, 4);
        for (int k = 0; k < n; k++) {
            float nrm = 0;
            for (int i = 0; i < m; i++)
                nrm += ha[i * n + k] * ha[i * n + k];
            r[k * n + k] = sqrtf(nrm);
            for (int i = 0; i < m; i++)
                q[i * n + k] = ha[i * n + k] / r[k * n + k];
            for (int j = k + 1; j < n; j++) {
                for (int i = 0; i < m; i++)
                    r[k * n + j] += q[i * n + k] * ha[i * n + j];
                for (int i = 0; i < m; i++)
                    ha[i * n + j] -= q[i * n + k] * r[k * n + j];
            }
        }
        rc = workload_check_floats("gramschmidt Q", g.q, q, cells, 1e-4f, err);
        free(q);
        free(r);
    }
    free(ha);
    return rc;
}

const workload workload_gramschmidt = {
    .name = "gramschmidt",
    .suite = "polybench",
    .kernels = "gramschmidt_kernel1, gramschmidt_kernel2, gramschmidt_kernel3 (per column)",
    .description = "Gram-Schmidt QR; a single-thread norm and column-strided projections",
    .sizes = {"64x64", "256x256", "512x512"},
    .run = run,
};
