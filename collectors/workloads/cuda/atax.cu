/* collectors/workloads/cuda/atax.cu: PolyBench/GPU atax, y = Aᵀ(A x), the
 * CUDA twin of the emulator port collectors/workloads/atax.c: same kernels
 * (extern "C", so the GPU reports the port's unmangled names), launch shapes,
 * sizes, seeded inputs and allocation order, so that its GPU trace compares
 * with the emulator's record by record.
 *
 * The pointers are plain, as in PolyBench, so tmp[i] (kernel 1) and y[j]
 * (kernel 2) are stored every iteration.  Where nvcc 13 (sm_90) differs from
 * the port: it loads tmp[i] and y[j] once before the loop and then reuses the
 * value it stored, where the port loads them every iteration; and kernel 1
 * loads x[j] before A[i][j] (the two are independent, so the order is the
 * compiler's).  `#pragma unroll 1` keeps one SASS instruction per source
 * access, as the port has one site per access (nvcc would unroll these
 * runtime-bound loops). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

/* Row walks: thread i reads row i of A. */
extern "C" __global__ void atax_kernel1(float *a, float *x, float *tmp, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
#pragma unroll 1
        for (int j = 0; j < ny; j++) {
            float a_ij = a[i * ny + j];
            float x_j = x[j];
            tmp[i] += a_ij * x_j;
        }
    }
}

/* Column walks: thread j reads column j of A. */
extern "C" __global__ void atax_kernel2(float *a, float *y, float *tmp, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
#pragma unroll 1
        for (int i = 0; i < nx; i++) {
            float a_ij = a[i * ny + j];
            float tmp_i = tmp[i];
            y[j] += a_ij * tmp_i;
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "atax");
    static const int sizes[] = {256, 1024, 4096};
    int n = sizes[o.size];
    uint64_t s = o.seed;
    float *ha = NULL, *hx = NULL;
    float *a = ws_random_floats((size_t)n * n, &s, &ha);
    float *x = ws_random_floats((size_t)n, &s, &hx);
    /* Both accumulate from zero, as in the port. */
    float *y = ws_device_zeroed<float>(n), *tmp = ws_device_zeroed<float>(n);
    atax_kernel1<<<ws_grid_1d(n), ws_block_1d()>>>(a, x, tmp, n, n);
    WS_LAUNCHED();
    atax_kernel2<<<ws_grid_1d(n), ws_block_1d()>>>(a, y, tmp, n, n);
    WS_LAUNCHED();
    if (o.verify) {
        float *want_tmp = ws_host<float>(n), *want_y = ws_host<float>(n), *got = ws_host<float>(n);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                want_tmp[i] += ha[i * n + j] * hx[j];
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                want_y[j] += ha[i * n + j] * want_tmp[i];
        ws_to_host(got, y, n);
        ws_check_floats(o.program, "atax y", got, want_y, n, 1e-4f);
        free(want_tmp);
        free(want_y);
        free(got);
    }
    free(ha);
    free(hx);
    return 0;
}
