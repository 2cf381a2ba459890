/* collectors/workloads/cuda/kmeans.cu: Rodinia kmeans (invert_mapping,
 * kmeansPoint) as a CUDA program, the twin of the emulator port
 * collectors/workloads/kmeans.c (docs/cuda-workloads.md).  invert_mapping
 * transposes the features once, then kmeansPoint assigns every point to its
 * nearest cluster once per iteration; the host recomputes the centres in
 * between.  Rodinia reads features and clusters through textures; the port,
 * and so this program, reads them with global loads.  The kernels keep
 * Rodinia's unmangled names (the port records them so): extern "C". */
#include <float.h>

#include "collectors/workloads/cuda/ws_cuda.cuh"

#define THREADS_PER_BLOCK 256
#define ITERATIONS 3

extern "C" __global__ void invert_mapping(float *input, float *output, int npoints, int nfeatures)
{
    int point_id = (int)(threadIdx.x + blockDim.x * blockIdx.x);
    if (point_id < npoints)
        for (int i = 0; i < nfeatures; i++)
            output[point_id + npoints * i] = input[point_id * nfeatures + i];
}

/* The distance is summed with unfused, round-to-nearest operations, so the
 * nearest cluster is the one the port's (and the CPU reference's) float
 * arithmetic picks, bit for bit. */
extern "C" __global__ void kmeansPoint(float *features, int nfeatures, int npoints, int nclusters,
                                       int *membership, float *clusters)
{
    unsigned block_id = gridDim.x * blockIdx.y + blockIdx.x;
    int point_id = (int)(block_id * blockDim.x * blockDim.y + threadIdx.x);
    int index = -1;
    if (point_id < npoints) {
        float min_dist = FLT_MAX;
        for (int i = 0; i < nclusters; i++) {
            int cluster_base_index = i * nfeatures;
            float ans = 0;
            for (int j = 0; j < nfeatures; j++) {
                float f = features[point_id + j * npoints];
                float c = clusters[cluster_base_index + j];
                ans = __fadd_rn(ans, __fmul_rn(f - c, f - c));
            }
            if (ans < min_dist) {
                min_dist = ans;
                index = i;
            }
        }
    }
    if (point_id < npoints)
        membership[point_id] = index;
}

/* Nearest centre for every point (the same float arithmetic, in order). */
static void assign(const float *input, const float *clusters, int *membership, int n, int f, int c)
{
    for (int p = 0; p < n; p++) {
        float min_dist = FLT_MAX;
        int index = -1;
        for (int i = 0; i < c; i++) {
            float ans = 0;
            for (int j = 0; j < f; j++) {
                float d = input[p * f + j] - clusters[i * f + j];
                ans += d * d;
            }
            if (ans < min_dist) {
                min_dist = ans;
                index = i;
            }
        }
        membership[p] = index;
    }
}

static void recompute_centres(const float *input, const int *membership, float *clusters, int n,
                              int f, int c)
{
    float *sum = ws_host<float>((size_t)c * f);
    int *count = ws_host<int>((size_t)c);
    for (int p = 0; p < n; p++) {
        count[membership[p]]++;
        for (int j = 0; j < f; j++)
            sum[membership[p] * f + j] += input[p * f + j];
    }
    for (int i = 0; i < c; i++)
        for (int j = 0; j < f && count[i]; j++)
            clusters[i * f + j] = sum[i * f + j] / (float)count[i];
    free(sum);
    free(count);
}

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "kmeans");
    static const int points[] = {4096, 65536, 1048576};
    int npoints = points[o.size], nfeatures = 8, nclusters = 5;
    size_t cells = (size_t)npoints * nfeatures, centres = (size_t)nclusters * nfeatures;
    float *input_host = NULL;
    uint64_t s = o.seed;
    float *input = ws_random_floats(cells, &s, &input_host);
    float *features = ws_device<float>(cells);
    float *clusters = ws_device<float>(centres);
    int *membership = ws_device<int>((size_t)npoints);
    float *clusters_host = ws_host<float>(centres); /* the first points as centres */
    memcpy(clusters_host, input_host, centres * sizeof(float));
    ws_to_device(clusters, clusters_host, centres);

    int *got = ws_host<int>((size_t)npoints), *want = ws_host<int>((size_t)npoints);
    float *ref_clusters = ws_host<float>(centres);
    memcpy(ref_clusters, clusters_host, centres * sizeof(float));
    unsigned blocks = (unsigned)(npoints + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    invert_mapping<<<blocks, THREADS_PER_BLOCK>>>(input, features, npoints, nfeatures);
    WS_LAUNCHED();
    for (int it = 0; it < ITERATIONS; it++) {
        kmeansPoint<<<blocks, THREADS_PER_BLOCK>>>(features, nfeatures, npoints, nclusters,
                                                   membership, clusters);
        WS_LAUNCHED();
        ws_to_host(got, membership, (size_t)npoints);
        if (o.verify) {
            assign(input_host, ref_clusters, want, npoints, nfeatures, nclusters);
            for (int p = 0; p < npoints; p++)
                if (got[p] != want[p]) {
                    fprintf(stderr, "%s: kmeans membership[%d]: got %d, expected %d\n", o.program,
                            p, got[p], want[p]);
                    exit(1);
                }
            recompute_centres(input_host, want, ref_clusters, npoints, nfeatures, nclusters);
        }
        /* The host's step between launches (not traced). */
        recompute_centres(input_host, got, clusters_host, npoints, nfeatures, nclusters);
        ws_to_device(clusters, clusters_host, centres);
    }
    free(input_host);
    free(clusters_host);
    free(ref_clusters);
    free(got);
    free(want);
    return 0;
}
