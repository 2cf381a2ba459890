/* collectors/workloads/cuda/fdtd-2d.cu: PolyBench/GPU fdtd-2d, the CUDA twin
 * of the emulator port collectors/workloads/fdtd2d.c: same kernels
 * (extern "C", so the GPU reports the port's unmangled names), launch shapes,
 * order and count (three kernels per time step), sizes, seeded inputs and
 * allocation order, so that its GPU trace compares with the emulator's record
 * by record.  The three kernels update ey, ex and hz on an NX×NY grid (ex is
 * NX×(NY+1), ey is (NX+1)×NY).
 *
 * Each thread loads a few independent cells and stores one, so nvcc 13
 * (sm_90) orders the loads as it likes, where the port issues them in source
 * order: step 1 loads hz[i][j], hz[i-1][j], ey[i][j]; step 2 hz[i][j-1],
 * hz[i][j], ex[i][j]; step 3 ex[i][j], ex[i][j+1], ey[i+1][j], ey[i][j],
 * hz[i][j].  It also places step 1's i == 0 branch after the other one; a
 * warp is one row of a 32×8 block, so no warp takes both. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define TIME_STEPS 3

extern "C" __global__ void fdtd_step1_kernel(float *fict, float *ex, float *ey, float *hz, int t,
                                             int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny) {
        if (i == 0) {
            ey[i * ny + j] = fict[t];
        } else {
            float ey_ij = ey[i * ny + j];
            float hz_ij = hz[i * ny + j];
            float hz_up = hz[(i - 1) * ny + j];
            ey[i * ny + j] = ey_ij - 0.5f * (hz_ij - hz_up);
        }
    }
}

extern "C" __global__ void fdtd_step2_kernel(float *ex, float *ey, float *hz, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny && j > 0) {
        float ex_ij = ex[i * (ny + 1) + j];
        float hz_ij = hz[i * ny + j];
        float hz_left = hz[i * ny + (j - 1)];
        ex[i * (ny + 1) + j] = ex_ij - 0.5f * (hz_ij - hz_left);
    }
}

extern "C" __global__ void fdtd_step3_kernel(float *ex, float *ey, float *hz, int nx, int ny)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < nx && j < ny) {
        float hz_ij = hz[i * ny + j];
        float ex_right = ex[i * (ny + 1) + (j + 1)];
        float ex_ij = ex[i * (ny + 1) + j];
        float ey_down = ey[(i + 1) * ny + j];
        float ey_ij = ey[i * ny + j];
        hz[i * ny + j] = hz_ij - 0.7f * (ex_right - ex_ij + ey_down - ey_ij);
    }
}

/* The port's CPU reference, on the host copies. */
static void reference(float *fict, float *ex, float *ey, float *hz, int nx, int ny)
{
    for (int t = 0; t < TIME_STEPS; t++) {
        for (int j = 0; j < ny; j++)
            ey[j] = fict[t];
        for (int i = 1; i < nx; i++)
            for (int j = 0; j < ny; j++)
                ey[i * ny + j] -= 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
        for (int i = 0; i < nx; i++)
            for (int j = 1; j < ny; j++)
                ex[i * (ny + 1) + j] -= 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
        for (int i = 0; i < nx; i++)
            for (int j = 0; j < ny; j++)
                hz[i * ny + j] -= 0.7f * (ex[i * (ny + 1) + (j + 1)] - ex[i * (ny + 1) + j] +
                                          ey[(i + 1) * ny + j] - ey[i * ny + j]);
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "fdtd-2d");
    static const int sizes[] = {128, 1024, 2048};
    int n = sizes[o.size];
    uint64_t s = o.seed;
    float *hf = NULL, *hex = NULL, *hey = NULL, *hhz = NULL;
    float *fict = ws_random_floats(TIME_STEPS, &s, &hf);
    float *ex = ws_random_floats((size_t)n * (n + 1), &s, &hex);
    float *ey = ws_random_floats((size_t)(n + 1) * n, &s, &hey);
    float *hz = ws_random_floats((size_t)n * n, &s, &hhz);
    for (int t = 0; t < TIME_STEPS; t++) {
        fdtd_step1_kernel<<<ws_grid_2d(n, n), ws_block_2d()>>>(fict, ex, ey, hz, t, n, n);
        WS_LAUNCHED();
        fdtd_step2_kernel<<<ws_grid_2d(n, n), ws_block_2d()>>>(ex, ey, hz, n, n);
        WS_LAUNCHED();
        fdtd_step3_kernel<<<ws_grid_2d(n, n), ws_block_2d()>>>(ex, ey, hz, n, n);
        WS_LAUNCHED();
    }
    if (o.verify) {
        reference(hf, hex, hey, hhz, n, n);
        float *got = ws_host<float>((size_t)n * n);
        ws_to_host(got, hz, (size_t)n * n);
        ws_check_floats(o.program, "fdtd-2d hz", got, hhz, (size_t)n * n, 1e-4f);
        free(got);
    }
    free(hf);
    free(hex);
    free(hey);
    free(hhz);
    return 0;
}
