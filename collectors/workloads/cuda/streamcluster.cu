/* collectors/workloads/cuda/streamcluster.cu: Rodinia streamcluster
 * (kernel_compute_cost) as a CUDA program, the twin of the emulator port
 * collectors/workloads/streamcluster.c (docs/cuda-workloads.md): for a
 * candidate centre x, each thread computes its point's cost against x and
 * records the gain; one launch per candidate.  The kernel keeps the
 * unmangled name the port records: extern "C". */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define THREADS_PER_BLOCK 512
#define CANDIDATES 6

/* Rodinia's Point: 32 bytes on a 64-bit host and on the device. */
struct Point {
    float weight;
    float *coord;
    long assign;
    float cost;
};

/* Unfused, round-to-nearest arithmetic: the port's float results bit for
 * bit, since the branch on the cost below picks which addresses a thread
 * touches. */
__device__ float d_dist(int p1, int p2, int num, int dim, float *coord_d)
{
    float retval = 0;
    for (int i = 0; i < dim; i++) {
        float a = coord_d[(i * num) + p1];
        float b = coord_d[(i * num) + p2];
        retval = __fadd_rn(retval, __fmul_rn(a - b, a - b));
    }
    return retval;
}

extern "C" __global__ void kernel_compute_cost(int num, int dim, long x, Point *p, int K, int stride,
                                               float *coord_d, float *work_mem_d,
                                               int *center_table_d, bool *switch_membership_d)
{
    const int bid = (int)(blockIdx.x + gridDim.x * blockIdx.y);
    const int tid = (int)(blockDim.x * (unsigned)bid + threadIdx.x);
    if (tid < num) {
        float *lower = &work_mem_d[tid * stride];
        float weight = p[tid].weight;
        float x_cost = __fmul_rn(d_dist(tid, (int)x, num, dim, coord_d), weight);
        /* Read once, as the port does (Rodinia's source reads it again after
         * the bool store, which may alias it). */
        float cost = p[tid].cost;
        if (x_cost < cost) {
            switch_membership_d[tid] = 1;
            float v = lower[K];
            lower[K] = v + x_cost - cost;
        } else {
            long assign = p[tid].assign;
            int center = center_table_d[assign];
            float v = lower[center];
            lower[center] = v + cost - x_cost;
        }
    }
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "streamcluster");
    static const int sizes[] = {4096, 65536, 524288};
    int num = sizes[o.size], dim = 16, k = 8, stride = k + 1;
    Point *p = ws_device<Point>((size_t)num);
    float *coord = ws_device<float>((size_t)num * dim);
    float *work_mem = ws_device_zeroed<float>((size_t)num * stride);
    int *center_table = ws_device<int>((size_t)num);
    bool *switch_membership = ws_device_zeroed<bool>((size_t)num);

    uint64_t s = o.seed;
    float *host_coord = ws_host<float>((size_t)num * dim);
    Point *host_p = ws_host<Point>((size_t)num);
    int *host_center = ws_host<int>((size_t)num);
    for (int i = 0; i < num * dim; i++)
        host_coord[i] = ws_rand_float(&s);
    for (int i = 0; i < num; i++) {
        host_p[i].weight = 1.0f;
        host_p[i].assign = (long)(ws_rand(&s) % (uint64_t)k);
        host_p[i].cost = ws_rand_float(&s) * (float)dim / 4;
        host_center[i] = i % k;
    }
    ws_to_device(p, host_p, (size_t)num);
    ws_to_device(coord, host_coord, (size_t)num * dim);
    ws_to_device(center_table, host_center, (size_t)num);

    float *want = ws_host<float>((size_t)num * stride);
    bool *want_switch = ws_host<bool>((size_t)num);
    unsigned blocks = (unsigned)(num + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    for (int c = 0; c < CANDIDATES; c++) {
        long x = (long)(ws_rand(&s) % (uint64_t)num);
        kernel_compute_cost<<<blocks, THREADS_PER_BLOCK>>>(num, dim, x, p, k, stride, coord, work_mem,
                                                           center_table, switch_membership);
        WS_LAUNCHED();
        for (int tid = 0; o.verify && tid < num; tid++) {
            float x_cost = 0;
            for (int i = 0; i < dim; i++) {
                float d = host_coord[i * num + tid] - host_coord[i * num + x];
                x_cost += d * d;
            }
            x_cost *= host_p[tid].weight;
            if (x_cost < host_p[tid].cost) {
                want_switch[tid] = true;
                want[tid * stride + k] += x_cost - host_p[tid].cost;
            } else {
                want[tid * stride + host_center[host_p[tid].assign]] += host_p[tid].cost - x_cost;
            }
        }
    }
    if (o.verify) {
        float *got = ws_host<float>((size_t)num * stride);
        bool *got_switch = ws_host<bool>((size_t)num);
        ws_to_host(got, work_mem, (size_t)num * stride);
        ws_to_host(got_switch, switch_membership, (size_t)num);
        ws_check_floats(o.program, "streamcluster work_mem", got, want, (size_t)num * stride, 1e-4f);
        if (memcmp(got_switch, want_switch, (size_t)num) != 0) {
            fprintf(stderr, "%s: streamcluster switch_membership differs from the CPU reference\n",
                    o.program);
            exit(1);
        }
        free(got);
        free(got_switch);
    }
    free(host_coord);
    free(host_p);
    free(host_center);
    free(want);
    free(want_switch);
    return 0;
}
