/* collectors/workloads/cuda/gramschmidt.cu: PolyBench/GPU gramschmidt, the
 * CUDA twin of the emulator port collectors/workloads/gramschmidt.c: same
 * kernels (extern "C", so the GPU reports the port's unmangled names), launch
 * shapes, order and count (three kernels per column), sizes, seeded inputs
 * and allocation order, so that its GPU trace compares with the emulator's
 * record by record.  For each column k: gramschmidt_kernel1 (one thread: the
 * column's norm), gramschmidt_kernel2 (normalise into Q) and
 * gramschmidt_kernel3 (project the later columns out).
 *
 * The pointers are plain, as in PolyBench, so r[k][j] is stored every
 * iteration of kernel 3's first loop.  Where nvcc 13 (sm_90) differs from the
 * port: it never loads r[k][j] in that loop, reusing the value it stored (the
 * 0 first), where the port loads it every iteration; and it orders
 * independent loads as it likes: kernel 2 loads r[k][k] before A[i][k],
 * kernel 3's first loop A[i][j] before Q[i][k], its second loop r[k][j],
 * Q[i][k], A[i][j] (the port: A, Q, r).  `#pragma unroll 1` keeps one SASS
 * instruction per source access, as the port has one site per access (nvcc
 * would unroll these runtime-bound loops). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

extern "C" __global__ void gramschmidt_kernel1(float *a, float *r, float *q, int k, int m, int n)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid == 0) {
        float nrm = 0;
#pragma unroll 1
        for (int i = 0; i < m; i++) {
            float a_ik = a[i * n + k]; /* one load, as nvcc makes of PolyBench's a*a */
            nrm += a_ik * a_ik;
        }
        r[k * n + k] = sqrtf(nrm);
    }
}

extern "C" __global__ void gramschmidt_kernel2(float *a, float *r, float *q, int k, int m, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < m) {
        float a_ik = a[i * n + k];
        float r_kk = r[k * n + k];
        q[i * n + k] = a_ik / r_kk;
    }
}

extern "C" __global__ void gramschmidt_kernel3(float *a, float *r, float *q, int k, int m, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j > k && j < n) {
        r[k * n + j] = 0.0f;
#pragma unroll 1
        for (int i = 0; i < m; i++) {
            float q_ik = q[i * n + k];
            float a_ij = a[i * n + j];
            r[k * n + j] += q_ik * a_ij;
        }
#pragma unroll 1
        for (int i = 0; i < m; i++) {
            float a_ij = a[i * n + j];
            float q_ik = q[i * n + k];
            float r_kj = r[k * n + j];
            a[i * n + j] = a_ij - q_ik * r_kj;
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "gramschmidt");
    static const int sizes[] = {64, 256, 512};
    int n = sizes[o.size], m = n;
    size_t cells = (size_t)m * n;
    float *a = ws_device<float>(cells), *r = ws_device<float>(cells), *q = ws_device<float>(cells);
    /* A holds the port's draws (workload_random_floats), its diagonal
     * strengthened as the port does, so the columns are well conditioned. */
    float *ha = ws_host<float>(cells);
    uint64_t s = o.seed;
    for (size_t i = 0; i < cells; i++)
        ha[i] = ws_rand_float(&s);
    for (int i = 0; i < n; i++)
        ha[i * n + i] += (float)n;
    ws_to_device(a, ha, cells);
    for (int k = 0; k < n; k++) {
        gramschmidt_kernel1<<<dim3(1, 1, 1), dim3(256, 1, 1)>>>(a, r, q, k, m, n);
        WS_LAUNCHED();
        gramschmidt_kernel2<<<ws_grid_1d(m), ws_block_1d()>>>(a, r, q, k, m, n);
        WS_LAUNCHED();
        gramschmidt_kernel3<<<ws_grid_1d(n), ws_block_1d()>>>(a, r, q, k, m, n);
        WS_LAUNCHED();
    }
    if (o.verify) {
        float *want_q = ws_host<float>(cells), *want_r = ws_host<float>(cells),
              *got = ws_host<float>(cells);
        for (int k = 0; k < n; k++) {
            float nrm = 0;
            for (int i = 0; i < m; i++)
                nrm += ha[i * n + k] * ha[i * n + k];
            want_r[k * n + k] = sqrtf(nrm);
            for (int i = 0; i < m; i++)
                want_q[i * n + k] = ha[i * n + k] / want_r[k * n + k];
            for (int j = k + 1; j < n; j++) {
                for (int i = 0; i < m; i++)
                    want_r[k * n + j] += want_q[i * n + k] * ha[i * n + j];
                for (int i = 0; i < m; i++)
                    ha[i * n + j] -= want_q[i * n + k] * want_r[k * n + j];
            }
        }
        ws_to_host(got, q, cells);
        ws_check_floats(o.program, "gramschmidt Q", got, want_q, cells, 1e-4f);
        free(want_q);
        free(want_r);
        free(got);
    }
    free(ha);
    return 0;
}
