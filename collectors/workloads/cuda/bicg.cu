/* collectors/workloads/cuda/bicg.cu: PolyBench/GPU bicg, s = Aᵀr and
 * q = A p, the CUDA twin of the emulator port collectors/workloads/bicg.c:
 * same kernels (extern "C", so the GPU reports the port's unmangled names),
 * launch shapes, sizes, seeded inputs and allocation order, so that its GPU
 * trace compares with the emulator's record by record.
 *
 * The pointers are plain, as in PolyBench, so s[j] and q[i] are stored every
 * iteration.  Where nvcc 13 (sm_90) differs from the port: it never loads
 * s[j] or q[i], reusing the value it stored (the 0 first), where the port
 * loads them every iteration; and kernel 1 loads r[i] before A[i][j] (the two
 * are independent, so the order is the compiler's).  `#pragma unroll 1` keeps
 * one SASS instruction per source access, as the port has one site per
 * access (nvcc would unroll these runtime-bound loops). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

/* Column walks: thread j reads column j of A. */
extern "C" __global__ void bicg_kernel1(float *a, float *r, float *s, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j < ny) {
        s[j] = 0.0f;
#pragma unroll 1
        for (int i = 0; i < nx; i++) {
            float a_ij = a[i * ny + j];
            float r_i = r[i];
            s[j] += a_ij * r_i;
        }
    }
}

/* Row walks: thread i reads row i of A. */
extern "C" __global__ void bicg_kernel2(float *a, float *p, float *q, int nx, int ny)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nx) {
        q[i] = 0.0f;
#pragma unroll 1
        for (int j = 0; j < ny; j++) {
            float a_ij = a[i * ny + j];
            float p_j = p[j];
            q[i] += a_ij * p_j;
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "bicg");
    static const int sizes[] = {256, 1024, 4096};
    int n = sizes[o.size];
    uint64_t st = o.seed;
    float *ha = NULL, *hr = NULL, *hp = NULL;
    float *a = ws_random_floats((size_t)n * n, &st, &ha);
    float *r = ws_random_floats((size_t)n, &st, &hr);
    float *p = ws_random_floats((size_t)n, &st, &hp);
    float *s = ws_device<float>(n), *q = ws_device<float>(n);
    bicg_kernel1<<<ws_grid_1d(n), ws_block_1d()>>>(a, r, s, n, n);
    WS_LAUNCHED();
    bicg_kernel2<<<ws_grid_1d(n), ws_block_1d()>>>(a, p, q, n, n);
    WS_LAUNCHED();
    if (o.verify) {
        float *want_s = ws_host<float>(n), *want_q = ws_host<float>(n), *got = ws_host<float>(n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++)
                want_s[j] += ha[i * n + j] * hr[i];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                want_q[i] += ha[i * n + j] * hp[j];
        ws_to_host(got, s, n);
        ws_check_floats(o.program, "bicg s", got, want_s, n, 1e-4f);
        ws_to_host(got, q, n);
        ws_check_floats(o.program, "bicg q", got, want_q, n, 1e-4f);
        free(want_s);
        free(want_q);
        free(got);
    }
    free(ha);
    free(hr);
    free(hp);
    return 0;
}
