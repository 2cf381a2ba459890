/* collectors/workloads/backprop.c: Rodinia backprop (backprop_cuda_kernel.cu):
 * bpnn_layerforward_CUDA (weights times inputs, a tree reduction in shared
 * memory between barriers) and bpnn_adjust_weights_cuda, for one layer of
 * `in` inputs and 16 hidden units, 16×16 thread blocks. */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define WIDTH 16
#define HEIGHT 16
#define ETA 0.3f
#define MOMENTUM 0.3f

typedef struct bp_args {
    float *input, *input_hidden, *hidden_partial_sum, *delta, *ly, *w, *oldw;
    int in, hid;
} bp_args;

typedef struct bp_shared {
    float input_node[HEIGHT];
    float weight_matrix[HEIGHT][WIDTH];
} bp_shared;

static void layerforward(emu_thread *t)
{
    const bp_args *a = t->args;
    bp_shared *sh = t->shared;
    int by = (int)t->blockIdx.y, tx = (int)t->threadIdx.x, ty = (int)t->threadIdx.y, hid = a->hid;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;
    if (tx == 0)
        { emu_gap(t, 15); sh->input_node[ty] = EMU_LD(t, float, &a->input[index_in]); emu_use(t, emu_loaded(t)); } emu_gap(t, 8); /* timing: docs/cuda-workloads.md */
    EMU_SYNC(t);
    sh->weight_matrix[ty][tx] = EMU_LD(t, float, &a->input_hidden[index]); workload_used(t, 38);
    EMU_SYNC(t);
    sh->weight_matrix[ty][tx] = sh->weight_matrix[ty][tx] * sh->input_node[ty];
    EMU_SYNC(t);
    for (int i = 1; i <= 4; i++) { /* log2(HEIGHT) */
        int power_two = 1 << i;
        if (ty % power_two == 0)
            sh->weight_matrix[ty][tx] += sh->weight_matrix[ty + power_two / 2][tx];
        EMU_SYNC(t);
    }
    EMU_ST(t, float, &a->input_hidden[index], sh->weight_matrix[ty][tx]); emu_gap(t, 7);
    EMU_SYNC(t);
    if (tx == 0)
        EMU_ST(t, float, &a->hidden_partial_sum[by * hid + ty], sh->weight_matrix[tx][ty]);
}

static void adjust_weights(emu_thread *t)
{
    const bp_args *a = t->args;
    int by = (int)t->blockIdx.y, tx = (int)t->threadIdx.x, ty = (int)t->threadIdx.y, hid = a->hid;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1; emu_gap(t, 18); /* timing: docs/cuda-workloads.md */
    float d = EMU_LD(t, float, &a->delta[index_x]); emu_value loaded_d = emu_loaded(t); emu_gap(t, 1); float y = EMU_LD(t, float, &a->ly[index_y]); emu_value loaded_y = emu_loaded(t);
    float old = EMU_LD(t, float, &a->oldw[index]); emu_value loaded_old = emu_loaded(t); emu_gap(t, 1);
    float w = EMU_LD(t, float, &a->w[index]); emu_use(t, loaded_d); emu_use(t, loaded_y); workload_use_loaded(t, loaded_old, 5);
    EMU_ST(t, float, &a->w[index], w + ((ETA * d * y) + (MOMENTUM * old)));
    EMU_ST(t, float, &a->oldw[index], (ETA * d * y) + (MOMENTUM * old)); emu_gap(t, 1);
    if (ty == 0 && by == 0) { emu_gap(t, 1);
        float d0 = EMU_LD(t, float, &a->delta[index_x]); emu_value loaded_d0 = emu_loaded(t); emu_gap(t, 1); float old0 = EMU_LD(t, float, &a->oldw[index_x]); emu_value loaded_old0 = emu_loaded(t); emu_gap(t, 1);
        float w0 = EMU_LD(t, float, &a->w[index_x]); emu_use(t, loaded_d0); workload_use_loaded(t, loaded_old0, 3);
        EMU_ST(t, float, &a->w[index_x], w0 + ((ETA * d0) + (MOMENTUM * old0)));
        EMU_ST(t, float, &a->oldw[index_x], (ETA * d0) + (MOMENTUM * old0));
    }
}

/* The kernel's reduction, replayed on the CPU for one block. */
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

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {4096, 65536, 1048576};
    bp_args a = {.in = sizes[size], .hid = 16};
    size_t weights = (size_t)(a.in + 1) * (a.hid + 1);
    int blocks = a.in / 16;
    a.input = emu_malloc(e, (size_t)(a.in + 1) * 4);
    a.input_hidden = emu_malloc(e, weights * 4);
    a.hidden_partial_sum = emu_malloc(e, (size_t)blocks * a.hid * 4);
    a.delta = emu_malloc(e, (size_t)(a.hid + 1) * 4);
    a.ly = emu_malloc(e, (size_t)(a.in + 1) * 4);
    a.w = emu_malloc(e, weights * 4);
    a.oldw = emu_malloc(e, weights * 4);
    if (!a.input || !a.input_hidden || !a.hidden_partial_sum || !a.delta || !a.ly || !a.w || !a.oldw)
        return ws_fail(err, "backprop: emulated device memory is full");
    uint64_t s = seed;
    for (int i = 0; i <= a.in; i++)
        a.input[i] = a.ly[i] = workload_rand_float(&s);
    for (size_t i = 0; i < weights; i++) {
        a.input_hidden[i] = workload_rand_float(&s);
        a.w[i] = workload_rand_float(&s);
    }
    for (int i = 0; i <= a.hid; i++)
        a.delta[i] = workload_rand_float(&s);
    float *want_ih = NULL, *want_partial = NULL;
    if (verify) {
        want_ih = malloc(weights * 4);
        want_partial = malloc((size_t)blocks * a.hid * 4);
        memcpy(want_ih, a.input_hidden, weights * 4);
        reference_forward(a.input, want_ih, want_partial, blocks, a.hid);
    }
    emu_launch fwd = {.name = "_Z22bpnn_layerforward_CUDAPfS_S_S_ii", .grid = {1, (unsigned)blocks, 1},
                      .block = {16, 16, 1}, .shared_bytes = sizeof(bp_shared), .uses_barriers = 1,
                      .kernel = layerforward, .args = &a, .timed = 1};
    emu_launch adj = {.name = "_Z24bpnn_adjust_weights_cudaPfiS_iS_S_", .grid = {1, (unsigned)blocks, 1},
                      .block = {16, 16, 1}, .kernel = adjust_weights, .args = &a, .timed = 1};
    int rc = emu_launch_kernel(e, &fwd, err);
    if (rc == 0 && verify)
        rc = workload_check_floats("backprop input_hidden", a.input_hidden, want_ih, weights, 1e-5f, err) ||
                     workload_check_floats("backprop partial sums", a.hidden_partial_sum, want_partial,
                                           (uint64_t)blocks * a.hid, 1e-5f, err)
                 ? -1
                 : 0;
    if (rc == 0)
        rc = emu_launch_kernel(e, &adj, err);
    free(want_ih);
    free(want_partial);
    return rc;
}

const workload workload_backprop = {
    .name = "backprop",
    .suite = "rodinia",
    .kernels = "bpnn_layerforward_CUDA, bpnn_adjust_weights_cuda",
    .description = "neural network layer; 16x16 tiles with (hid+1)-strided rows",
    .sizes = {"4 K inputs", "64 K inputs", "1 M inputs"},
    .run = run,
};
