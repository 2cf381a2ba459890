/* collectors/workloads/cuda/3dconv.cu: PolyBench/GPU 3DCONV
 * (convolution3D_kernel), launched once per plane i as the original host
 * code does, the CUDA twin of the emulator port
 * collectors/workloads/conv3d.c: same kernel (extern "C", so the GPU reports
 * the port's unmangled name), launch shapes and count, sizes, seeded inputs
 * and allocation order, so that its GPU trace compares with the emulator's
 * record by record.
 *
 * Written as the port writes it, a loop over PolyBench's 15 terms, rather
 * than the 15 terms in one expression: with the loop kept rolled
 * (`#pragma unroll 1`) every thread issues the 15 loads, repeated addresses
 * included, from one SASS instruction in the port's order, as the port's one
 * site does; written out, nvcc would merge the repeated terms into 11 loads
 * and schedule them in an order of its own.  The term table sits in constant
 * memory, which is not traced. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

struct term {
    int di, dj, dk;
    float c;
};

/* (di, dj, dk, coefficient) of each term, in PolyBench's order. */
#define TERMS                                                                          \
    {{-1, -1, -1, 2}, {1, -1, -1, 4}, {-1, -1, -1, 5}, {1, -1, -1, 7}, {-1, -1, -1, -8}, \
     {1, -1, -1, 10}, {0, -1, 0, -3}, {0, 0, 0, 6},    {0, 1, 0, -9},  {-1, -1, 1, 2},   \
     {1, -1, 1, 4},   {-1, 0, 1, 5},  {1, 0, 1, 7},    {-1, 1, 1, -8}, {1, 1, 1, 10}}
__constant__ term terms[15] = TERMS;
static const term host_terms[15] = TERMS; /* for the CPU reference */

extern "C" __global__ void convolution3D_kernel(float *a, float *b, int ni, int nj, int nk, int i)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < ni - 1 && j < nj - 1 && k < nk - 1 && i > 0 && j > 0 && k > 0) {
        float sum = 0;
#pragma unroll 1
        for (int n = 0; n < 15; n++)
            sum += terms[n].c *
                   a[(i + terms[n].di) * (nk * nj) + (j + terms[n].dj) * nk + (k + terms[n].dk)];
        b[i * (nk * nj) + j * nk + k] = sum;
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "3dconv");
    static const int sizes[] = {32, 128, 256};
    int n = sizes[o.size];
    size_t cells = (size_t)n * n * n;
    uint64_t s = o.seed;
    float *ha = NULL;
    float *a = ws_random_floats(cells, &s, &ha);
    float *b = ws_device_zeroed<float>(cells); /* the border stays zero */
    for (int i = 1; i < n - 1; i++) {
        convolution3D_kernel<<<ws_grid_2d(n, n), ws_block_2d()>>>(a, b, n, n, n, i);
        WS_LAUNCHED();
    }
    if (o.verify) {
        float *want = ws_host<float>(cells), *got = ws_host<float>(cells);
        for (int i = 1; i < n - 1; i++)
            for (int j = 1; j < n - 1; j++)
                for (int k = 1; k < n - 1; k++) {
                    float sum = 0;
                    for (int t = 0; t < 15; t++) {
                        const term *e = &host_terms[t];
                        sum += e->c * ha[(i + e->di) * n * n + (j + e->dj) * n + (k + e->dk)];
                    }
                    want[(size_t)i * n * n + j * n + k] = sum;
                }
        ws_to_host(got, b, cells);
        ws_check_floats(o.program, "3dconv B", got, want, cells, 1e-5f);
        free(want);
        free(got);
    }
    free(ha);
    return 0;
}
