/* collectors/workloads/spmv.c: SHOC sparse matrix-vector product, CSR, with
 * both of SHOC's kernels run in turn: spmv_csr_scalar_kernel (one thread per
 * row) and spmv_csr_vector_kernel (one warp per row).
 *
 * Two faithful-to-the-trace simplifications: SHOC may read the vector
 * through the texture path; here it is an ordinary global load (SHOC's
 * non-texture build).  The vector kernel's warp-synchronous reduction goes
 * through shared memory, which is not traced; the lane that writes the result
 * computes the row sum itself with untraced reads, so every traced access is
 * the original kernel's. */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define BLOCK_SIZE 128

typedef struct spmv_args {
    float *val, *vec, *out;
    int *cols, *row_delimiters;
    int dim;
} spmv_args;

static void spmv_scalar(emu_thread *t)
{
    const spmv_args *g = t->args;
    int my_row = (int)(t->blockIdx.x * t->blockDim.x + t->threadIdx.x); emu_gap(t, 11); /* timing: docs/cuda-workloads.md */
    if (my_row < g->dim) {
        float sum = 0;
        int start = EMU_LD(t, int, &g->row_delimiters[my_row]); emu_value loaded_start = emu_loaded(t);
        int end = EMU_LD(t, int, &g->row_delimiters[my_row + 1]); workload_use_loaded(t, loaded_start, start < end ? 16 : 10);
        for (int j = start; j < end; j++) {
            int col = EMU_LD(t, int, &g->cols[j]); emu_value loaded_col = emu_loaded(t);
            float v = EMU_LD(t, float, &g->val[j]); emu_value loaded_v = emu_loaded(t); emu_use(t, loaded_col); emu_gap(t, 3);
            sum += v * EMU_LD(t, float, &g->vec[col]); workload_use_loaded(t, loaded_v, 6);
        } emu_gap(t, 7);
        EMU_ST(t, float, &g->out[my_row], sum);
    }
}

static void spmv_vector(emu_thread *t)
{
    const spmv_args *g = t->args;
    int id = (int)(t->threadIdx.x & 31);
    int warps_per_block = (int)t->blockDim.x / 32;
    int my_row = (int)(t->blockIdx.x * warps_per_block + t->threadIdx.x / 32); emu_gap(t, 13);
    if (my_row < g->dim) {
        int warp_start = EMU_LD(t, int, &g->row_delimiters[my_row]); emu_value loaded_start = emu_loaded(t);
        int warp_end = EMU_LD(t, int, &g->row_delimiters[my_row + 1]); workload_use_loaded(t, loaded_start, warp_start + id < warp_end ? 18 : 4);
        for (int j = warp_start + id; j < warp_end; j += 32) {
            int col = EMU_LD(t, int, &g->cols[j]); emu_value loaded_col = emu_loaded(t);
            float v = EMU_LD(t, float, &g->val[j]); emu_value loaded_v = emu_loaded(t); emu_use(t, loaded_col); emu_gap(t, 3);
            (void)(v * EMU_LD(t, float, &g->vec[col])); workload_use_loaded(t, loaded_v, 6);
        } emu_gap(t, 19);
        if (id == 0) {
            float sum = 0; /* the shared-memory reduction's result (see above) */
            for (int j = warp_start; j < warp_end; j++)
                sum += g->val[j] * g->vec[g->cols[j]];
            EMU_ST(t, float, &g->out[my_row], sum);
        }
    }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {2048, 65536, 4194304};
    int dim = sizes[size];
    uint64_t s = seed;
    spmv_args g = {.dim = dim};
    g.row_delimiters = emu_malloc(e, ((size_t)dim + 1) * sizeof(int));
    g.vec = emu_malloc(e, (size_t)dim * sizeof(float));
    g.out = emu_malloc(e, (size_t)dim * sizeof(float));
    if (!g.row_delimiters || !g.vec || !g.out)
        return ws_fail(err, "spmv: emulated device memory is full");
    /* Row lengths 1..63 (mean 32): rows of one warp diverge in trip count. */
    size_t nnz = 0;
    for (int r = 0; r < dim; r++) {
        g.row_delimiters[r] = (int)nnz;
        nnz += 1 + workload_rand(&s) % 63;
    }
    g.row_delimiters[dim] = (int)nnz;
    g.cols = emu_malloc(e, nnz * sizeof(int));
    g.val = emu_malloc(e, nnz * sizeof(float));
    if (!g.cols || !g.val)
        return ws_fail(err, "spmv: emulated device memory is full");
    for (int r = 0; r < dim; r++) {
        int start = g.row_delimiters[r], len = g.row_delimiters[r + 1] - start;
        /* Sorted distinct columns spread over the row's neighbourhood. */
        int col = (int)(workload_rand(&s) % (uint64_t)dim);
        for (int k = 0; k < len; k++) {
            col = (col + 1 + (int)(workload_rand(&s) % 97)) % dim;
            g.cols[start + k] = col;
            g.val[start + k] = workload_rand_float(&s);
        }
    }
    for (int i = 0; i < dim; i++)
        g.vec[i] = workload_rand_float(&s);
    float *want = NULL;
    if (verify) {
        want = malloc((size_t)dim * sizeof *want);
        for (int r = 0; r < dim; r++) {
            float sum = 0;
            for (int j = g.row_delimiters[r]; j < g.row_delimiters[r + 1]; j++)
                sum += g.val[j] * g.vec[g.cols[j]];
            want[r] = sum;
        }
    }
    emu_launch scalar = {.name = "spmv_csr_scalar_kernel",
                         .grid = {(unsigned)(dim + BLOCK_SIZE - 1) / BLOCK_SIZE, 1, 1},
                         .block = {BLOCK_SIZE, 1, 1}, .kernel = spmv_scalar, .args = &g, .timed = 1};
    emu_launch vector = {.name = "spmv_csr_vector_kernel",
                         .grid = {(unsigned)(dim + BLOCK_SIZE / 32 - 1) / (BLOCK_SIZE / 32), 1, 1},
                         .block = {BLOCK_SIZE, 1, 1}, .kernel = spmv_vector, .args = &g, .timed = 1};
    int rc = emu_launch_kernel(e, &scalar, err);
    if (rc == 0 && verify)
        rc = workload_check_floats("spmv scalar out", g.out, want, (uint64_t)dim, 1e-4f, err);
    if (rc == 0) {
        memset(g.out, 0, (size_t)dim * sizeof(float));
        rc = emu_launch_kernel(e, &vector, err);
    }
    if (rc == 0 && verify)
        rc = workload_check_floats("spmv vector out", g.out, want, (uint64_t)dim, 1e-4f, err);
    free(want);
    return rc;
}

const workload workload_spmv = {
    .name = "spmv",
    .suite = "shoc",
    .kernels = "spmv_csr_scalar_kernel, spmv_csr_vector_kernel",
    .description = "CSR sparse matrix-vector product; scalar (divergent) and vector kernels",
    .sizes = {"2 K rows", "64 K rows", "4 M rows (56 M records)"},
    .run = run,
};
