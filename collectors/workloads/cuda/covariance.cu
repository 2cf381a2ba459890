/* collectors/workloads/cuda/covariance.cu: PolyBench/GPU covariance, the
 * CUDA twin of the emulator port collectors/workloads/covariance.c: same
 * kernels (extern "C", so the GPU reports the port's unmangled names), launch
 * shapes, sizes, seeded inputs and allocation order, so that its GPU trace
 * compares with the emulator's record by record.  mean_kernel takes the
 * column means, reduce_kernel centres the data, covar_kernel fills the upper
 * triangle and mirrors it; data is (N+1)×(M+1), 1-based as in the original.
 *
 * The pointers are plain, as in PolyBench, so mean[j] and symmat[j1][j2] are
 * stored every iteration.  Where nvcc 13 (sm_90) differs from the port: it
 * never loads them, reusing the value it stored (the 0 first), where the port
 * loads them every iteration and once more after the loop; and covar_kernel
 * loads data[i][j2] before data[i][j1] (they are independent, so the order is
 * the compiler's).  `#pragma unroll 1` keeps one SASS instruction per source
 * access, as the port has one site per access (nvcc would unroll these
 * runtime-bound loops). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

extern "C" __global__ void mean_kernel(float *mean, float *data, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j >= 1 && j < m + 1) {
        mean[j] = 0.0f;
#pragma unroll 1
        for (int i = 1; i < n + 1; i++) {
            float d = data[i * (m + 1) + j];
            mean[j] += d;
        }
        mean[j] /= (float)n;
    }
}

extern "C" __global__ void reduce_kernel(float *mean, float *data, int n, int m)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
    int i = blockIdx.y * blockDim.y + threadIdx.y + 1;
    if (i >= 1 && i < n + 1 && j >= 1 && j < m + 1) {
        float mean_j = mean[j];
        data[i * (m + 1) + j] -= mean_j;
    }
}

/* Thread j1 walks j2 = j1..m: the trip count differs from lane to lane. */
extern "C" __global__ void covar_kernel(float *symmat, float *data, int n, int m)
{
    int j1 = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if (j1 >= 1 && j1 < m + 1) {
#pragma unroll 1
        for (int j2 = j1; j2 < m + 1; j2++) {
            symmat[j1 * (m + 1) + j2] = 0.0f;
#pragma unroll 1
            for (int i = 1; i < n + 1; i++) {
                float d1 = data[i * (m + 1) + j1];
                float d2 = data[i * (m + 1) + j2];
                symmat[j1 * (m + 1) + j2] += d1 * d2;
            }
            symmat[j2 * (m + 1) + j1] = symmat[j1 * (m + 1) + j2];
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "covariance");
    static const int sizes[] = {64, 256, 512};
    int n = sizes[o.size], m = n, w = m + 1;
    size_t cells = (size_t)(n + 1) * w;
    uint64_t s = o.seed;
    float *hd = NULL;
    float *data = ws_random_floats(cells, &s, &hd);
    float *mean = ws_device<float>(w), *symmat = ws_device<float>((size_t)w * w);
    mean_kernel<<<ws_grid_1d(m), ws_block_1d()>>>(mean, data, n, m);
    WS_LAUNCHED();
    reduce_kernel<<<ws_grid_2d(m, n), ws_block_2d()>>>(mean, data, n, m);
    WS_LAUNCHED();
    covar_kernel<<<ws_grid_1d(m), ws_block_1d()>>>(symmat, data, n, m);
    WS_LAUNCHED();
    if (o.verify) {
        float *want_mean = ws_host<float>(w), *want = ws_host<float>((size_t)w * w),
              *got = ws_host<float>((size_t)w * w);
        for (int j = 1; j <= m; j++) {
            for (int i = 1; i <= n; i++)
                want_mean[j] += hd[i * w + j];
            want_mean[j] /= (float)n;
        }
        for (int i = 1; i <= n; i++)
            for (int j = 1; j <= m; j++)
                hd[i * w + j] -= want_mean[j];
        for (int j1 = 1; j1 <= m; j1++)
            for (int j2 = j1; j2 <= m; j2++) {
                for (int i = 1; i <= n; i++)
                    want[j1 * w + j2] += hd[i * w + j1] * hd[i * w + j2];
                want[j2 * w + j1] = want[j1 * w + j2];
            }
        ws_to_host(got, symmat, (size_t)w * w);
        /* Row and column 0 are never written (1-based); compare the rest. */
        for (int i = 0; i < w; i++)
            want[i] = got[i], want[i * w] = got[i * w];
        ws_check_floats(o.program, "covariance symmat", got, want, (size_t)w * w, 1e-4f);
        free(want_mean);
        free(want);
        free(got);
    }
    free(hd);
    return 0;
}
