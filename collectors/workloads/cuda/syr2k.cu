/* collectors/workloads/cuda/syr2k.cu: PolyBench/GPU syr2k,
 * C = alpha·A·Bᵀ + alpha·B·Aᵀ + beta·C, one thread per element of C, the
 * CUDA twin of the emulator port collectors/workloads/syr2k.c: same kernel
 * (extern "C", so the GPU reports the port's unmangled name), launch shape,
 * sizes, seeded inputs and allocation order, so that its GPU trace compares
 * with the emulator's record by record.
 *
 * The pointers are plain, as in PolyBench, so C is stored every iteration.
 * Where nvcc 13 (sm_90) differs from the port: it keeps the value it stored
 * in a register instead of reloading C, and it orders the four independent
 * loads of an iteration as B[i][k], A[i][k], A[j][k], B[j][k], where the port
 * issues A[i][k], B[j][k], B[i][k], A[j][k], C.  `#pragma unroll 1` keeps one
 * SASS instruction per source access, as the port has one site per access
 * (nvcc would unroll this runtime-bound loop). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define ALPHA 12435.0f
#define BETA 4546.0f

extern "C" __global__ void syr2k_kernel(float *a, float *b, float *c, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n) {
        c[i * n + j] *= BETA;
#pragma unroll 1
        for (int k = 0; k < m; k++) {
            float a_ik = a[i * m + k];
            float b_jk = b[j * m + k];
            float b_ik = b[i * m + k];
            float a_jk = a[j * m + k];
            c[i * n + j] += ALPHA * a_ik * b_jk + ALPHA * b_ik * a_jk;
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "syr2k");
    static const int sizes[] = {64, 256, 768};
    int n = sizes[o.size];
    size_t cells = (size_t)n * n;
    uint64_t s = o.seed;
    float *ha = NULL, *hb = NULL, *hc = NULL;
    float *a = ws_random_floats(cells, &s, &ha);
    float *b = ws_random_floats(cells, &s, &hb);
    float *c = ws_random_floats(cells, &s, &hc);
    syr2k_kernel<<<ws_grid_2d(n, n), ws_block_2d()>>>(a, b, c, n, n);
    WS_LAUNCHED();
    if (o.verify) {
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                float acc = hc[i * n + j] * BETA;
                for (int k = 0; k < n; k++)
                    acc += ALPHA * ha[i * n + k] * hb[j * n + k] + ALPHA * hb[i * n + k] * ha[j * n + k];
                hc[i * n + j] = acc;
            }
        float *got = ws_host<float>(cells);
        ws_to_host(got, c, cells);
        ws_check_floats(o.program, "syr2k C", got, hc, cells, 1e-4f);
        free(got);
    }
    free(ha);
    free(hb);
    free(hc);
    return 0;
}
