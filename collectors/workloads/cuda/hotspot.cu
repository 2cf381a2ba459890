/* collectors/workloads/cuda/hotspot.cu: Rodinia hotspot (calculate_temp)
 * as a CUDA program, the twin of the emulator port
 * collectors/workloads/hotspot.c (docs/cuda-workloads.md): a thermal
 * stencil over a chip grid, 16×16 blocks that compute a pyramid of
 * `iteration` steps in shared memory between barriers. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define BLOCK_SIZE 16
#define PYRAMID 2
#define TOTAL_ITERATIONS 4
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
#define AMB_TEMP 80.0f

/* The stencil of one cell, shared by the kernel and the CPU reference. */
__host__ __device__ static float stencil(float step_div_cap, float rx_1, float ry_1, float rz_1, float t,
                                         float p, float n, float s, float e, float w)
{
    return t + step_div_cap * (p + (s + n - 2.0f * t) * ry_1 + (e + w - 2.0f * t) * rx_1 +
                               (AMB_TEMP - t) * rz_1);
}

__global__ void calculate_temp(int iteration, float *power, float *temp_src, float *temp_dst,
                               int grid_cols, int grid_rows, int border_cols, int border_rows,
                               float Cap, float Rx, float Ry, float Rz, float step, float time_elapsed)
{
    __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float power_on_cuda[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];
    float step_div_Cap = step / Cap;
    float Rx_1 = 1 / Rx, Ry_1 = 1 / Ry, Rz_1 = 1 / Rz;
    int bx = (int)blockIdx.x, by = (int)blockIdx.y, tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int small_block_rows = BLOCK_SIZE - iteration * 2, small_block_cols = BLOCK_SIZE - iteration * 2;
    int blkY = small_block_rows * by - border_rows, blkX = small_block_cols * bx - border_cols;
    int blkYmax = blkY + BLOCK_SIZE - 1, blkXmax = blkX + BLOCK_SIZE - 1;
    int yidx = blkY + ty, xidx = blkX + tx;
    int index = grid_cols * yidx + xidx;
    if (IN_RANGE(yidx, 0, grid_rows - 1) && IN_RANGE(xidx, 0, grid_cols - 1)) {
        temp_on_cuda[ty][tx] = temp_src[index];
        power_on_cuda[ty][tx] = power[index];
    }
    __syncthreads();
    int validYmin = blkY < 0 ? -blkY : 0;
    int validYmax = blkYmax > grid_rows - 1 ? BLOCK_SIZE - 1 - (blkYmax - grid_rows + 1) : BLOCK_SIZE - 1;
    int validXmin = blkX < 0 ? -blkX : 0;
    int validXmax = blkXmax > grid_cols - 1 ? BLOCK_SIZE - 1 - (blkXmax - grid_cols + 1) : BLOCK_SIZE - 1;
    int N = ty - 1 < validYmin ? validYmin : ty - 1, S = ty + 1 > validYmax ? validYmax : ty + 1;
    int W = tx - 1 < validXmin ? validXmin : tx - 1, E = tx + 1 > validXmax ? validXmax : tx + 1;
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
            IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
            computed = true;
            temp_t[ty][tx] = stencil(step_div_Cap, Rx_1, Ry_1, Rz_1, temp_on_cuda[ty][tx],
                                     power_on_cuda[ty][tx], temp_on_cuda[N][tx], temp_on_cuda[S][tx],
                                     temp_on_cuda[ty][E], temp_on_cuda[ty][W]);
        }
        __syncthreads();
        if (i == iteration - 1)
            break;
        if (computed)
            temp_on_cuda[ty][tx] = temp_t[ty][tx];
        __syncthreads();
    }
    if (computed)
        temp_dst[index] = temp_t[ty][tx];
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "hotspot");
    static const int sizes[] = {64, 512, 1024};
    int n = sizes[o.size];
    size_t cells = (size_t)n * n;
    float *power = ws_device<float>(cells);
    float *buf[2] = {ws_device<float>(cells), ws_device<float>(cells)};
    float *host_power = ws_host<float>(cells), *host_temp = ws_host<float>(cells);
    uint64_t s = o.seed;
    for (size_t i = 0; i < cells; i++) {
        host_power[i] = ws_rand_float(&s) * 0.01f;
        host_temp[i] = 320.0f + ws_rand_float(&s) * 20.0f;
    }
    ws_to_device(power, host_power, cells);
    ws_to_device(buf[0], host_temp, cells);
    /* Rodinia's chip constants (hotspot.cu), computed as the port does. */
    float t_chip = 0.0005f, chip = 0.016f, grid_w = chip / n, grid_h = chip / n;
    float cap = 0.5f * 1.75e6f * t_chip * grid_w * grid_h;
    float rx = grid_w / (2.0f * 100 * t_chip * grid_h), ry = grid_h / (2.0f * 100 * t_chip * grid_w);
    float rz = t_chip / (100 * grid_h * grid_w);
    float step = 0.001f / (3.0e6f / (0.5f * t_chip * 1.75e6f));

    int small = BLOCK_SIZE - PYRAMID * 2;
    unsigned blocks = (unsigned)(n / small + (n % small != 0));
    int src = 0;
    for (int t = 0; t < TOTAL_ITERATIONS; t += PYRAMID) {
        int iteration = TOTAL_ITERATIONS - t < PYRAMID ? TOTAL_ITERATIONS - t : PYRAMID;
        calculate_temp<<<dim3(blocks, blocks), dim3(BLOCK_SIZE, BLOCK_SIZE)>>>(
            iteration, power, buf[src], buf[1 - src], n, n, PYRAMID, PYRAMID, cap, rx, ry, rz, step,
            0.001f);
        WS_LAUNCHED();
        src = 1 - src;
    }
    if (o.verify) {
        /* The device divides with IEEE rounding, so these are its values. */
        float step_div_cap = step / cap, rx_1 = 1 / rx, ry_1 = 1 / ry, rz_1 = 1 / rz;
        float *want = host_temp, *next = ws_host<float>(cells), *got = ws_host<float>(cells);
        for (int it = 0; it < TOTAL_ITERATIONS; it++) {
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    int north = r > 0 ? r - 1 : r, south = r < n - 1 ? r + 1 : r;
                    int west = c > 0 ? c - 1 : c, east = c < n - 1 ? c + 1 : c;
                    next[r * n + c] = stencil(step_div_cap, rx_1, ry_1, rz_1, want[r * n + c],
                                              host_power[r * n + c], want[north * n + c],
                                              want[south * n + c], want[r * n + east], want[r * n + west]);
                }
            memcpy(want, next, cells * sizeof(float));
        }
        ws_to_host(got, buf[src], cells);
        ws_check_floats(o.program, "hotspot temperature", got, want, cells, 1e-5f);
        free(next);
        free(got);
    }
    free(host_power);
    free(host_temp);
    return 0;
}
