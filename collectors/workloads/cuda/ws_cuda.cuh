/* collectors/workloads/cuda/ws_cuda.cuh: what every CUDA program of an
 * embedded workload shares with its emulator port, so that a trace recorded
 * on a GPU (NVBit) and the emulator's trace of the same workload, size and
 * seed can be compared record by record (`warpscope diff`):
 *   - the command line: --size small|medium|large (default small), --seed N
 *     (default 1), --verify;
 *   - the input generator: splitmix64 and the float draw, bit for bit the
 *     ones in collectors/workloads/registry.c (workload_rand,
 *     workload_rand_float);
 *   - PolyBench/GPU's launch shapes (workload_launch_1d, workload_launch_2d);
 *   - device allocations made in the port's emu_malloc order, so that
 *     allocation ordinals line up between the two traces. */
#ifndef WS_CUDA_CUH
#define WS_CUDA_CUH

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ws_size { WS_SMALL = 0, WS_MEDIUM = 1, WS_LARGE = 2 };

struct ws_options {
    int size;           /* enum ws_size */
    uint64_t seed;
    int verify;         /* compare the output with the CPU reference */
    const char *program;
};

/* The program's name for the errors below (set by ws_parse). */
static const char *ws_program_name = "cuda workload";

/* Parses the command line; a bad option is a one-line error and exit 2. */
static inline ws_options ws_parse(int argc, char **argv, const char *program)
{
    ws_options o = {WS_SMALL, 1, 0, program};
    ws_program_name = program;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--verify") == 0) {
            o.verify = 1;
        } else if ((strcmp(a, "--size") == 0 || strcmp(a, "--seed") == 0) && i + 1 < argc) {
            const char *v = argv[++i];
            if (strcmp(a, "--size") == 0) {
                if (strcmp(v, "small") == 0)
                    o.size = WS_SMALL;
                else if (strcmp(v, "medium") == 0)
                    o.size = WS_MEDIUM;
                else if (strcmp(v, "large") == 0)
                    o.size = WS_LARGE;
                else {
                    fprintf(stderr, "%s: --size: expected small, medium or large, got '%s'\n",
                            program, v);
                    exit(2);
                }
            } else {
                char *end = NULL;
                o.seed = strtoull(v, &end, 0);
                if (!*v || *end || *v == '-') {
                    fprintf(stderr, "%s: --seed: expected a non-negative integer, got '%s'\n",
                            program, v);
                    exit(2);
                }
            }
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            printf("usage: %s [--size small|medium|large] [--seed N] [--verify]\n", program);
            exit(0);
        } else {
            fprintf(stderr, "%s: unknown option '%s' (try --help)\n", program, a);
            exit(2);
        }
    }
    return o;
}

/* A failed CUDA call ends the program with one line naming the call. */
#define WS_CUDA(call)                                                                    \
    do {                                                                                 \
        cudaError_t ws_rc_ = (call);                                                     \
        if (ws_rc_ != cudaSuccess) {                                                     \
            fprintf(stderr, "%s: %s:%d: %s: %s\n", ws_program_name, __FILE__, __LINE__,   \
                    #call, cudaGetErrorString(ws_rc_));                                  \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

/* Checks a launch and waits for it, so kernels run one at a time, in the
 * order the emulator records them. */
#define WS_LAUNCHED()                                                                    \
    do {                                                                                 \
        WS_CUDA(cudaGetLastError());                                                     \
        WS_CUDA(cudaDeviceSynchronize());                                                \
    } while (0)

static inline uint64_t ws_rand(uint64_t *state) /* = workload_rand */
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline float ws_rand_float(uint64_t *state) /* = workload_rand_float */
{
    return (float)(ws_rand(state) >> 40) / (float)(1 << 24);
}

/* Zeroed host memory for count T's; running out is one line and exit 1. */
template <typename T> static inline T *ws_host(size_t count)
{
    T *host = (T *)calloc(count ? count : 1, sizeof(T));
    if (!host) {
        fprintf(stderr, "%s: out of host memory\n", ws_program_name);
        exit(1);
    }
    return host;
}

/* Device memory, allocated in the port's emu_malloc order. */
template <typename T> static inline T *ws_device(size_t count)
{
    void *p = NULL;
    WS_CUDA(cudaMalloc(&p, count ? count * sizeof(T) : 1));
    return (T *)p;
}

template <typename T> static inline void ws_to_device(T *device, const T *host, size_t count)
{
    WS_CUDA(cudaMemcpy(device, host, count * sizeof(T), cudaMemcpyHostToDevice));
}

/* Device memory zeroed as emu_malloc's is, by a copy from the host rather
 * than cudaMemset, so that nothing but the workload's own kernels runs on
 * the device. */
template <typename T> static inline T *ws_device_zeroed(size_t count)
{
    T *device = ws_device<T>(count);
    T *zeros = ws_host<T>(count);
    ws_to_device(device, zeros, count);
    free(zeros);
    return device;
}

template <typename T> static inline void ws_to_host(T *host, const T *device, size_t count)
{
    WS_CUDA(cudaMemcpy(host, device, count * sizeof(T), cudaMemcpyDeviceToHost));
}

/* n floats of device memory filled from the seed state (=
 * workload_random_floats); *copy (if not NULL) gets the host copy, which the
 * caller frees. */
static inline float *ws_random_floats(size_t n, uint64_t *state, float **copy)
{
    float *device = ws_device<float>(n);
    float *host = ws_host<float>(n);
    for (size_t i = 0; i < n; i++)
        host[i] = ws_rand_float(state);
    ws_to_device(device, host, n);
    if (copy)
        *copy = host;
    else
        free(host);
    return device;
}

/* PolyBench/GPU launch shapes (= workload_launch_1d / _2d): 1-D blocks of
 * 256 threads over n, 2-D blocks of 32×8 over nx × ny (x = columns). */
static inline dim3 ws_grid_1d(unsigned n) { return dim3((n + 255) / 256, 1, 1); }
static inline dim3 ws_block_1d() { return dim3(256, 1, 1); }
static inline dim3 ws_grid_2d(unsigned nx, unsigned ny) { return dim3((nx + 31) / 32, (ny + 7) / 8, 1); }
static inline dim3 ws_block_2d() { return dim3(32, 8, 1); }

/* |got - want| <= tolerance × max(1, |want|) (= workload_check_floats); a
 * mismatch is one line and exit 1. */
static inline void ws_check_floats(const char *program, const char *what, const float *got,
                                   const float *want, size_t n, float tolerance)
{
    for (size_t i = 0; i < n; i++) {
        float scale = fabsf(want[i]) > 1 ? fabsf(want[i]) : 1;
        if (!(fabsf(got[i] - want[i]) <= tolerance * scale)) {
            fprintf(stderr, "%s: %s[%zu]: got %g, expected %g\n", program, what, i,
                    (double)got[i], (double)want[i]);
            exit(1);
        }
    }
}

#endif
