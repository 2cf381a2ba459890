/* collectors/workloads/cuda/gemm.cu: PolyBench/GPU gemm, the CUDA twin of
 * the emulator port collectors/workloads/gemm.c: same kernel (extern "C", so
 * the GPU reports the port's unmangled name), launch shape, sizes, seeded
 * inputs and allocation order, so that its GPU trace compares with the
 * emulator's record by record.
 *
 * C = alpha·A·B + beta·C, one thread per element of C.  The pointers are
 * plain, not restrict, as in PolyBench: the store to C may alias A and B, so
 * C is stored every iteration.  Where nvcc 13 (sm_90) differs from the port:
 * it keeps the value it stored in a register instead of reloading C, so the
 * port's load of C inside the loop has no SASS counterpart: per iteration the
 * GPU issues A, B, store C where the port issues A, B, C, store C.
 * `#pragma unroll 1` keeps one SASS instruction per source access, as the
 * port has one site per access (nvcc unrolls this runtime-bound loop 16, 8
 * and 4 deep otherwise). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define ALPHA 32412.0f
#define BETA 2123.0f

extern "C" __global__ void gemm_kernel(float *a, float *b, float *c, int ni, int nj, int nk)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni && j < nj) {
        c[i * nj + j] *= BETA;
#pragma unroll 1
        for (int k = 0; k < nk; k++) {
            float a_ik = a[i * nk + k];
            float b_kj = b[k * nj + j];
            c[i * nj + j] += ALPHA * a_ik * b_kj;
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "gemm");
    static const int sizes[] = {64, 256, 768};
    int n = sizes[o.size];
    size_t cells = (size_t)n * n;
    float *a = ws_device<float>(cells), *b = ws_device<float>(cells), *c = ws_device<float>(cells);
    /* The port draws A, B and C interleaved, element by element. */
    float *ha = ws_host<float>(cells), *hb = ws_host<float>(cells), *hc = ws_host<float>(cells);
    uint64_t s = o.seed;
    for (size_t i = 0; i < cells; i++) {
        ha[i] = ws_rand_float(&s);
        hb[i] = ws_rand_float(&s);
        hc[i] = ws_rand_float(&s);
    }
    ws_to_device(a, ha, cells);
    ws_to_device(b, hb, cells);
    ws_to_device(c, hc, cells);
    /* DIM_THREAD_BLOCK_X 32, DIM_THREAD_BLOCK_Y 8, as in PolyBench/GPU. */
    gemm_kernel<<<ws_grid_2d(n, n), ws_block_2d()>>>(a, b, c, n, n, n);
    WS_LAUNCHED();
    if (o.verify) {
        float *want = ws_host<float>(cells), *got = ws_host<float>(cells);
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) {
                float acc = hc[i * n + j] * BETA;
                for (int k = 0; k < n; k++)
                    acc += ALPHA * ha[i * n + k] * hb[k * n + j];
                want[i * n + j] = acc;
            }
        ws_to_host(got, c, cells);
        ws_check_floats(o.program, "gemm C", got, want, cells, 1e-4f);
        free(want);
        free(got);
    }
    free(ha);
    free(hb);
    free(hc);
    return 0;
}
