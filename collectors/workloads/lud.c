/* collectors/workloads/lud.c: Rodinia LU decomposition (lud_kernel.cu):
 * per 16-column step, lud_diagonal factors the diagonal tile, lud_perimeter
 * the row and column tiles beside it (two half-warps, one each), and
 * lud_internal updates the trailing matrix; a final lud_diagonal finishes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define BLOCK_SIZE 16

typedef struct lud_args {
    float *m;
    int dim, offset;
} lud_args;

typedef struct lud_shared {
    float a[BLOCK_SIZE][BLOCK_SIZE], b[BLOCK_SIZE][BLOCK_SIZE], c[BLOCK_SIZE][BLOCK_SIZE];
} lud_shared;

static void lud_diagonal(emu_thread *t)
{
    const lud_args *l = t->args;
    float (*shadow)[BLOCK_SIZE] = ((lud_shared *)t->shared)->a;
    int tx = (int)t->threadIdx.x, dim = l->dim; emu_value loaded[BLOCK_SIZE]; unsigned used = 0; /* timing: docs/cuda-workloads.md */
    int array_offset = l->offset * dim + l->offset;
    for (int i = 0; i < BLOCK_SIZE; i++) {
        emu_gap(t, (const uint8_t[BLOCK_SIZE]){8, 1, 2, 1, 1, 1, 1, 2, 0, 1, 1, 1, 1, 1, 1, 0}[i]); shadow[i][tx] = EMU_LD(t, float, &l->m[array_offset + tx]); loaded[i] = emu_loaded(t);
        array_offset += dim;
    }
    EMU_SYNC(t);
    for (int i = 0; i < BLOCK_SIZE - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++)
                shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
            shadow[tx][i] /= shadow[i][i];
        }
        EMU_SYNC(t);
        if (tx > i)
            for (int j = 0; j < i + 1; j++)
                shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
        EMU_SYNC(t);
    }
    array_offset = (l->offset + 1) * dim + l->offset;
    for (int i = 1; i < BLOCK_SIZE; i++) {
        workload_use_upto(t, loaded, &used, BLOCK_SIZE); emu_gap(t, (const uint16_t[BLOCK_SIZE]){0, 2257, 3, 2, 6, 0, 1, 1, 0, 1, 1, 0, 1, 1, 1, 1}[i]); EMU_ST(t, float, &l->m[array_offset + tx], shadow[i][tx]);
        array_offset += dim;
    }
}

static void lud_perimeter(emu_thread *t)
{
    const lud_args *l = t->args;
    lud_shared *sh = t->shared;
    float (*dia)[BLOCK_SIZE] = sh->a, (*peri_row)[BLOCK_SIZE] = sh->b, (*peri_col)[BLOCK_SIZE] = sh->c;
    int tx = (int)t->threadIdx.x, bx = (int)t->blockIdx.x, dim = l->dim, offset = l->offset; emu_value loaded[BLOCK_SIZE / 2 + BLOCK_SIZE]; unsigned loads = 0, used = 0; /* timing: docs/cuda-workloads.md */
    int idx, array_offset;
    if (tx < BLOCK_SIZE) {
        idx = tx;
        array_offset = offset * dim + offset;
        for (int i = 0; i < BLOCK_SIZE / 2; i++) {
            emu_gap(t, (const uint8_t[BLOCK_SIZE / 2]){15, 1, 1, 3, 7, 2, 0, 1}[i]); dia[i][idx] = EMU_LD(t, float, &l->m[array_offset + idx]); loaded[loads++] = emu_loaded(t);
            array_offset += dim;
        }
        array_offset = offset * dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            emu_gap(t, (const uint8_t[BLOCK_SIZE]){1, 1, 1, 0, 1, 1, 1, 1, 2, 3, 0, 2, 3, 2, 2, 0}[i]); peri_row[i][idx] = EMU_LD(t, float, &l->m[array_offset + (bx + 1) * BLOCK_SIZE + idx]); loaded[loads++] = emu_loaded(t);
            array_offset += dim;
        }
    } else {
        idx = tx - BLOCK_SIZE;
        array_offset = (offset + BLOCK_SIZE / 2) * dim + offset;
        for (int i = BLOCK_SIZE / 2; i < BLOCK_SIZE; i++) {
            emu_gap(t, (const uint8_t[BLOCK_SIZE / 2]){13, 1, 1, 3, 7, 3, 0, 1}[i - BLOCK_SIZE / 2]); dia[i][idx] = EMU_LD(t, float, &l->m[array_offset + idx]); loaded[loads++] = emu_loaded(t);
            array_offset += dim;
        }
        array_offset = (offset + (bx + 1) * BLOCK_SIZE) * dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            emu_gap(t, (const uint8_t[BLOCK_SIZE]){1, 1, 1, 0, 1, 1, 1, 1, 2, 3, 0, 2, 3, 2, 2, 0}[i]); peri_col[i][idx] = EMU_LD(t, float, &l->m[array_offset + idx]); loaded[loads++] = emu_loaded(t);
            array_offset += dim;
        }
    }
    EMU_SYNC(t);
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
    EMU_SYNC(t);
    if (tx < BLOCK_SIZE) {
        idx = tx;
        array_offset = (offset + 1) * dim + offset;
        for (int i = 1; i < BLOCK_SIZE; i++) {
            workload_use_upto(t, loaded, &used, loads); emu_gap(t, (const uint16_t[BLOCK_SIZE]){0, 1211, 0, 1, 7, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1}[i]); EMU_ST(t, float, &l->m[array_offset + (bx + 1) * BLOCK_SIZE + idx], peri_row[i][idx]);
            array_offset += dim;
        }
    } else {
        idx = tx - BLOCK_SIZE;
        array_offset = (offset + (bx + 1) * BLOCK_SIZE) * dim + offset;
        for (int i = 0; i < BLOCK_SIZE; i++) {
            workload_use_upto(t, loaded, &used, loads); emu_gap(t, (const uint16_t[BLOCK_SIZE]){1475, 1, 0, 5, 4, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 1}[i]); EMU_ST(t, float, &l->m[array_offset + idx], peri_col[i][idx]);
            array_offset += dim;
        }
    }
}

static void lud_internal(emu_thread *t)
{
    const lud_args *l = t->args;
    lud_shared *sh = t->shared;
    int tx = (int)t->threadIdx.x, ty = (int)t->threadIdx.y, dim = l->dim, offset = l->offset;
    int global_row_id = offset + ((int)t->blockIdx.y + 1) * BLOCK_SIZE;
    int global_col_id = offset + ((int)t->blockIdx.x + 1) * BLOCK_SIZE;
    emu_gap(t, 18); sh->b[ty][tx] = EMU_LD(t, float, &l->m[(offset + ty) * dim + global_col_id + tx]); emu_value loaded_b = emu_loaded(t);
    sh->c[ty][tx] = EMU_LD(t, float, &l->m[(global_row_id + ty) * dim + offset + tx]); emu_use(t, loaded_b); workload_used(t, 15);
    EMU_SYNC(t);
    float sum = 0;
    for (int i = 0; i < BLOCK_SIZE; i++)
        sum += sh->c[ty][i] * sh->b[i][tx];
    float *cell = &l->m[(global_row_id + ty) * dim + global_col_id + tx];
    float v = EMU_LD(t, float, cell); workload_used(t, 37);
    EMU_ST(t, float, cell, v - sum);
}

static int launch(emu *e, lud_args *a, const char *name, emu_kernel_fn fn, emu_dim3 grid,
                  emu_dim3 block, ws_error *err)
{
    emu_launch l = {.name = name, .grid = grid, .block = block, .shared_bytes = sizeof(lud_shared),
                    .uses_barriers = 1, .kernel = fn, .args = a, .timed = 1};
    return emu_launch_kernel(e, &l, err);
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 256, 1024};
    int n = sizes[size];
    size_t cells = (size_t)n * n;
    lud_args a = {.m = emu_malloc(e, cells * 4), .dim = n};
    if (!a.m)
        return ws_fail(err, "lud: emulated device memory is full");
    uint64_t s = seed;
    for (int r = 0; r < n; r++) /* diagonally dominant: stable without pivoting */
        for (int c = 0; c < n; c++)
            a.m[r * n + c] = workload_rand_float(&s) + (r == c ? (float)n : 0.0f);
    float *want = NULL;
    if (verify) {
        want = malloc(cells * 4);
        memcpy(want, a.m, cells * 4);
        for (int k = 0; k < n; k++)
            for (int r = k + 1; r < n; r++) {
                want[r * n + k] /= want[k * n + k];
                for (int c = k + 1; c < n; c++)
                    want[r * n + c] -= want[r * n + k] * want[k * n + c];
            }
    }
    int rc = 0, i = 0;
    for (; i < n - BLOCK_SIZE && rc == 0; i += BLOCK_SIZE) {
        a.offset = i;
        unsigned tiles = (unsigned)((n - i) / BLOCK_SIZE - 1);
        rc = launch(e, &a, "_Z12lud_diagonalPfii", lud_diagonal, (emu_dim3){1, 1, 1},
                    (emu_dim3){BLOCK_SIZE, 1, 1}, err);
        if (rc == 0)
            rc = launch(e, &a, "_Z13lud_perimeterPfii", lud_perimeter, (emu_dim3){tiles, 1, 1},
                        (emu_dim3){2 * BLOCK_SIZE, 1, 1}, err);
        if (rc == 0)
            rc = launch(e, &a, "_Z12lud_internalPfii", lud_internal, (emu_dim3){tiles, tiles, 1},
                        (emu_dim3){BLOCK_SIZE, BLOCK_SIZE, 1}, err);
    }
    a.offset = i;
    if (rc == 0)
        rc = launch(e, &a, "_Z12lud_diagonalPfii", lud_diagonal, (emu_dim3){1, 1, 1},
                    (emu_dim3){BLOCK_SIZE, 1, 1}, err);
    /* The blocked order of operations differs from the reference's: compare
     * relative to the matrix's scale. */
    for (size_t k = 0; verify && rc == 0 && k < cells; k++)
        if (fabsf(a.m[k] - want[k]) > 1e-3f * (fabsf(want[k]) + 1))
            rc = ws_fail(err, "lud m[%zu]: got %g, expected %g", k, (double)a.m[k], (double)want[k]);
    free(want);
    return rc;
}

const workload workload_lud = {
    .name = "lud",
    .suite = "rodinia",
    .kernels = "lud_diagonal, lud_perimeter, lud_internal (per 16-column step)",
    .description = "blocked LU decomposition; row and column tiles around a moving diagonal",
    .sizes = {"64x64", "256x256", "1024x1024"},
    .run = run,
};
