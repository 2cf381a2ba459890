/* collectors/workloads/cuda/gesummv.cu: PolyBench/GPU gesummv,
 * y = alpha·A x + beta·B x, one thread per row, the CUDA twin of the emulator
 * port collectors/workloads/gesummv.c: same kernel (extern "C", so the GPU
 * reports the port's unmangled name), launch shape, sizes, seeded inputs and
 * allocation order, so that its GPU trace compares with the emulator's record
 * by record.
 *
 * The pointers are plain, as in PolyBench: the store to tmp[i] may alias x
 * and y, and the store to y[i] may alias tmp, so nvcc 13 (sm_90) loads x[j]
 * twice and tmp[i] and y[i] every iteration, as the port does.  Where it
 * differs: it loads tmp[i] before A[i][j] and x[j] (they are independent, so
 * the order is the compiler's), and after the loop it loads only tmp[i],
 * reusing the y[i] it stored, where the port loads both.  `#pragma unroll 1`
 * keeps one SASS instruction per source access, as the port has one site per
 * access (nvcc would unroll this runtime-bound loop). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define ALPHA 43532.0f
#define BETA 12313.0f

extern "C" __global__ void gesummv_kernel(float *a, float *b, float *x, float *y, float *tmp, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
#pragma unroll 1
        for (int j = 0; j < n; j++) {
            float a_ij = a[i * n + j];
            float x_j = x[j];
            tmp[i] += a_ij * x_j;
            float b_ij = b[i * n + j];
            float x_j2 = x[j];
            y[i] += b_ij * x_j2;
        }
        y[i] = ALPHA * tmp[i] + BETA * y[i];
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "gesummv");
    static const int sizes[] = {256, 1024, 4096};
    int n = sizes[o.size];
    uint64_t s = o.seed;
    float *ha = NULL, *hb = NULL, *hx = NULL;
    float *a = ws_random_floats((size_t)n * n, &s, &ha);
    float *b = ws_random_floats((size_t)n * n, &s, &hb);
    float *x = ws_random_floats((size_t)n, &s, &hx);
    /* Both accumulate from zero, as in the port. */
    float *y = ws_device_zeroed<float>(n), *tmp = ws_device_zeroed<float>(n);
    gesummv_kernel<<<ws_grid_1d(n), ws_block_1d()>>>(a, b, x, y, tmp, n);
    WS_LAUNCHED();
    if (o.verify) {
        float *want = ws_host<float>(n), *got = ws_host<float>(n);
        for (int i = 0; i < n; i++) {
            float t = 0, acc = 0;
            for (int j = 0; j < n; j++) {
                t += ha[i * n + j] * hx[j];
                acc += hb[i * n + j] * hx[j];
            }
            want[i] = ALPHA * t + BETA * acc;
        }
        ws_to_host(got, y, n);
        ws_check_floats(o.program, "gesummv y", got, want, n, 1e-4f);
        free(want);
        free(got);
    }
    free(ha);
    free(hb);
    free(hx);
    return 0;
}
