/* collectors/workloads/cuda/gaussian.cu: Rodinia gaussian elimination
 * (Fan1, Fan2) as a CUDA program, the twin of the emulator port
 * collectors/workloads/gaussian.c: the same kernels, indexing, launches,
 * sizes, seeded inputs and allocation order (docs/cuda-workloads.md). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

/* Fan1: multipliers of column t. */
__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t)
{
    int x = (int)(threadIdx.x + blockIdx.x * blockDim.x);
    if (x >= Size - 1 - t)
        return;
    float pivot_row = a_cuda[Size * (x + t + 1) + t];
    float pivot = a_cuda[Size * t + t];
    m_cuda[Size * (x + t + 1) + t] = pivot_row / pivot;
}

/* Fan2: eliminate column t below the pivot, and update b.  j1 is unused,
 * as in Rodinia. */
__global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t)
{
    if ((int)(threadIdx.x + blockIdx.x * blockDim.x) >= Size - 1 - t)
        return;
    if ((int)(threadIdx.y + blockIdx.y * blockDim.y) >= Size - t)
        return;
    int xidx = (int)(blockIdx.x * blockDim.x + threadIdx.x);
    int yidx = (int)(blockIdx.y * blockDim.y + threadIdx.y);
    float mult = m_cuda[Size * (xidx + 1 + t) + t];
    float above = a_cuda[Size * t + (yidx + t)];
    float cur = a_cuda[Size * (xidx + 1 + t) + (yidx + t)];
    a_cuda[Size * (xidx + 1 + t) + (yidx + t)] = cur - mult * above;
    if (yidx == 0) {
        /* The store above may alias m and b, so both are read again. */
        float mult0 = m_cuda[Size * (xidx + 1 + t) + (yidx + t)];
        float bt = b_cuda[t];
        float bx = b_cuda[xidx + 1 + t];
        b_cuda[xidx + 1 + t] = bx - mult0 * bt;
    }
}

/* The same elimination on the CPU. */
static void reference(float *m, float *a, float *b, int n)
{
    for (int t = 0; t < n - 1; t++) {
        for (int x = 0; x < n - 1 - t; x++)
            m[n * (x + t + 1) + t] = a[n * (x + t + 1) + t] / a[n * t + t];
        for (int x = 0; x < n - 1 - t; x++) {
            for (int y = 0; y < n - t; y++)
                a[n * (x + 1 + t) + (y + t)] -= m[n * (x + 1 + t) + t] * a[n * t + (y + t)];
            b[x + 1 + t] -= m[n * (x + 1 + t) + t] * b[t];
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "gaussian");
    static const int sizes[] = {64, 256, 512};
    int n = sizes[o.size];
    size_t cells = (size_t)n * n;
    float *m = ws_device_zeroed<float>(cells), *a = ws_device<float>(cells), *b = ws_device<float>(n);
    /* A diagonally dominant matrix keeps the elimination stable without
     * pivoting, as Rodinia's generated inputs do. */
    float *host_a = ws_host<float>(cells), *host_b = ws_host<float>((size_t)n);
    uint64_t s = o.seed;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++)
            host_a[i * n + j] = ws_rand_float(&s) + (i == j ? (float)n : 0.0f);
        host_b[i] = ws_rand_float(&s);
    }
    ws_to_device(a, host_a, cells);
    ws_to_device(b, host_b, (size_t)n);
    for (int t = 0; t < n - 1; t++) {
        Fan1<<<(n + 511) / 512, 512>>>(m, a, n, t);
        WS_LAUNCHED();
        Fan2<<<dim3((n + 3) / 4, (n + 3) / 4), dim3(4, 4)>>>(m, a, b, n, n - t, t);
        WS_LAUNCHED();
    }
    if (o.verify) {
        float *got_a = ws_host<float>(cells), *got_b = ws_host<float>((size_t)n);
        ws_to_host(got_a, a, cells);
        ws_to_host(got_b, b, (size_t)n);
        float *ref_m = ws_host<float>(cells);
        reference(ref_m, host_a, host_b, n);
        free(ref_m);
        ws_check_floats(o.program, "gaussian a", got_a, host_a, cells, 1e-4f);
        ws_check_floats(o.program, "gaussian b", got_b, host_b, (size_t)n, 1e-4f);
        free(got_a);
        free(got_b);
    }
    free(host_a);
    free(host_b);
    return 0;
}
