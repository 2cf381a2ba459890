/* collectors/workloads/registry.c: the table of workloads (adding one is a
 * file and a line here) and helpers shared by the ports. */
#include "collectors/workloads/workloads.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

extern const workload workload_gaussian, workload_gemm, workload_bfs, workload_spmv,
    workload_kmeans, workload_streamcluster, workload_pathfinder, workload_backprop,
    workload_hotspot, workload_srad, workload_nw, workload_lud, workload_atax, workload_bicg,
    workload_mvt, workload_gesummv, workload_syrk, workload_syr2k, workload_2dconv, workload_3dconv,
    workload_covariance, workload_fdtd2d, workload_gramschmidt;

static const workload *const table[] = {
    &workload_gaussian,
    &workload_bfs,
    &workload_kmeans,
    &workload_streamcluster,
    &workload_pathfinder,
    &workload_backprop,
    &workload_hotspot,
    &workload_srad,
    &workload_nw,
    &workload_lud,
    &workload_gemm,
    &workload_atax,
    &workload_bicg,
    &workload_mvt,
    &workload_gesummv,
    &workload_syrk,
    &workload_syr2k,
    &workload_2dconv,
    &workload_3dconv,
    &workload_covariance,
    &workload_fdtd2d,
    &workload_gramschmidt,
    &workload_spmv,
};

const workload *workload_at(unsigned index)
{
    return index < sizeof table / sizeof table[0] ? table[index] : NULL;
}

const workload *workload_find(const char *name)
{
    for (unsigned i = 0; workload_at(i); i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

static const char *const size_names[SIZE_COUNT] = {"small", "medium", "large"};

const char *workload_size_name(workload_size size)
{
    return (unsigned)size < SIZE_COUNT ? size_names[size] : "?";
}

int workload_size_parse(const char *text)
{
    for (int s = 0; s < SIZE_COUNT; s++)
        if (strcmp(text, size_names[s]) == 0)
            return s;
    return -1;
}

uint64_t workload_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

float workload_rand_float(uint64_t *state)
{
    return (float)(workload_rand(state) >> 40) / (float)(1 << 24);
}

int workload_check_floats(const char *what, const float *got, const float *want, uint64_t n,
                          float tolerance, ws_error *err)
{
    for (uint64_t i = 0; i < n; i++) {
        float scale = fabsf(want[i]) > 1 ? fabsf(want[i]) : 1;
        if (!(fabsf(got[i] - want[i]) <= tolerance * scale))
            return ws_fail(err, "%s[%llu]: got %g, expected %g", what, (unsigned long long)i,
                           (double)got[i], (double)want[i]);
    }
    return 0;
}

static int launch_1d(emu *e, const char *name, unsigned n, emu_kernel_fn kernel,
                     const void *args, int timed, ws_error *err)
{
    emu_launch l = {.name = name, .grid = {(n + 255) / 256, 1, 1}, .block = {256, 1, 1},
                    .kernel = kernel, .args = args, .timed = timed};
    return emu_launch_kernel(e, &l, err);
}

int workload_launch_1d(emu *e, const char *name, unsigned n, emu_kernel_fn kernel,
                       const void *args, ws_error *err)
{
    return launch_1d(e, name, n, kernel, args, 0, err);
}

int workload_launch_timed_1d(emu *e, const char *name, unsigned n, emu_kernel_fn kernel,
                             const void *args, ws_error *err)
{
    return launch_1d(e, name, n, kernel, args, 1, err);
}

static int launch_2d(emu *e, const char *name, unsigned nx, unsigned ny, emu_kernel_fn kernel,
                     const void *args, int timed, ws_error *err)
{
    emu_launch l = {.name = name, .grid = {(nx + 31) / 32, (ny + 7) / 8, 1}, .block = {32, 8, 1},
                    .kernel = kernel, .args = args, .timed = timed};
    return emu_launch_kernel(e, &l, err);
}

int workload_launch_2d(emu *e, const char *name, unsigned nx, unsigned ny, emu_kernel_fn kernel,
                       const void *args, ws_error *err)
{
    return launch_2d(e, name, nx, ny, kernel, args, 0, err);
}

int workload_launch_timed_2d(emu *e, const char *name, unsigned nx, unsigned ny,
                             emu_kernel_fn kernel, const void *args, ws_error *err)
{
    return launch_2d(e, name, nx, ny, kernel, args, 1, err);
}

float *workload_random_floats(emu *e, size_t n, uint64_t *state, float **copy)
{
    float *device = emu_malloc(e, n * sizeof *device);
    if (!device)
        return NULL;
    for (size_t i = 0; i < n; i++)
        device[i] = workload_rand_float(state);
    if (copy) {
        *copy = malloc(n * sizeof **copy);
        if (*copy)
            memcpy(*copy, device, n * sizeof **copy);
    }
    return device;
}
