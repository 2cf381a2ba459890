/* collectors/workloads/fdtd2d.c: PolyBench/GPU fdtd-2d: three kernels per
 * time step update ey, ex and hz on an NX×NY grid (ex is NX×(NY+1), ey is
 * (NX+1)×NY). */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define TIME_STEPS 3

typedef struct fdtd_args {
    float *fict, *ex, *ey, *hz;
    int nx, ny, t;
} fdtd_args;

static void step1(emu_thread *th)
{
    const fdtd_args *g = th->args;
    int j = (int)(th->blockIdx.x * th->blockDim.x + th->threadIdx.x);
    int i = (int)(th->blockIdx.y * th->blockDim.y + th->threadIdx.y), ny = g->ny;
    if (i < g->nx && j < ny) {
        if (i == 0) { emu_gap(th, 21); /* timing: docs/cuda-workloads.md */
            EMU_ST(th, float, &g->ey[i * ny + j], ({ float fict = EMU_LD(th, float, &g->fict[g->t]); workload_used(th, 1); fict; }));
        } else { emu_gap(th, 24);
            float ey = EMU_LD(th, float, &g->ey[i * ny + j]); emu_value loaded_ey = emu_loaded(th); emu_gap(th, 1);
            float hz = EMU_LD(th, float, &g->hz[i * ny + j]); emu_value loaded_hz = emu_loaded(th);
            float hz_up = EMU_LD(th, float, &g->hz[(i - 1) * ny + j]); emu_use(th, loaded_ey); workload_use_loaded(th, loaded_hz, 2);
            EMU_ST(th, float, &g->ey[i * ny + j], ey - 0.5f * (hz - hz_up));
        }
    }
}

static void step2(emu_thread *th)
{
    const fdtd_args *g = th->args;
    int j = (int)(th->blockIdx.x * th->blockDim.x + th->threadIdx.x);
    int i = (int)(th->blockIdx.y * th->blockDim.y + th->threadIdx.y), ny = g->ny; emu_gap(th, 21);
    if (i < g->nx && j < ny && j > 0) {
        float ex = EMU_LD(th, float, &g->ex[i * (ny + 1) + j]); emu_value loaded_ex = emu_loaded(th); emu_gap(th, 1);
        float hz = EMU_LD(th, float, &g->hz[i * ny + j]); emu_value loaded_hz = emu_loaded(th);
        float hz_left = EMU_LD(th, float, &g->hz[i * ny + (j - 1)]); emu_use(th, loaded_ex); workload_use_loaded(th, loaded_hz, 2);
        EMU_ST(th, float, &g->ex[i * (ny + 1) + j], ex - 0.5f * (hz - hz_left));
    }
}

static void step3(emu_thread *th)
{
    const fdtd_args *g = th->args;
    int j = (int)(th->blockIdx.x * th->blockDim.x + th->threadIdx.x);
    int i = (int)(th->blockIdx.y * th->blockDim.y + th->threadIdx.y), ny = g->ny; emu_gap(th, 22);
    if (i < g->nx && j < ny) {
        float hz = EMU_LD(th, float, &g->hz[i * ny + j]); emu_value loaded_hz = emu_loaded(th); emu_gap(th, 1);
        float ex_r = EMU_LD(th, float, &g->ex[i * (ny + 1) + (j + 1)]); emu_value loaded_ex_r = emu_loaded(th); emu_gap(th, 1);
        float ex = EMU_LD(th, float, &g->ex[i * (ny + 1) + j]); emu_value loaded_ex = emu_loaded(th); emu_gap(th, 1);
        float ey_d = EMU_LD(th, float, &g->ey[(i + 1) * ny + j]); emu_value loaded_ey_d = emu_loaded(th);
        float ey = EMU_LD(th, float, &g->ey[i * ny + j]); emu_use(th, loaded_hz); emu_use(th, loaded_ex_r); emu_use(th, loaded_ex); workload_use_loaded(th, loaded_ey_d, 4);
        EMU_ST(th, float, &g->hz[i * ny + j], hz - 0.7f * (ex_r - ex + ey_d - ey));
    }
}

static void reference(float *fict, float *ex, float *ey, float *hz, int nx, int ny)
{
    for (int t = 0; t < TIME_STEPS; t++) {
        for (int j = 0; j < ny; j++)
            ey[j] = fict[t];
        for (int i = 1; i < nx; i++)
            for (int j = 0; j < ny; j++)
                ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
        for (int i = 0; i < nx; i++)
            for (int j = 1; j < ny; j++)
                ex[i * (ny + 1) + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
        for (int i = 0; i < nx; i++)
            for (int j = 0; j < ny; j++)
                hz[i * ny + j] -= 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] +
                                          ey[(i + 1) * ny + j] - ey[i * ny + j]);
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {128, 1024, 2048};
    int n = sizes[size];
    uint64_t s = seed;
    float *hf = NULL, *hex = NULL, *hey = NULL, *hhz = NULL;
    fdtd_args g = {.nx = n, .ny = n};
    g.fict = workload_random_floats(e, TIME_STEPS, &s, verify ? &hf : NULL);
    g.ex = workload_random_floats(e, (size_t)n * (n + 1), &s, verify ? &hex : NULL);
    g.ey = workload_random_floats(e, (size_t)(n + 1) * n, &s, verify ? &hey : NULL);
    g.hz = workload_random_floats(e, (size_t)n * n, &s, verify ? &hhz : NULL);
    int rc = !g.fict || !g.ex || !g.ey || !g.hz ? ws_fail(err, "fdtd-2d: emulated device memory is full") : 0;
    for (int t = 0; t < TIME_STEPS && rc == 0; t++) {
        g.t = t;
        rc = workload_launch_timed_2d(e, "fdtd_step1_kernel", (unsigned)n, (unsigned)n, step1, &g, err);
        if (rc == 0)
            rc = workload_launch_timed_2d(e, "fdtd_step2_kernel", (unsigned)n, (unsigned)n, step2, &g, err);
        if (rc == 0)
            rc = workload_launch_timed_2d(e, "fdtd_step3_kernel", (unsigned)n, (unsigned)n, step3, &g, err);
    }
    if (rc == 0 && verify) {
        reference(hf, hex, hey, hhz, n, n);
        rc = workload_check_floats("fdtd-2d hz", g.hz, hhz, (uint64_t)n * n, 1e-4f, err);
    }
    free(hf);
    free(hex);
    free(hey);
    free(hhz);
    return rc;
}

const workload workload_fdtd2d = {
    .name = "fdtd-2d",
    .suite = "polybench",
    .kernels = "fdtd_step1_kernel, fdtd_step2_kernel, fdtd_step3_kernel (per step)",
    .description = "2-D finite-difference time domain; three stencils per step",
    .sizes = {"128x128", "1024x1024", "2048x2048"},
    .run = run,
};
