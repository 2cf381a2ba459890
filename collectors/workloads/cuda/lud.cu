/* collectors/workloads/cuda/lud.cu: Rodinia LU decomposition
 * (lud_diagonal, lud_perimeter, lud_internal) as a CUDA program, the twin
 * of the emulator port collectors/workloads/lud.c (docs/cuda-workloads.md):
 * per 16-column step, lud_diagonal factors the diagonal tile, lud_perimeter
 * the row and column tiles beside it (two half-warps, one each), and
 * lud_internal updates the trailing matrix; a final lud_diagonal finishes. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define BLOCK_SIZE 16

__global__ void lud_diagonal(float *m, int matrix_dim, int offset)
{
    __shared__ float shadow[BLOCK_SIZE][BLOCK_SIZE];
    int tx = (int)threadIdx.x;
    int array_offset = offset * matrix_dim + offset;
    for (int i = 0; i < BLOCK_SIZE; i++) {
        shadow[i][tx] = m[array_offset + tx];
        array_offset += matrix_dim;
    }
    __syncthreads();
    for (int i = 0; i < BLOCK_SIZE - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++)
                shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
            shadow[tx][i] /= shadow[i][i];
        }
        __syncthreads();
        if (tx > i)
            for (int j = 0; j < i + 1; j++)
                shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
        __syncthreads();
    }
    /* The first row is not modified: it is not written back. */
    array_offset = (offset + 1) * matrix_dim + offset;
    for (int i = 1; i < BLOCK_SIZE; i++) {
        m[array_offset + tx] = shadow[i][tx];
        array_offset += matrix_dim;
    }
}

__global__ void lud_perimeter(float *m, int matrix_dim, int offset)
{
    __shared__ float dia[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];
    int tx = (int)threadIdx.x, bx = (int)blockIdx.x;
    int idx, array_offset;
    if (tx < BLOCK_SIZE) {
        idx = tx;
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE / 2; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = offset * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            peri_row[i][idx] = m[array_offset + (bx + 1) * BLOCK_SIZE + idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = tx - BLOCK_SIZE;
        array_offset = (offset + BLOCK_SIZE / 2) * matrix_dim + offset;
        for (int i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
        array_offset = (offset + (bx + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            peri_col[i][idx] = m[array_offset + idx];
            array_offset += matrix_dim;
        }
    }
    __syncthreads();
    if (tx < BLOCK_SIZE) {
        idx = tx;
        for (int i = 1; i < BLOCK_SIZE; i++)
            for (int j = 0; j < i; j++)
                peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
    } else {
        idx = tx - BLOCK_SIZE;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            for (int j = 0; j < i; j++)
                peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }
    __syncthreads();
    if (tx < BLOCK_SIZE) {
        idx = tx;
        array_offset = (offset + 1) * matrix_dim + offset;
        for (int i = 1; i < BLOCK_SIZE; i++) {
            m[array_offset + (bx + 1) * BLOCK_SIZE + idx] = peri_row[i][idx];
            array_offset += matrix_dim;
        }
    } else {
        idx = tx - BLOCK_SIZE;
        array_offset = (offset + (bx + 1) * BLOCK_SIZE) * matrix_dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            m[array_offset + idx] = peri_col[i][idx];
            array_offset += matrix_dim;
        }
    }
}

__global__ void lud_internal(float *m, int matrix_dim, int offset)
{
    __shared__ float peri_row[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float peri_col[BLOCK_SIZE][BLOCK_SIZE];
    int tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int global_row_id = offset + ((int)blockIdx.y + 1) * BLOCK_SIZE;
    int global_col_id = offset + ((int)blockIdx.x + 1) * BLOCK_SIZE;
    peri_row[ty][tx] = m[(offset + ty) * matrix_dim + global_col_id + tx];
    peri_col[ty][tx] = m[(global_row_id + ty) * matrix_dim + offset + tx];
    __syncthreads();
    float sum = 0;
    for (int i = 0; i < BLOCK_SIZE; i++)
        sum += peri_col[ty][i] * peri_row[i][tx];
    m[(global_row_id + ty) * matrix_dim + global_col_id + tx] -= sum;
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "lud");
    static const int sizes[] = {64, 256, 1024};
    int n = sizes[o.size];
    size_t cells = (size_t)n * n;
    float *m = ws_device<float>(cells);
    float *host_m = ws_host<float>(cells);
    uint64_t s = o.seed;
    for (int r = 0; r < n; r++) /* diagonally dominant: stable without pivoting */
        for (int c = 0; c < n; c++)
            host_m[r * n + c] = ws_rand_float(&s) + (r == c ? (float)n : 0.0f);
    ws_to_device(m, host_m, cells);
    int i = 0;
    for (; i < n - BLOCK_SIZE; i += BLOCK_SIZE) {
        unsigned tiles = (unsigned)((n - i) / BLOCK_SIZE - 1);
        lud_diagonal<<<1, BLOCK_SIZE>>>(m, n, i);
        WS_LAUNCHED();
        lud_perimeter<<<tiles, 2 * BLOCK_SIZE>>>(m, n, i);
        WS_LAUNCHED();
        lud_internal<<<dim3(tiles, tiles), dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(m, n, i);
        WS_LAUNCHED();
    }
    lud_diagonal<<<1, BLOCK_SIZE>>>(m, n, i);
    WS_LAUNCHED();
    if (o.verify) {
        float *got = ws_host<float>(cells);
        ws_to_host(got, m, cells);
        for (int k = 0; k < n; k++)
            for (int r = k + 1; r < n; r++) {
                host_m[r * n + k] /= host_m[k * n + k];
                for (int c = k + 1; c < n; c++)
                    host_m[r * n + c] -= host_m[r * n + k] * host_m[k * n + c];
            }
        /* The blocked order of operations differs from the reference's:
         * compare relative to the matrix's scale. */
        for (size_t k = 0; k < cells; k++)
            if (fabsf(got[k] - host_m[k]) > 1e-3f * (fabsf(host_m[k]) + 1)) {
                fprintf(stderr, "%s: lud m[%zu]: got %g, expected %g\n", o.program, k, (double)got[k],
                        (double)host_m[k]);
                exit(1);
            }
        free(got);
    }
    free(host_m);
    return 0;
}
