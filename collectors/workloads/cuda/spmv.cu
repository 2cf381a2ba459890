/* collectors/workloads/cuda/spmv.cu: SHOC sparse matrix-vector product, CSR,
 * both of SHOC's kernels in turn, the CUDA twin of the emulator port
 * collectors/workloads/spmv.c: same kernels (extern "C", so the GPU reports
 * the port's unmangled names where SHOC's templates would be mangled), launch
 * shapes, sizes, seeded matrix and vector, and allocation order, so that its
 * GPU trace compares with the emulator's record by record.
 *
 * As in the port, this is SHOC's non-texture build: the vector is read with
 * ordinary global loads.  SHOC declares val, cols, rowDelimiters and out
 * __restrict__; here they are plain, so nvcc reads through the default path
 * (LDG.E) as the port records, where restrict lets it use the non-coherent
 * one (LDG.E.CONSTANT); nothing else changes, as no store comes between the
 * loads.  SHOC's vector kernel reduces a warp's partial sums
 * warp-synchronously through shared memory, which is unsafe since Volta's
 * independent thread scheduling; the shuffle reduction here adds in the same
 * order and, like shared memory, leaves nothing in the global-memory trace.
 * nvcc 13 (sm_90) issues every thread's loads in the port's order.
 * `#pragma unroll 1` keeps one SASS instruction per source access, as the
 * port has one site per access (nvcc would unroll these runtime-bound
 * loops). */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define BLOCK_SIZE 128

/* One thread per row: the lanes of a warp walk rows of different lengths. */
extern "C" __global__ void spmv_csr_scalar_kernel(const float *val, const int *cols,
                                                  const int *row_delimiters, const float *vec,
                                                  int dim, float *out)
{
    int my_row = blockIdx.x * blockDim.x + threadIdx.x;
    if (my_row < dim) {
        float sum = 0;
        int start = row_delimiters[my_row];
        int end = row_delimiters[my_row + 1];
#pragma unroll 1
        for (int j = start; j < end; j++) {
            int col = cols[j];
            float v = val[j];
            sum += v * vec[col];
        }
        out[my_row] = sum;
    }
}

/* One warp per row: lane id takes elements id, id + 32, ... */
extern "C" __global__ void spmv_csr_vector_kernel(const float *val, const int *cols,
                                                  const int *row_delimiters, const float *vec,
                                                  int dim, float *out)
{
    int id = threadIdx.x & 31;
    int warps_per_block = blockDim.x / 32;
    int my_row = blockIdx.x * warps_per_block + threadIdx.x / 32;
    if (my_row < dim) {
        int warp_start = row_delimiters[my_row];
        int warp_end = row_delimiters[my_row + 1];
        float my_sum = 0;
#pragma unroll 1
        for (int j = warp_start + id; j < warp_end; j += 32) {
            int col = cols[j];
            float v = val[j];
            my_sum += v * vec[col];
        }
        for (int offset = 16; offset > 0; offset /= 2)
            my_sum += __shfl_down_sync(0xffffffffu, my_sum, offset);
        if (id == 0)
            out[my_row] = my_sum;
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "spmv");
    static const int sizes[] = {2048, 65536, 4194304};
    int dim = sizes[o.size];
    uint64_t s = o.seed;
    int *row_delimiters = ws_device<int>((size_t)dim + 1);
    float *vec = ws_device<float>(dim), *out = ws_device<float>(dim);
    /* Row lengths 1..63 (mean 32): rows of one warp diverge in trip count. */
    int *hrd = ws_host<int>((size_t)dim + 1);
    size_t nnz = 0;
    for (int r = 0; r < dim; r++) {
        hrd[r] = (int)nnz;
        nnz += 1 + ws_rand(&s) % 63;
    }
    hrd[dim] = (int)nnz;
    int *cols = ws_device<int>(nnz);
    float *val = ws_device<float>(nnz);
    int *hcols = ws_host<int>(nnz);
    float *hval = ws_host<float>(nnz), *hvec = ws_host<float>(dim);
    for (int r = 0; r < dim; r++) {
        int start = hrd[r], len = hrd[r + 1] - start;
        /* Sorted distinct columns spread over the row's neighbourhood. */
        int col = (int)(ws_rand(&s) % (uint64_t)dim);
        for (int k = 0; k < len; k++) {
            col = (col + 1 + (int)(ws_rand(&s) % 97)) % dim;
            hcols[start + k] = col;
            hval[start + k] = ws_rand_float(&s);
        }
    }
    for (int i = 0; i < dim; i++)
        hvec[i] = ws_rand_float(&s);
    ws_to_device(row_delimiters, hrd, (size_t)dim + 1);
    ws_to_device(vec, hvec, dim);
    ws_to_device(cols, hcols, nnz);
    ws_to_device(val, hval, nnz);
    float *want = NULL, *got = ws_host<float>(dim);
    if (o.verify) {
        want = ws_host<float>(dim);
        for (int r = 0; r < dim; r++) {
            float sum = 0;
            for (int j = hrd[r]; j < hrd[r + 1]; j++)
                sum += hval[j] * hvec[hcols[j]];
            want[r] = sum;
        }
    }
    spmv_csr_scalar_kernel<<<(dim + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(
        val, cols, row_delimiters, vec, dim, out);
    WS_LAUNCHED();
    if (o.verify) {
        ws_to_host(got, out, dim);
        ws_check_floats(o.program, "spmv scalar out", got, want, dim, 1e-4f);
    }
    /* The port clears out between the kernels. */
    float *zeros = ws_host<float>(dim);
    ws_to_device(out, zeros, dim);
    free(zeros);
    spmv_csr_vector_kernel<<<(dim + BLOCK_SIZE / 32 - 1) / (BLOCK_SIZE / 32), BLOCK_SIZE>>>(
        val, cols, row_delimiters, vec, dim, out);
    WS_LAUNCHED();
    if (o.verify) {
        ws_to_host(got, out, dim);
        ws_check_floats(o.program, "spmv vector out", got, want, dim, 1e-4f);
    }
    free(hrd);
    free(hcols);
    free(hval);
    free(hvec);
    free(want);
    free(got);
    return 0;
}
