/* collectors/workloads/cuda/backprop.cu: Rodinia backprop
 * (bpnn_layerforward_CUDA, bpnn_adjust_weights_cuda) as a CUDA program, the
 * twin of the emulator port collectors/workloads/backprop.c
 * (docs/cuda-workloads.md): one layer of `in` inputs and 16 hidden units,
 * 16×16 thread blocks, the forward pass a tree reduction in shared memory
 * between barriers. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define WIDTH 16
#define HEIGHT 16
#define HIDDEN 16
#define ETA 0.3f
#define MOMENTUM 0.3f

/* output_hidden_cuda is unused, as in Rodinia; the port allocates nothing
 * for it, so neither does this program. */
__global__ void bpnn_layerforward_CUDA(float *input_cuda, float *output_hidden_cuda,
                                       float *input_hidden_cuda, float *hidden_partial_sum, int in,
                                       int hid)
{
    int by = (int)blockIdx.y, tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;
    __shared__ float input_node[HEIGHT];
    __shared__ float weight_matrix[HEIGHT][WIDTH];
    if (tx == 0)
        input_node[ty] = input_cuda[index_in];
    __syncthreads();
    weight_matrix[ty][tx] = input_hidden_cuda[index];
    __syncthreads();
    weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
    __syncthreads();
    for (int i = 1; i <= 4; i++) { /* log2(HEIGHT) */
        int power_two = 1 << i;
        if (ty % power_two == 0)
            weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two / 2][tx];
        __syncthreads();
    }
    input_hidden_cuda[index] = weight_matrix[ty][tx];
    __syncthreads();
    if (tx == 0)
        hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
}

/* Each operand is loaded once, in the port's order; the stores may alias
 * them, so the bias row (ty == 0 of block 0) loads its own again. */
__global__ void bpnn_adjust_weights_cuda(float *delta, int hid, float *ly, int in, float *w, float *oldw)
{
    int by = (int)blockIdx.y, tx = (int)threadIdx.x, ty = (int)threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;
    float d = delta[index_x], y = ly[index_y];
    float old = oldw[index];
    float wv = w[index];
    w[index] = wv + ((ETA * d * y) + (MOMENTUM * old));
    oldw[index] = (ETA * d * y) + (MOMENTUM * old);
    if (ty == 0 && by == 0) {
        float d0 = delta[index_x], old0 = oldw[index_x];
        float w0 = w[index_x];
        w[index_x] = w0 + ((ETA * d0) + (MOMENTUM * old0));
        oldw[index_x] = (ETA * d0) + (MOMENTUM * old0);
    }
}

/* The kernel's reduction, replayed on the CPU block by block. */
static void reference_forward(const float *input, float *input_hidden, float *partial, int in_blocks,
                              int hid)
{
    for (int by = 0; by < in_blocks; by++) {
        float m[HEIGHT][WIDTH];
        for (int ty = 0; ty < HEIGHT; ty++)
            for (int tx = 0; tx < WIDTH; tx++)
                m[ty][tx] = input_hidden[(hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1)] *
                            input[HEIGHT * by + ty + 1];
        for (int i = 1; i <= 4; i++)
            for (int ty = 0; ty < HEIGHT; ty += 1 << i)
                for (int tx = 0; tx < WIDTH; tx++)
                    m[ty][tx] += m[ty + (1 << i) / 2][tx];
        for (int ty = 0; ty < HEIGHT; ty++)
            for (int tx = 0; tx < WIDTH; tx++)
                input_hidden[(hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1)] = m[ty][tx];
        for (int ty = 0; ty < HEIGHT; ty++)
            partial[by * hid + ty] = m[0][ty];
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "backprop");
    static const int sizes[] = {4096, 65536, 1048576};
    int in = sizes[o.size], hid = HIDDEN, blocks = in / 16;
    size_t weights = (size_t)(in + 1) * (hid + 1), partials = (size_t)blocks * hid;
    float *input = ws_device<float>((size_t)in + 1);
    float *input_hidden = ws_device<float>(weights);
    float *hidden_partial_sum = ws_device<float>(partials);
    float *delta = ws_device<float>((size_t)hid + 1);
    float *ly = ws_device<float>((size_t)in + 1);
    float *w = ws_device<float>(weights);
    float *oldw = ws_device_zeroed<float>(weights);

    uint64_t s = o.seed;
    float *host_input = ws_host<float>((size_t)in + 1), *host_ih = ws_host<float>(weights),
          *host_w = ws_host<float>(weights), *host_delta = ws_host<float>((size_t)hid + 1);
    for (int i = 0; i <= in; i++)
        host_input[i] = ws_rand_float(&s);
    for (size_t i = 0; i < weights; i++) {
        host_ih[i] = ws_rand_float(&s);
        host_w[i] = ws_rand_float(&s);
    }
    for (int i = 0; i <= hid; i++)
        host_delta[i] = ws_rand_float(&s);
    ws_to_device(input, host_input, (size_t)in + 1);
    ws_to_device(ly, host_input, (size_t)in + 1); /* the port's ly equals its input */
    ws_to_device(input_hidden, host_ih, weights);
    ws_to_device(w, host_w, weights);
    ws_to_device(delta, host_delta, (size_t)hid + 1);

    dim3 grid(1, (unsigned)blocks), threads(16, 16);
    bpnn_layerforward_CUDA<<<grid, threads>>>(input, NULL, input_hidden, hidden_partial_sum, in, hid);
    WS_LAUNCHED();
    if (o.verify) {
        float *got_ih = ws_host<float>(weights), *got_partial = ws_host<float>(partials),
              *want_partial = ws_host<float>(partials);
        ws_to_host(got_ih, input_hidden, weights);
        ws_to_host(got_partial, hidden_partial_sum, partials);
        reference_forward(host_input, host_ih, want_partial, blocks, hid);
        ws_check_floats(o.program, "backprop input_hidden", got_ih, host_ih, weights, 1e-5f);
        ws_check_floats(o.program, "backprop partial sums", got_partial, want_partial, partials, 1e-5f);
        free(got_ih);
        free(got_partial);
        free(want_partial);
    }
    bpnn_adjust_weights_cuda<<<grid, threads>>>(delta, hid, ly, in, w, oldw);
    WS_LAUNCHED();
    free(host_input);
    free(host_ih);
    free(host_w);
    free(host_delta);
    return 0;
}
