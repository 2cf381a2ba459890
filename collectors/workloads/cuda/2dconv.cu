/* collectors/workloads/cuda/2dconv.cu: PolyBench/GPU 2DCONV
 * (Convolution2D_kernel), a 3×3 stencil with one thread per output, the CUDA
 * twin of the emulator port collectors/workloads/conv2d.c: same kernel
 * (extern "C", so the GPU reports the port's unmangled name), launch shape,
 * sizes, seeded inputs and allocation order, so that its GPU trace compares
 * with the emulator's record by record.
 *
 * Written as the port writes it, a loop over the nine taps, rather than
 * PolyBench's nine terms in one expression: with the loop kept rolled
 * (`#pragma unroll 1`) the nine loads come from one SASS instruction, in the
 * port's order, as they come from the port's one site; written out, nvcc
 * would make nine loads and schedule them in an order of its own.  The coefficients sit in
 * constant memory, which is not traced. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

/* coefficient[dj + 1][di + 1]: PolyBench's c11 c21 c31 / c12 c22 c32 /
 * c13 c23 c33, so the taps come row by row: A[i-1][j-1], A[i-1][j], ... */
#define COEFFICIENTS {{0.2f, -0.3f, 0.4f}, {0.5f, 0.6f, 0.7f}, {-0.8f, -0.9f, 0.10f}}
__constant__ float coefficient[3][3] = COEFFICIENTS;
static const float host_coefficient[3][3] = COEFFICIENTS; /* for the CPU reference */

extern "C" __global__ void Convolution2D_kernel(float *a, float *b, int ni, int nj)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni - 1 && j < nj - 1 && i > 0 && j > 0) {
        float sum = 0;
#pragma unroll 1
        for (int di = -1; di <= 1; di++)
#pragma unroll 1
            for (int dj = -1; dj <= 1; dj++)
                sum += coefficient[dj + 1][di + 1] * a[(i + di) * nj + (j + dj)];
        b[i * nj + j] = sum;
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "2dconv");
    static const int sizes[] = {128, 1024, 4096};
    int n = sizes[o.size];
    size_t cells = (size_t)n * n;
    uint64_t s = o.seed;
    float *ha = NULL;
    float *a = ws_random_floats(cells, &s, &ha);
    float *b = ws_device_zeroed<float>(cells); /* the border stays zero */
    Convolution2D_kernel<<<ws_grid_2d(n, n), ws_block_2d()>>>(a, b, n, n);
    WS_LAUNCHED();
    if (o.verify) {
        float *want = ws_host<float>(cells), *got = ws_host<float>(cells);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++) {
                float sum = 0;
                for (int di = -1; di <= 1; di++)
                    for (int dj = -1; dj <= 1; dj++)
                        sum += host_coefficient[dj + 1][di + 1] * ha[(i + di) * n + (j + dj)];
                want[i * n + j] = sum;
            }
        ws_to_host(got, b, cells);
        ws_check_floats(o.program, "2dconv B", got, want, cells, 1e-5f);
        free(want);
        free(got);
    }
    free(ha);
    return 0;
}
