/* collectors/workloads/pathfinder.c: Rodinia pathfinder (pathfinder.cu,
 * dynproc_kernel): dynamic programming down a grid, pyramid_height rows per
 * launch, with the row kept in shared memory between barriers. */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define BLOCK_SIZE 256
#define HALO 1
#define PYRAMID_HEIGHT 20
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

typedef struct pf_args {
    int *wall, *src, *results;
    int cols, rows, start_step, border, iteration;
} pf_args;

typedef struct pf_shared {
    int prev[BLOCK_SIZE];
    int result[BLOCK_SIZE];
} pf_shared;

static void dynproc_kernel(emu_thread *t)
{
    const pf_args *a = t->args;
    pf_shared *sh = t->shared;
    int bx = (int)t->blockIdx.x, tx = (int)t->threadIdx.x;
    int small_block_cols = BLOCK_SIZE - a->iteration * HALO * 2;
    int blk_x = small_block_cols * bx - a->border;
    int blk_x_max = blk_x + BLOCK_SIZE - 1;
    int xidx = blk_x + tx;
    int valid_x_min = (blk_x < 0) ? -blk_x : 0;
    int valid_x_max = (blk_x_max > a->cols - 1) ? BLOCK_SIZE - 1 - (blk_x_max - a->cols + 1) : BLOCK_SIZE - 1;
    int W = tx - 1 < valid_x_min ? valid_x_min : tx - 1;
    int E = tx + 1 > valid_x_max ? valid_x_max : tx + 1;
    int is_valid = IN_RANGE(tx, valid_x_min, valid_x_max);
    if (IN_RANGE(xidx, 0, a->cols - 1))
        { emu_gap(t, 16); sh->prev[tx] = EMU_LD(t, int, &a->src[xidx]); emu_use(t, emu_loaded(t)); } /* timing: docs/cuda-workloads.md */
    EMU_SYNC(t);
    int computed = 0;
    for (int i = 0; i < a->iteration; i++) {
        computed = 0;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && is_valid) {
            computed = 1;
            int shortest = MIN(MIN(sh->prev[W], sh->prev[tx]), sh->prev[E]);
            int index = a->cols * (a->start_step + i) + xidx;
            emu_gap(t, i == 0 ? 44 : 35); sh->result[tx] = shortest + EMU_LD(t, int, &a->wall[index]); emu_use(t, emu_loaded(t));
        }
        EMU_SYNC(t);
        if (i == a->iteration - 1)
            break;
        if (computed)
            sh->prev[tx] = sh->result[tx];
        EMU_SYNC(t);
    }
    if (computed)
        { emu_gap(t, 27); EMU_ST(t, int, &a->results[xidx], sh->result[tx]); }
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {2048, 32768, 262144};
    int cols = sizes[size], rows = 100;
    int *wall = emu_malloc(e, (size_t)rows * cols * 4);
    int *buf[2] = {emu_malloc(e, (size_t)cols * 4), emu_malloc(e, (size_t)cols * 4)};
    if (!wall || !buf[0] || !buf[1])
        return ws_fail(err, "pathfinder: emulated device memory is full");
    uint64_t s = seed;
    for (int i = 0; i < rows * cols; i++)
        wall[i] = (int)(workload_rand(&s) % 10);
    memcpy(buf[0], wall, (size_t)cols * 4); /* row 0 starts the paths */
    int *want = NULL;
    if (verify) {
        want = malloc((size_t)cols * 4);
        int *next = malloc((size_t)cols * 4);
        memcpy(want, wall, (size_t)cols * 4);
        for (int r = 1; r < rows; r++) {
            for (int n = 0; n < cols; n++) {
                int m = want[n];
                if (n > 0 && want[n - 1] < m)
                    m = want[n - 1];
                if (n < cols - 1 && want[n + 1] < m)
                    m = want[n + 1];
                next[n] = wall[r * cols + n] + m;
            }
            memcpy(want, next, (size_t)cols * 4);
        }
        free(next);
    }
    int border = PYRAMID_HEIGHT * HALO;
    int small_block_col = BLOCK_SIZE - PYRAMID_HEIGHT * HALO * 2;
    unsigned block_cols = (unsigned)(cols / small_block_col + (cols % small_block_col != 0));
    pf_args a = {.wall = wall + cols, .cols = cols, .rows = rows, .border = border};
    int src = 0, rc = 0;
    for (int t = 0; t < rows - 1 && rc == 0; t += PYRAMID_HEIGHT) {
        a.iteration = MIN(PYRAMID_HEIGHT, rows - t - 1);
        a.start_step = t;
        a.src = buf[src];
        a.results = buf[1 - src];
        emu_launch l = {.name = "_Z14dynproc_kerneliPiS_S_iiii", .grid = {block_cols, 1, 1},
                        .block = {BLOCK_SIZE, 1, 1}, .shared_bytes = sizeof(pf_shared),
                        .uses_barriers = 1, .kernel = dynproc_kernel, .args = &a, .timed = 1};
        rc = emu_launch_kernel(e, &l, err);
        src = 1 - src;
    }
    if (rc == 0 && verify)
        for (int n = 0; n < cols && rc == 0; n++)
            if (buf[src][n] != want[n])
                rc = ws_fail(err, "pathfinder result[%d]: got %d, expected %d", n, buf[src][n], want[n]);
    free(want);
    return rc;
}

const workload workload_pathfinder = {
    .name = "pathfinder",
    .suite = "rodinia",
    .kernels = "dynproc_kernel (per 20 rows)",
    .description = "grid dynamic programming; coalesced row reads, halo-overlapped CTAs",
    .sizes = {"2 K columns", "32 K columns", "256 K columns"},
    .run = run,
};
