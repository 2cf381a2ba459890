/* collectors/workloads/cuda/srad.cu: Rodinia srad_v2 (srad_cuda_1,
 * srad_cuda_2) as a CUDA program, the twin of the emulator port
 * collectors/workloads/srad.c (docs/cuda-workloads.md): the diffusion
 * coefficient of each pixel from its neighbours, then the image update;
 * 16×16 blocks stage rows and columns in shared memory between barriers.
 * As in the original, block row 0 first reads the row above the image (and
 * the last block row the one below), so the image has a guard row on each
 * side.
 *
 * Where a tile edge is read and then, on the image's border, read again
 * from elsewhere into the same shared cell, the compiler may drop or sink
 * the first load for the border blocks; the port records both. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define BLOCK_SIZE 16
#define ITERATIONS 2
#define LAMBDA 0.5f

/* The coefficient of srad_cuda_1 (the port's float constants), shared with
 * the CPU reference. */
__host__ __device__ static float coefficient(float jc, float n, float s, float w, float e, float q0sqr)
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

__global__ void srad_cuda_1(float *E_C, float *W_C, float *N_C, float *S_C, float *J_cuda,
                            float *C_cuda, int cols, int rows, float q0sqr)
{
    __shared__ float temp[BLOCK_SIZE][BLOCK_SIZE], temp_result[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float north[BLOCK_SIZE][BLOCK_SIZE], south[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float east[BLOCK_SIZE][BLOCK_SIZE], west[BLOCK_SIZE][BLOCK_SIZE];
    int bx = (int)blockIdx.x, by = (int)blockIdx.y, tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int gy = (int)gridDim.y, gx = (int)gridDim.x;
    int base = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    int index = base + cols * ty + tx;
    north[ty][tx] = J_cuda[base + tx - cols];
    south[ty][tx] = J_cuda[base + cols * BLOCK_SIZE + tx];
    if (by == 0)
        north[ty][tx] = J_cuda[BLOCK_SIZE * bx + tx];
    else if (by == gy - 1)
        south[ty][tx] = J_cuda[cols * BLOCK_SIZE * (gy - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
    __syncthreads();
    west[ty][tx] = J_cuda[base + cols * ty - 1];
    east[ty][tx] = J_cuda[base + cols * ty + BLOCK_SIZE];
    if (bx == 0)
        west[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + cols * ty];
    else if (bx == gx - 1)
        east[ty][tx] = J_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gx - 1) + cols * ty + BLOCK_SIZE - 1];
    __syncthreads();
    temp[ty][tx] = J_cuda[index];
    __syncthreads();
    float jc = temp[ty][tx];
    /* Rodinia's nine cases: a neighbour inside the tile, else the staged edge. */
    float n = (ty == 0 ? north[ty][tx] : temp[ty - 1][tx]) - jc;
    float s = (ty == BLOCK_SIZE - 1 ? south[ty][tx] : temp[ty + 1][tx]) - jc;
    float w = (tx == 0 ? west[ty][tx] : temp[ty][tx - 1]) - jc;
    float e = (tx == BLOCK_SIZE - 1 ? east[ty][tx] : temp[ty][tx + 1]) - jc;
    temp_result[ty][tx] = coefficient(jc, n, s, w, e, q0sqr);
    __syncthreads();
    C_cuda[index] = temp_result[ty][tx];
    E_C[index] = e;
    W_C[index] = w;
    S_C[index] = s;
    N_C[index] = n;
}

__global__ void srad_cuda_2(float *E_C, float *W_C, float *N_C, float *S_C, float *J_cuda,
                            float *C_cuda, int cols, int rows, float lambda, float q0sqr)
{
    __shared__ float south_c[BLOCK_SIZE][BLOCK_SIZE], east_c[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float c_cuda_temp[BLOCK_SIZE][BLOCK_SIZE], c_cuda_result[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp[BLOCK_SIZE][BLOCK_SIZE];
    int bx = (int)blockIdx.x, by = (int)blockIdx.y, tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int gy = (int)gridDim.y, gx = (int)gridDim.x;
    int base = cols * BLOCK_SIZE * by + BLOCK_SIZE * bx;
    int index = base + cols * ty + tx;
    temp[ty][tx] = J_cuda[index];
    __syncthreads();
    south_c[ty][tx] = C_cuda[base + cols * BLOCK_SIZE + tx];
    if (by == gy - 1)
        south_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * (gy - 1) + BLOCK_SIZE * bx + cols * (BLOCK_SIZE - 1) + tx];
    __syncthreads();
    east_c[ty][tx] = C_cuda[base + cols * ty + BLOCK_SIZE];
    if (bx == gx - 1)
        east_c[ty][tx] = C_cuda[cols * BLOCK_SIZE * by + BLOCK_SIZE * (gx - 1) + cols * ty + BLOCK_SIZE - 1];
    __syncthreads();
    c_cuda_temp[ty][tx] = C_cuda[index];
    __syncthreads();
    float cc = c_cuda_temp[ty][tx];
    float cs = ty == BLOCK_SIZE - 1 ? south_c[ty][tx] : c_cuda_temp[ty + 1][tx];
    float ce = tx == BLOCK_SIZE - 1 ? east_c[ty][tx] : c_cuda_temp[ty][tx + 1];
    float nc = N_C[index], sc = S_C[index];
    float wc = W_C[index], ec = E_C[index];
    float d_sum = cc * nc + cs * sc + cc * wc + ce * ec;
    c_cuda_result[ty][tx] = temp[ty][tx] + 0.25f * lambda * d_sum;
    __syncthreads();
    J_cuda[index] = c_cuda_result[ty][tx];
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
    float *c = ws_host<float>(cells), *dn = ws_host<float>(cells), *ds = ws_host<float>(cells),
          *dw = ws_host<float>(cells), *de = ws_host<float>(cells);
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

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "srad");
    static const int sizes[] = {64, 512, 2048};
    int n = sizes[o.size];
    size_t cells = (size_t)n * n;
    float *j_padded = ws_device_zeroed<float>(cells + 2 * (size_t)n);
    float *c = ws_device_zeroed<float>(cells + (size_t)n); /* srad_cuda_2 reads one row past the end */
    float *e_c = ws_device<float>(cells), *w_c = ws_device<float>(cells);
    float *n_c = ws_device<float>(cells), *s_c = ws_device<float>(cells);
    float *j = j_padded + n;
    float *host_j = ws_host<float>(cells);
    uint64_t s = o.seed;
    for (size_t i = 0; i < cells; i++)
        host_j[i] = expf(ws_rand_float(&s)); /* Rodinia: J = exp(image) */
    ws_to_device(j, host_j, cells);

    unsigned blocks = (unsigned)(n / BLOCK_SIZE);
    dim3 grid(blocks, blocks), threads(BLOCK_SIZE, BLOCK_SIZE);
    float *image = ws_host<float>(cells);
    memcpy(image, host_j, cells * sizeof(float));
    for (int it = 0; it < ITERATIONS; it++) {
        float q0sqr = roi_q0sqr(image, n); /* on the host, from the current image */
        srad_cuda_1<<<grid, threads>>>(e_c, w_c, n_c, s_c, j, c, n, n, q0sqr);
        WS_LAUNCHED();
        srad_cuda_2<<<grid, threads>>>(e_c, w_c, n_c, s_c, j, c, n, n, LAMBDA, q0sqr);
        WS_LAUNCHED();
        ws_to_host(image, j, cells);
    }
    if (o.verify) {
        reference(host_j, n, n);
        ws_check_floats(o.program, "srad image", image, host_j, cells, 1e-5f);
    }
    free(host_j);
    free(image);
    return 0;
}
