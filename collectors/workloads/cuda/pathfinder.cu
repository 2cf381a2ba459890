/* collectors/workloads/cuda/pathfinder.cu: Rodinia pathfinder
 * (dynproc_kernel) as a CUDA program, the twin of the emulator port
 * collectors/workloads/pathfinder.c (docs/cuda-workloads.md): dynamic
 * programming down a grid, PYRAMID_HEIGHT rows per launch, with the row in
 * shared memory between barriers. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define BLOCK_SIZE 256
#define HALO 1
#define PYRAMID_HEIGHT 20
#define ROWS 100
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

__global__ void dynproc_kernel(int iteration, int *gpuWall, int *gpuSrc, int *gpuResults, int cols,
                               int rows, int startStep, int border)
{
    __shared__ int prev[BLOCK_SIZE];
    __shared__ int result[BLOCK_SIZE];
    int bx = (int)blockIdx.x, tx = (int)threadIdx.x;
    int small_block_cols = BLOCK_SIZE - iteration * HALO * 2;
    int blkX = small_block_cols * bx - border;
    int blkXmax = blkX + BLOCK_SIZE - 1;
    int xidx = blkX + tx;
    int validXmin = (blkX < 0) ? -blkX : 0;
    int validXmax = (blkXmax > cols - 1) ? BLOCK_SIZE - 1 - (blkXmax - cols + 1) : BLOCK_SIZE - 1;
    int W = tx - 1 < validXmin ? validXmin : tx - 1;
    int E = tx + 1 > validXmax ? validXmax : tx + 1;
    bool isValid = IN_RANGE(tx, validXmin, validXmax);
    if (IN_RANGE(xidx, 0, cols - 1))
        prev[tx] = gpuSrc[xidx];
    __syncthreads();
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && isValid) {
            computed = true;
            int shortest = MIN(MIN(prev[W], prev[tx]), prev[E]);
            int index = cols * (startStep + i) + xidx;
            result[tx] = shortest + gpuWall[index];
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed)
            prev[tx] = result[tx];
        __syncthreads();
    }
    if (computed)
        gpuResults[xidx] = result[tx];
}

/* The minimum-cost path down to every column of the last row. */
static int *reference(const int *wall, int cols)
{
    int *want = ws_host<int>((size_t)cols), *next = ws_host<int>((size_t)cols);
    memcpy(want, wall, (size_t)cols * sizeof(int));
    for (int r = 1; r < ROWS; r++) {
        for (int n = 0; n < cols; n++) {
            int m = want[n];
            if (n > 0 && want[n - 1] < m)
                m = want[n - 1];
            if (n < cols - 1 && want[n + 1] < m)
                m = want[n + 1];
            next[n] = wall[r * cols + n] + m;
        }
        memcpy(want, next, (size_t)cols * sizeof(int));
    }
    free(next);
    return want;
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "pathfinder");
    static const int sizes[] = {2048, 32768, 262144};
    int cols = sizes[o.size], rows = ROWS;
    size_t cells = (size_t)rows * cols;
    int *wall = ws_device<int>(cells);
    int *buf[2] = {ws_device<int>((size_t)cols), ws_device<int>((size_t)cols)};
    int *host_wall = ws_host<int>(cells);
    uint64_t s = o.seed;
    for (size_t i = 0; i < cells; i++)
        host_wall[i] = (int)(ws_rand(&s) % 10);
    ws_to_device(wall, host_wall, cells);
    ws_to_device(buf[0], host_wall, (size_t)cols); /* row 0 starts the paths */

    int border = PYRAMID_HEIGHT * HALO;
    int small_block_col = BLOCK_SIZE - PYRAMID_HEIGHT * HALO * 2;
    unsigned block_cols = (unsigned)(cols / small_block_col + (cols % small_block_col != 0));
    int src = 0;
    for (int t = 0; t < rows - 1; t += PYRAMID_HEIGHT) {
        dynproc_kernel<<<block_cols, BLOCK_SIZE>>>(MIN(PYRAMID_HEIGHT, rows - t - 1), wall + cols,
                                                   buf[src], buf[1 - src], cols, rows, t, border);
        WS_LAUNCHED();
        src = 1 - src;
    }
    if (o.verify) {
        int *want = reference(host_wall, cols), *got = ws_host<int>((size_t)cols);
        ws_to_host(got, buf[src], (size_t)cols);
        for (int n = 0; n < cols; n++)
            if (got[n] != want[n]) {
                fprintf(stderr, "%s: pathfinder result[%d]: got %d, expected %d\n", o.program, n,
                        got[n], want[n]);
                exit(1);
            }
        free(want);
        free(got);
    }
    free(host_wall);
    return 0;
}
