/* collectors/workloads/hotspot.c: Rodinia hotspot (hotspot.cu,
 * calculate_temp): a thermal stencil over a chip grid, 16×16 blocks that
 * compute a pyramid of `iteration` steps in shared memory between barriers
 * (pyramid height 2, as Rodinia's run script uses). */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define BLOCK_SIZE 16
#define PYRAMID 2
#define TOTAL_ITERATIONS 4
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
#define AMB_TEMP 80.0f

typedef struct hs_args {
    float *power, *src, *dst;
    int cols, rows, border_cols, border_rows, iteration;
    float step_div_cap, rx_1, ry_1, rz_1;
} hs_args;

typedef struct hs_shared {
    float temp[BLOCK_SIZE][BLOCK_SIZE], power[BLOCK_SIZE][BLOCK_SIZE], temp_t[BLOCK_SIZE][BLOCK_SIZE];
} hs_shared;

/* The stencil of one cell, shared by the kernel and the CPU reference. */
static float stencil(const hs_args *a, float t, float p, float n, float s, float e, float w)
{
    return t + a->step_div_cap * (p + (s + n - 2.0f * t) * a->ry_1 + (e + w - 2.0f * t) * a->rx_1 +
                                  (AMB_TEMP - t) * a->rz_1);
}

static void calculate_temp(emu_thread *th)
{
    const hs_args *a = th->args;
    hs_shared *sh = th->shared;
    int bx = (int)th->blockIdx.x, by = (int)th->blockIdx.y, tx = (int)th->threadIdx.x,
        ty = (int)th->threadIdx.y;
    int small_block_rows = BLOCK_SIZE - a->iteration * 2, small_block_cols = BLOCK_SIZE - a->iteration * 2;
    int blk_y = small_block_rows * by - a->border_rows, blk_x = small_block_cols * bx - a->border_cols;
    int blk_y_max = blk_y + BLOCK_SIZE - 1, blk_x_max = blk_x + BLOCK_SIZE - 1;
    int yidx = blk_y + ty, xidx = blk_x + tx;
    int index = a->cols * yidx + xidx;
    if (IN_RANGE(yidx, 0, a->rows - 1) && IN_RANGE(xidx, 0, a->cols - 1)) { emu_gap(th, 24); /* timing: docs/cuda-workloads.md */
        sh->temp[ty][tx] = EMU_LD(th, float, &a->src[index]); emu_value loaded_src = emu_loaded(th); emu_gap(th, 1);
        sh->power[ty][tx] = EMU_LD(th, float, &a->power[index]); workload_use_loaded(th, loaded_src, 127 + 41 * (uint32_t)(a->iteration - 1));
    }
    EMU_SYNC(th);
    int valid_y_min = blk_y < 0 ? -blk_y : 0;
    int valid_y_max = blk_y_max > a->rows - 1 ? BLOCK_SIZE - 1 - (blk_y_max - a->rows + 1) : BLOCK_SIZE - 1;
    int valid_x_min = blk_x < 0 ? -blk_x : 0;
    int valid_x_max = blk_x_max > a->cols - 1 ? BLOCK_SIZE - 1 - (blk_x_max - a->cols + 1) : BLOCK_SIZE - 1;
    int N = ty - 1 < valid_y_min ? valid_y_min : ty - 1, S = ty + 1 > valid_y_max ? valid_y_max : ty + 1;
    int W = tx - 1 < valid_x_min ? valid_x_min : tx - 1, E = tx + 1 > valid_x_max ? valid_x_max : tx + 1;
    int computed = 0;
    for (int i = 0; i < a->iteration; i++) {
        computed = 0;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
            IN_RANGE(tx, valid_x_min, valid_x_max) && IN_RANGE(ty, valid_y_min, valid_y_max)) {
            computed = 1;
            sh->temp_t[ty][tx] = stencil(a, sh->temp[ty][tx], sh->power[ty][tx], sh->temp[N][tx],
                                         sh->temp[S][tx], sh->temp[ty][E], sh->temp[ty][W]);
        }
        EMU_SYNC(th);
        if (i == a->iteration - 1)
            break;
        if (computed)
            sh->temp[ty][tx] = sh->temp_t[ty][tx];
        EMU_SYNC(th);
    }
    if (computed)
        EMU_ST(th, float, &a->dst[index], sh->temp_t[ty][tx]);
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 512, 1024};
    int n = sizes[size];
    size_t cells = (size_t)n * n;
    float *power = emu_malloc(e, cells * 4);
    float *buf[2] = {emu_malloc(e, cells * 4), emu_malloc(e, cells * 4)};
    if (!power || !buf[0] || !buf[1])
        return ws_fail(err, "hotspot: emulated device memory is full");
    uint64_t s = seed;
    for (size_t i = 0; i < cells; i++) {
        power[i] = workload_rand_float(&s) * 0.01f;
        buf[0][i] = 320.0f + workload_rand_float(&s) * 20.0f;
    }
    /* Rodinia's chip constants (hotspot.cu). */
    float t_chip = 0.0005f, chip = 0.016f, grid_w = chip / n, grid_h = chip / n;
    float cap = 0.5f * 1.75e6f * t_chip * grid_w * grid_h;
    float rx = grid_w / (2.0f * 100 * t_chip * grid_h), ry = grid_h / (2.0f * 100 * t_chip * grid_w);
    float rz = t_chip / (100 * grid_h * grid_w);
    float step = 0.001f / (3.0e6f / (0.5f * t_chip * 1.75e6f));
    hs_args a = {.power = power, .cols = n, .rows = n, .border_cols = PYRAMID, .border_rows = PYRAMID,
                 .step_div_cap = step / cap, .rx_1 = 1 / rx, .ry_1 = 1 / ry, .rz_1 = 1 / rz};
    float *want = NULL, *next = NULL;
    if (verify) {
        want = malloc(cells * 4);
        next = malloc(cells * 4);
        memcpy(want, buf[0], cells * 4);
        for (int it = 0; it < TOTAL_ITERATIONS; it++) {
            for (int r = 0; r < n; r++)
                for (int c = 0; c < n; c++) {
                    int north = r > 0 ? r - 1 : r, south = r < n - 1 ? r + 1 : r;
                    int west = c > 0 ? c - 1 : c, east = c < n - 1 ? c + 1 : c;
                    next[r * n + c] = stencil(&a, want[r * n + c], power[r * n + c], want[north * n + c],
                                              want[south * n + c], want[r * n + east], want[r * n + west]);
                }
            memcpy(want, next, cells * 4);
        }
    }
    int small = BLOCK_SIZE - PYRAMID * 2;
    unsigned blocks = (unsigned)(n / small + (n % small != 0));
    int src = 0, rc = 0;
    for (int t = 0; t < TOTAL_ITERATIONS && rc == 0; t += PYRAMID) {
        a.iteration = TOTAL_ITERATIONS - t < PYRAMID ? TOTAL_ITERATIONS - t : PYRAMID;
        a.src = buf[src];
        a.dst = buf[1 - src];
        emu_launch l = {.name = "_Z14calculate_tempiPfS_S_iiiiffffff", .grid = {blocks, blocks, 1},
                        .block = {BLOCK_SIZE, BLOCK_SIZE, 1}, .shared_bytes = sizeof(hs_shared),
                        .uses_barriers = 1, .kernel = calculate_temp, .args = &a, .timed = 1};
        rc = emu_launch_kernel(e, &l, err);
        src = 1 - src;
    }
    if (rc == 0 && verify)
        rc = workload_check_floats("hotspot temperature", buf[src], want, cells, 1e-5f, err);
    free(want);
    free(next);
    return rc;
}

const workload workload_hotspot = {
    .name = "hotspot",
    .suite = "rodinia",
    .kernels = "calculate_temp (per 2 steps)",
    .description = "thermal stencil; overlapping 16x16 tiles re-read halo rows",
    .sizes = {"64x64 grid", "512x512", "1024x1024"},
    .run = run,
};
