/* collectors/workloads/cuda/nw.cu: Rodinia Needleman-Wunsch
 * (needle_cuda_shared_1, needle_cuda_shared_2) as a CUDA program, the twin
 * of the emulator port collectors/workloads/nw.c (docs/cuda-workloads.md):
 * the score matrix is filled one anti-diagonal of 16×16 tiles per launch,
 * each tile solved in shared memory by a wavefront of 16 threads between
 * barriers. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define BLOCK_SIZE 16
#define PENALTY 10

__host__ __device__ static int maximum(int a, int b, int c)
{
    int k = a <= b ? b : a;
    return k <= c ? c : k;
}

/* One tile at block coordinates (b_index_x, b_index_y), as both of
 * Rodinia's kernels do it. */
__device__ static void solve_tile(int *referrence, int *matrix_cuda, int cols, int penalty,
                                  int b_index_x, int b_index_y)
{
    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];
    int tx = (int)threadIdx.x;
    int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
    int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + 1;
    int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + cols;
    int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;
    if (tx == 0)
        temp[tx][0] = matrix_cuda[index_nw];
    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        ref[ty][tx] = referrence[index + cols * ty];
    __syncthreads();
    temp[tx + 1][0] = matrix_cuda[index_w + cols * tx];
    __syncthreads();
    temp[0][tx + 1] = matrix_cuda[index_n];
    __syncthreads();
    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int x = tx + 1, y = m - tx + 1;
            temp[y][x] = maximum(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty,
                                 temp[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int x = tx + BLOCK_SIZE - m, y = BLOCK_SIZE - tx;
            temp[y][x] = maximum(temp[y - 1][x - 1] + ref[y - 1][x - 1], temp[y][x - 1] - penalty,
                                 temp[y - 1][x] - penalty);
        }
        __syncthreads();
    }
    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        matrix_cuda[index + ty * cols] = temp[ty + 1][tx + 1];
}

__global__ void needle_cuda_shared_1(int *referrence, int *matrix_cuda, int cols, int penalty, int i,
                                     int block_width)
{
    int bx = (int)blockIdx.x;
    solve_tile(referrence, matrix_cuda, cols, penalty, bx, i - 1 - bx);
}

__global__ void needle_cuda_shared_2(int *referrence, int *matrix_cuda, int cols, int penalty, int i,
                                     int block_width)
{
    int bx = (int)blockIdx.x;
    solve_tile(referrence, matrix_cuda, cols, penalty, bx + block_width - i, block_width - bx - 1);
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "nw");
    static const int sizes[] = {128, 1024, 4096};
    int n = sizes[o.size], cols = n + 1, block_width = n / BLOCK_SIZE;
    size_t cells = (size_t)cols * cols;
    int *reference = ws_device<int>(cells), *matrix = ws_device<int>(cells);
    int *host_ref = ws_host<int>(cells), *host_matrix = ws_host<int>(cells);
    uint64_t s = o.seed;
    for (size_t i = 0; i < cells; i++)
        host_ref[i] = (int)(ws_rand(&s) % 21) - 10; /* BLOSUM-like scores */
    for (int i = 0; i < cols; i++) {
        host_matrix[i * cols] = -i * PENALTY;
        host_matrix[i] = -i * PENALTY;
    }
    ws_to_device(reference, host_ref, cells);
    ws_to_device(matrix, host_matrix, cells);
    for (int i = 1; i <= block_width; i++) {
        needle_cuda_shared_1<<<i, BLOCK_SIZE>>>(reference, matrix, cols, PENALTY, i, block_width);
        WS_LAUNCHED();
    }
    for (int i = block_width - 1; i >= 1; i--) {
        needle_cuda_shared_2<<<i, BLOCK_SIZE>>>(reference, matrix, cols, PENALTY, i, block_width);
        WS_LAUNCHED();
    }
    if (o.verify) {
        int *got = ws_host<int>(cells);
        ws_to_host(got, matrix, cells);
        for (int r = 1; r < cols; r++)
            for (int c = 1; c < cols; c++)
                host_matrix[r * cols + c] =
                    maximum(host_matrix[(r - 1) * cols + c - 1] + host_ref[r * cols + c],
                            host_matrix[r * cols + c - 1] - PENALTY, host_matrix[(r - 1) * cols + c] - PENALTY);
        for (size_t i = 0; i < cells; i++)
            if (got[i] != host_matrix[i]) {
                fprintf(stderr, "%s: nw score[%zu]: got %d, expected %d\n", o.program, i, got[i],
                        host_matrix[i]);
                exit(1);
            }
        free(got);
    }
    free(host_ref);
    free(host_matrix);
    return 0;
}
