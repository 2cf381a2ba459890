/* collectors/workloads/nw.c: Rodinia Needleman-Wunsch (needle_kernel.cu):
 * the score matrix is filled one anti-diagonal of 16×16 tiles per launch,
 * needle_cuda_shared_1 for the upper-left half and needle_cuda_shared_2 for
 * the lower-right; each tile is solved in shared memory, a wavefront of 16
 * threads between barriers. */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define BLOCK_SIZE 16
#define PENALTY 10

typedef struct nw_args {
    int *reference, *matrix;
    int cols, i, block_width;
} nw_args;

typedef struct nw_shared {
    int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    int ref[BLOCK_SIZE][BLOCK_SIZE];
} nw_shared;

static int maximum(int a, int b, int c)
{
    int k = a <= b ? b : a;
    return k <= c ? c : k;
}

/* One tile at block coordinates (bx, by), as both Rodinia kernels do it. */
static void solve_tile(emu_thread *t, const nw_args *a, int b_index_x, int b_index_y)
{
    nw_shared *sh = t->shared;
    int tx = (int)t->threadIdx.x, cols = a->cols; emu_value loaded[BLOCK_SIZE + 1]; unsigned loads = 0, used = 0; /* timing: docs/cuda-workloads.md */
    int index = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + (cols + 1);
    int index_n = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + tx + 1;
    int index_w = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x + cols;
    int index_nw = cols * BLOCK_SIZE * b_index_y + BLOCK_SIZE * b_index_x;
    if (tx == 0)
        { sh->temp[tx][0] = EMU_LD(t, int, &a->matrix[index_nw]); loaded[loads++] = emu_loaded(t); }
    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        { emu_gap(t, (const uint8_t[BLOCK_SIZE]){1, 1, 1, 1, 1, 0, 2, 1, 0, 1, 1, 1, 1, 1, 1, 0}[ty]); sh->ref[ty][tx] = EMU_LD(t, int, &a->reference[index + cols * ty]); loaded[loads++] = emu_loaded(t); }
    EMU_SYNC(t);
    workload_use_upto(t, loaded, &used, loads); emu_gap(t, 22); sh->temp[tx + 1][0] = EMU_LD(t, int, &a->matrix[index_w + cols * tx]); workload_used(t, 5);
    EMU_SYNC(t);
    sh->temp[0][tx + 1] = EMU_LD(t, int, &a->matrix[index_n]); workload_used(t, 476);
    EMU_SYNC(t);
    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            int x = tx + 1, y = m - tx + 1;
            sh->temp[y][x] = maximum(sh->temp[y - 1][x - 1] + sh->ref[y - 1][x - 1],
                                     sh->temp[y][x - 1] - PENALTY, sh->temp[y - 1][x] - PENALTY);
        }
        EMU_SYNC(t);
    }
    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            int x = tx + BLOCK_SIZE - m, y = BLOCK_SIZE - tx;
            sh->temp[y][x] = maximum(sh->temp[y - 1][x - 1] + sh->ref[y - 1][x - 1],
                                     sh->temp[y][x - 1] - PENALTY, sh->temp[y - 1][x] - PENALTY);
        }
        EMU_SYNC(t);
    }
    for (int ty = 0; ty < BLOCK_SIZE; ty++)
        { emu_gap(t, (const uint8_t[BLOCK_SIZE]){0, 0, 5, 9, 0, 0, 0, 2, 2, 2, 2, 2, 2, 1, 1, 0}[ty]); EMU_ST(t, int, &a->matrix[index + ty * cols], sh->temp[ty + 1][tx + 1]); }
}

static void needle_1(emu_thread *t)
{
    const nw_args *a = t->args;
    int bx = (int)t->blockIdx.x;
    emu_gap(t, t->threadIdx.x == 0 ? 25 : 0); /* timing: the corner's load */ solve_tile(t, a, bx, a->i - 1 - bx);
}

static void needle_2(emu_thread *t)
{
    const nw_args *a = t->args;
    int bx = (int)t->blockIdx.x;
    emu_gap(t, t->threadIdx.x == 0 ? 26 : 0); /* timing: the corner's load */ solve_tile(t, a, bx + a->block_width - a->i, a->block_width - bx - 1);
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {128, 1024, 4096};
    int n = sizes[size], cols = n + 1;
    size_t cells = (size_t)cols * cols;
    nw_args a = {.cols = cols, .block_width = n / BLOCK_SIZE};
    a.reference = emu_malloc(e, cells * 4);
    a.matrix = emu_malloc(e, cells * 4);
    if (!a.reference || !a.matrix)
        return ws_fail(err, "nw: emulated device memory is full");
    uint64_t s = seed;
    for (size_t i = 0; i < cells; i++)
        a.reference[i] = (int)(workload_rand(&s) % 21) - 10; /* BLOSUM-like scores */
    for (int i = 0; i < cols; i++) {
        a.matrix[i * cols] = -i * PENALTY;
        a.matrix[i] = -i * PENALTY;
    }
    int *want = NULL;
    if (verify) {
        want = malloc(cells * 4);
        memcpy(want, a.matrix, cells * 4);
        for (int r = 1; r < cols; r++)
            for (int c = 1; c < cols; c++)
                want[r * cols + c] = maximum(want[(r - 1) * cols + c - 1] + a.reference[r * cols + c],
                                             want[r * cols + c - 1] - PENALTY,
                                             want[(r - 1) * cols + c] - PENALTY);
    }
    int rc = 0;
    for (int i = 1; i <= a.block_width && rc == 0; i++) {
        a.i = i;
        emu_launch l = {.name = "_Z20needle_cuda_shared_1PiS_iiii", .grid = {(unsigned)i, 1, 1},
                        .block = {BLOCK_SIZE, 1, 1}, .shared_bytes = sizeof(nw_shared),
                        .uses_barriers = 1, .kernel = needle_1, .args = &a, .timed = 1};
        rc = emu_launch_kernel(e, &l, err);
    }
    for (int i = a.block_width - 1; i >= 1 && rc == 0; i--) {
        a.i = i;
        emu_launch l = {.name = "_Z20needle_cuda_shared_2PiS_iiii", .grid = {(unsigned)i, 1, 1},
                        .block = {BLOCK_SIZE, 1, 1}, .shared_bytes = sizeof(nw_shared),
                        .uses_barriers = 1, .kernel = needle_2, .args = &a, .timed = 1};
        rc = emu_launch_kernel(e, &l, err);
    }
    for (size_t i = 0; verify && rc == 0 && i < cells; i++)
        if (a.matrix[i] != want[i])
            rc = ws_fail(err, "nw score[%zu]: got %d, expected %d", i, a.matrix[i], want[i]);
    free(want);
    return rc;
}

const workload workload_nw = {
    .name = "nw",
    .suite = "rodinia",
    .kernels = "needle_cuda_shared_1, needle_cuda_shared_2 (per diagonal)",
    .description = "sequence alignment; column-strided tile loads, 16-thread CTAs",
    .sizes = {"128x128", "1024x1024", "4096x4096"},
    .run = run,
};
