/* collectors/workloads/cuda/mvt.cu: PolyBench/GPU mvt, x1 += A y1 and
 * x2 += Aᵀ y2, the CUDA twin of the emulator port collectors/workloads/mvt.c:
 * same kernels (extern "C", so the GPU reports the port's unmangled names),
 * launch shapes, sizes, seeded inputs and allocation order, so that its GPU
 * trace compares with the emulator's record by record.
 *
 * The pointers are plain, as in PolyBench, so x1[i] and x2[i] are stored
 * every iteration.  Where nvcc 13 (sm_90) differs from the port: it loads
 * x1[i] and x2[i] once before the loop and then reuses the value it stored,
 * where the port loads them every iteration.  `#pragma unroll 1` keeps one
 * SASS instruction per source access, as the port has one site per access
 * (nvcc would unroll these runtime-bound loops). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

/* Row walks: thread i reads row i of A. */
extern "C" __global__ void mvt_kernel1(float *a, float *x1, float *y1, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
#pragma unroll 1
        for (int j = 0; j < n; j++) {
            float a_ij = a[i * n + j];
            float y1_j = y1[j];
            x1[i] += a_ij * y1_j;
        }
    }
}

/* Column walks: thread i reads column i of A. */
extern "C" __global__ void mvt_kernel2(float *a, float *x2, float *y2, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
#pragma unroll 1
        for (int j = 0; j < n; j++) {
            float a_ji = a[j * n + i];
            float y2_j = y2[j];
            x2[i] += a_ji * y2_j;
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "mvt");
    static const int sizes[] = {256, 1024, 4096};
    int n = sizes[o.size];
    uint64_t s = o.seed;
    float *ha = NULL, *hx1 = NULL, *hx2 = NULL, *hy1 = NULL, *hy2 = NULL;
    float *a = ws_random_floats((size_t)n * n, &s, &ha);
    float *x1 = ws_random_floats((size_t)n, &s, &hx1);
    float *x2 = ws_random_floats((size_t)n, &s, &hx2);
    float *y1 = ws_random_floats((size_t)n, &s, &hy1);
    float *y2 = ws_random_floats((size_t)n, &s, &hy2);
    mvt_kernel1<<<ws_grid_1d(n), ws_block_1d()>>>(a, x1, y1, n);
    WS_LAUNCHED();
    mvt_kernel2<<<ws_grid_1d(n), ws_block_1d()>>>(a, x2, y2, n);
    WS_LAUNCHED();
    if (o.verify) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                hx1[i] += ha[i * n + j] * hy1[j];
                hx2[i] += ha[j * n + i] * hy2[j];
            }
        float *got = ws_host<float>(n);
        ws_to_host(got, x1, n);
        ws_check_floats(o.program, "mvt x1", got, hx1, n, 1e-4f);
        ws_to_host(got, x2, n);
        ws_check_floats(o.program, "mvt x2", got, hx2, n, 1e-4f);
        free(got);
    }
    free(ha);
    free(hx1);
    free(hx2);
    free(hy1);
    free(hy2);
    return 0;
}
