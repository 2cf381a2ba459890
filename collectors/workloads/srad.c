/* collectors/workloads/srad.c: Rodinia srad_v2 (srad_kernel.cu):
 * srad_cuda_1 computes the diffusion coefficient of each pixel from its
 * neighbours, srad_cuda_2 updates the image; 16×16 blocks stage rows and
 * columns in shared memory between barriers.  As in the original, block row
 * 0 first reads the row above the image (and the last block row the one
 * below), so the image has a guard row on each side. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define BLOCK_SIZE 16
#define ITERATIONS 2
#define LAMBDA 0.5f

typedef struct srad_args {
    float *e_c, *w_c, *n_c, *s_c, *j, *c;
    int cols, rows;
    float q0sqr;
} srad_args;

typedef struct srad_shared {
    float temp[BLOCK_SIZE][BLOCK_SIZE], north[BLOCK_SIZE][BLOCK_SIZE], south[BLOCK_SIZE][BLOCK_SIZE],
        east[BLOCK_SIZE][BLOCK_SIZE], west[BLOCK_SIZE][BLOCK_SIZE], result[BLOCK_SIZE][BLOCK_SIZE];
} srad_shared;

/* The coefficient of srad_cuda_1, shared with the CPU reference. */
static float coefficient(float jc, float n, float s, float w, float e, float q0sqr)
{
    float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    float l = (n + s + w + e) / jc;
    float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1 + (.25f * l);
    float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float c = 1.0f / (1.0f + den);
    return c < 0 ? 0 : c > 1 ? 1 : c;
}

static void srad_1(emu_thread *t)
{
    const srad_args *a = t->args;
    srad_shared *sh = t->shared;
    int bx = (int)t->blockIdx.x, by = (int)t->blockIdx.y, tx = (int)t->threadIdx.x,
        ty = (int)t->threadIdx.y, cols = a->cols, gy = (int)t->gridDim.y, gx = (int)t->gridDim.x;
    int base = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    int index = base + cols * ty + tx;
    emu_gap(t, 14); sh->north[ty][tx] = EMU_LD(t, float, &a->j[base + tx - cols]); emu_value loaded_north = emu_loaded(t); /* timing: docs/cuda-workloads.md */
    sh->south[ty][tx] = EMU_LD(t, float, &a->j[base + cols * BLOCK_SIZE + tx]); emu_use(t, loaded_north); workload_used(t, by == 0 ? 18 : by == gy - 1 ? 23 : 24);
    if (by == 0)
        { sh->north[ty][tx] = EMU_LD(t, float, &a->j[BLOCK_SIZE * bx + tx]); workload_used(t, 5); }
    else if (by == gy - 1)
        { sh->south[ty][tx] = EMU_LD(t, float, &a->j[cols * BLOCK_SIZE * (gy - 1) + BLOCK_SIZE * bx +
                                                    cols * (BLOCK_SIZE - 1) + tx]); workload_used(t, 6); }
    EMU_SYNC(t);
    sh->west[ty][tx] = EMU_LD(t, float, &a->j[base + cols * ty - 1]); emu_value loaded_west = emu_loaded(t);
    sh->east[ty][tx] = EMU_LD(t, float, &a->j[base + cols * ty + BLOCK_SIZE]); emu_use(t, loaded_west); workload_used(t, bx == 0 ? 14 : bx == gx - 1 ? 19 : 18);
    if (bx == 0)
        { sh->west[ty][tx] = EMU_LD(t, float, &a->j[cols * BLOCK_SIZE * by + cols * ty]); workload_used(t, 4); }
    else if (bx == gx - 1)
        { sh->east[ty][tx] = EMU_LD(t, float, &a->j[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gx - 1) +
                                                   cols * ty + BLOCK_SIZE - 1]); workload_used(t, 5); }
    EMU_SYNC(t);
    sh->temp[ty][tx] = EMU_LD(t, float, &a->j[index]); workload_used(t, 113);
    EMU_SYNC(t);
    float jc = sh->temp[ty][tx];
    /* Rodinia's nine cases: a neighbour inside the tile, else the staged edge. */
    float n = (ty == 0 ? sh->north[ty][tx] : sh->temp[ty - 1][tx]) - jc;
    float s = (ty == BLOCK_SIZE - 1 ? sh->south[ty][tx] : sh->temp[ty + 1][tx]) - jc;
    float w = (tx == 0 ? sh->west[ty][tx] : sh->temp[ty][tx - 1]) - jc;
    float e = (tx == BLOCK_SIZE - 1 ? sh->east[ty][tx] : sh->temp[ty][tx + 1]) - jc;
    sh->result[ty][tx] = coefficient(jc, n, s, w, e, a->q0sqr);
    EMU_SYNC(t);
    EMU_ST(t, float, &a->c[index], sh->result[ty][tx]);
    EMU_ST(t, float, &a->e_c[index], e);
    EMU_ST(t, float, &a->w_c[index], w);
    EMU_ST(t, float, &a->s_c[index], s);
    EMU_ST(t, float, &a->n_c[index], n);
}

static void srad_2(emu_thread *t)
{
    const srad_args *a = t->args;
    srad_shared *sh = t->shared;
    int bx = (int)t->blockIdx.x, by = (int)t->blockIdx.y, tx = (int)t->threadIdx.x,
        ty = (int)t->threadIdx.y, cols = a->cols, gy = (int)t->gridDim.y, gx = (int)t->gridDim.x;
    int base = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    int index = base + cols * ty + tx;
    emu_gap(t, 20); sh->temp[ty][tx] = EMU_LD(t, float, &a->j[index]); workload_used(t, 14); /* timing: docs/cuda-workloads.md */
    EMU_SYNC(t);
    sh->south[ty][tx] = EMU_LD(t, float, &a->c[base + cols * BLOCK_SIZE + tx]); emu_value loaded_south = emu_loaded(t); if (by != gy - 1) { emu_use(t, loaded_south); emu_gap(t, 14); }
    if (by == gy - 1)
        { sh->south[ty][tx] = EMU_LD(t, float, &a->c[cols * BLOCK_SIZE * (gy - 1) + BLOCK_SIZE * bx +
                                                    cols * (BLOCK_SIZE - 1) + tx]); emu_use(t, loaded_south); workload_used(t, 13); }
    EMU_SYNC(t);
    sh->east[ty][tx] = EMU_LD(t, float, &a->c[base + cols * ty + BLOCK_SIZE]); emu_value loaded_east = emu_loaded(t); if (bx != gx - 1) { emu_use(t, loaded_east); emu_gap(t, 15); }
    if (bx == gx - 1)
        { sh->east[ty][tx] = EMU_LD(t, float, &a->c[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gx - 1) +
                                                   cols * ty + BLOCK_SIZE - 1]); emu_use(t, loaded_east); workload_used(t, 14); }
    EMU_SYNC(t);
    sh->north[ty][tx] = EMU_LD(t, float, &a->c[index]); /* c_cuda_temp */ workload_used(t, 16);
    EMU_SYNC(t);
    float cc = sh->north[ty][tx];
    float cs = ty == BLOCK_SIZE - 1 ? sh->south[ty][tx] : sh->north[ty + 1][tx];
    float ce = tx == BLOCK_SIZE - 1 ? sh->east[ty][tx] : sh->north[ty][tx + 1];
    float nc = EMU_LD(t, float, &a->n_c[index]); emu_value loaded_nc = emu_loaded(t); float sc = EMU_LD(t, float, &a->s_c[index]); emu_value loaded_sc = emu_loaded(t);
    float wc = EMU_LD(t, float, &a->w_c[index]); emu_value loaded_wc = emu_loaded(t); emu_gap(t, 2); float ec = EMU_LD(t, float, &a->e_c[index]); emu_use(t, loaded_nc); emu_use(t, loaded_sc); workload_use_loaded(t, loaded_wc, 19);
    float d_sum = cc * nc + cs * sc + cc * wc + ce * ec;
    sh->result[ty][tx] = sh->temp[ty][tx] + 0.25f * LAMBDA * d_sum;
    EMU_SYNC(t);
    EMU_ST(t, float, &a->j[index], sh->result[ty][tx]);
}

/* Rodinia's q0sqr from a region of interest (the top-left 16×16 pixels). */
static float roi_q0sqr(const float *j, int cols)
{
    float sum = 0, sum2 = 0;
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 16; c++) {
            sum += j[r * cols + c];
            sum2 += j[r * cols + c] * j[r * cols + c];
        }
    float mean = sum / 256, var = sum2 / 256 - mean * mean;
    return var / (mean * mean);
}

static void reference(float *j, int rows, int cols)
{
    size_t cells = (size_t)rows * cols;
    float *c = malloc(cells * 4), *dn = malloc(cells * 4), *ds = malloc(cells * 4),
          *dw = malloc(cells * 4), *de = malloc(cells * 4);
    for (int it = 0; it < ITERATIONS; it++) {
        float q0sqr = roi_q0sqr(j, cols);
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < cols; k++) {
                size_t i = (size_t)r * cols + k;
                float jc = j[i];
                dn[i] = j[(r > 0 ? r - 1 : r) * cols + k] - jc;
                ds[i] = j[(r < rows - 1 ? r + 1 : r) * cols + k] - jc;
                dw[i] = j[r * cols + (k > 0 ? k - 1 : k)] - jc;
                de[i] = j[r * cols + (k < cols - 1 ? k + 1 : k)] - jc;
                c[i] = coefficient(jc, dn[i], ds[i], dw[i], de[i], q0sqr);
            }
        for (int r = 0; r < rows; r++)
            for (int k = 0; k < cols; k++) {
                size_t i = (size_t)r * cols + k;
                float cs = c[(r < rows - 1 ? r + 1 : r) * cols + k];
                float ce = c[r * cols + (k < cols - 1 ? k + 1 : k)];
                float d_sum = c[i] * dn[i] + cs * ds[i] + c[i] * dw[i] + ce * de[i];
                j[i] = j[i] + 0.25f * LAMBDA * d_sum;
            }
    }
    free(c);
    free(dn);
    free(ds);
    free(dw);
    free(de);
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {64, 512, 2048};
    int n = sizes[size];
    size_t cells = (size_t)n * n;
    srad_args a = {.cols = n, .rows = n};
    float *j_padded = emu_malloc(e, (cells + 2 * (size_t)n) * 4);
    a.c = emu_malloc(e, (cells + (size_t)n) * 4); /* srad_cuda_2 reads one row past the end */
    a.e_c = emu_malloc(e, cells * 4);
    a.w_c = emu_malloc(e, cells * 4);
    a.n_c = emu_malloc(e, cells * 4);
    a.s_c = emu_malloc(e, cells * 4);
    if (!j_padded || !a.c || !a.e_c || !a.w_c || !a.n_c || !a.s_c)
        return ws_fail(err, "srad: emulated device memory is full");
    a.j = j_padded + n;
    uint64_t s = seed;
    for (size_t i = 0; i < cells; i++)
        a.j[i] = expf(workload_rand_float(&s)); /* Rodinia: J = exp(image) */
    float *want = NULL;
    if (verify) {
        want = malloc(cells * 4);
        memcpy(want, a.j, cells * 4);
        reference(want, n, n);
    }
    unsigned blocks = (unsigned)(n / BLOCK_SIZE);
    int rc = 0;
    for (int it = 0; it < ITERATIONS && rc == 0; it++) {
        a.q0sqr = roi_q0sqr(a.j, n); /* computed on the host, not traced */
        emu_launch k1 = {.name = "_Z11srad_cuda_1PfS_S_S_S_S_iif", .grid = {blocks, blocks, 1},
                         .block = {BLOCK_SIZE, BLOCK_SIZE, 1}, .shared_bytes = sizeof(srad_shared),
                         .uses_barriers = 1, .kernel = srad_1, .args = &a, .timed = 1};
        emu_launch k2 = k1;
        k2.name = "_Z11srad_cuda_2PfS_S_S_S_S_iiff";
        k2.kernel = srad_2;
        rc = emu_launch_kernel(e, &k1, err);
        if (rc == 0)
            rc = emu_launch_kernel(e, &k2, err);
    }
    if (rc == 0 && verify)
        rc = workload_check_floats("srad image", a.j, want, cells, 1e-5f, err);
    free(want);
    return rc;
}

const workload workload_srad = {
    .name = "srad",
    .suite = "rodinia",
    .kernels = "srad_cuda_1, srad_cuda_2 (per iteration)",
    .description = "speckle-reducing diffusion; 16x16 tiles with row and column halos",
    .sizes = {"64x64 image", "512x512", "2048x2048"},
    .run = run,
};
