/* collectors/workloads/kmeans.c: Rodinia kmeans (kmeans_cuda_kernel.cu):
 * invert_mapping transposes the features to feature-major order once, then
 * kmeansPoint assigns every point to its nearest cluster, once per
 * iteration; the host recomputes the centres between iterations (not
 * traced).  Rodinia reads features and clusters through textures; here they
 * are global loads (the data and the indexing are the same). */
#include <float.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define THREADS_PER_BLOCK 256
#define ITERATIONS 3

typedef struct kmeans_args {
    float *input, *features, *clusters;
    int *membership;
    int npoints, nfeatures, nclusters;
} kmeans_args;

static void invert_mapping(emu_thread *t)
{
    const kmeans_args *k = t->args;
    int point_id = (int)(t->threadIdx.x + t->blockDim.x * t->blockIdx.x); emu_gap(t, 31); /* timing: docs/cuda-workloads.md */
    if (point_id < k->npoints)
        for (int i = 0; i < k->nfeatures; i++) {
            float v = EMU_LD(t, float, &k->input[point_id * k->nfeatures + i]); workload_used(t, i == 7 ? 6 : 1);
            EMU_ST(t, float, &k->features[point_id + k->npoints * i], v);
        }
}
/* timing (docs/cuda-workloads.md): the SASS unrolls the feature loop 8 times: gaps between its loads, and how many loads its arithmetic has used by each */ static const uint8_t km_gap[16] = {0, 2, 0, 0, 1, 0, 2, 0, 6, 2, 2, 2, 0, 0, 0, 0}, km_used[16] = {0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 4, 8, 8, 8, 8, 8};
static void kmeans_point(emu_thread *t)
{
    const kmeans_args *k = t->args;
    unsigned block_id = t->gridDim.x * t->blockIdx.y + t->blockIdx.x;
    int point_id = (int)(block_id * t->blockDim.x * t->blockDim.y + t->threadIdx.x);
    int index = -1;
    if (point_id < k->npoints) {
        float min_dist = FLT_MAX;
        for (int i = 0; i < k->nclusters; i++) {
            int cluster_base_index = i * k->nfeatures;
            float ans = 0; emu_value loaded[16]; unsigned used = 0;
            for (int j = 0; j < k->nfeatures; j++) {
                if (j < 8) { emu_gap(t, j == 0 ? (i == 0 ? 51 : 21) : km_gap[2 * j]); workload_use_upto(t, loaded, &used, km_used[2 * j]); } float f = EMU_LD(t, float, &k->features[point_id + j * k->npoints]); if (j < 8) loaded[2 * j] = emu_loaded(t);
                if (j < 8) { emu_gap(t, km_gap[2 * j + 1]); workload_use_upto(t, loaded, &used, km_used[2 * j + 1]); } float c = EMU_LD(t, float, &k->clusters[cluster_base_index + j]); if (j < 8) loaded[2 * j + 1] = emu_loaded(t);
                ans += (f - c) * (f - c);
            } workload_use_upto(t, loaded, &used, 2 * (unsigned)(k->nfeatures < 8 ? k->nfeatures : 8)); emu_gap(t, 33);
            if (ans < min_dist) {
                min_dist = ans;
                index = i;
            }
        }
    }
    if (point_id < k->npoints)
        { emu_gap(t, 2); EMU_ST(t, int, &k->membership[point_id], index); }
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
    float *sum = calloc((size_t)c * f, sizeof *sum);
    int *count = calloc((size_t)c, sizeof *count);
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

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int points[SIZE_COUNT] = {4096, 65536, 1048576};
    kmeans_args k = {.npoints = points[size], .nfeatures = 8, .nclusters = 5};
    size_t cells = (size_t)k.npoints * k.nfeatures;
    k.input = emu_malloc(e, cells * 4);
    k.features = emu_malloc(e, cells * 4);
    k.clusters = emu_malloc(e, (size_t)k.nclusters * k.nfeatures * 4);
    k.membership = emu_malloc(e, (size_t)k.npoints * 4);
    if (!k.input || !k.features || !k.clusters || !k.membership)
        return ws_fail(err, "kmeans: emulated device memory is full");
    uint64_t s = seed;
    for (size_t i = 0; i < cells; i++)
        k.input[i] = workload_rand_float(&s);
    for (int i = 0; i < k.nclusters * k.nfeatures; i++) /* the first points as centres */
        k.clusters[i] = k.input[i];
    int *want = verify ? malloc((size_t)k.npoints * sizeof *want) : NULL;
    float *ref_clusters = verify ? malloc((size_t)k.nclusters * k.nfeatures * 4) : NULL;
    if (verify)
        memcpy(ref_clusters, k.clusters, (size_t)k.nclusters * k.nfeatures * 4);
    unsigned blocks = (unsigned)(k.npoints + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK;
    emu_launch inv = {.name = "invert_mapping", .grid = {blocks, 1, 1},
                      .block = {THREADS_PER_BLOCK, 1, 1}, .kernel = invert_mapping, .args = &k, .timed = 1};
    emu_launch point = {.name = "kmeansPoint", .grid = {blocks, 1, 1},
                        .block = {THREADS_PER_BLOCK, 1, 1}, .kernel = kmeans_point, .args = &k, .timed = 1};
    int rc = emu_launch_kernel(e, &inv, err);
    for (int it = 0; it < ITERATIONS && rc == 0; it++) {
        rc = emu_launch_kernel(e, &point, err);
        if (rc == 0 && verify) {
            assign(k.input, ref_clusters, want, k.npoints, k.nfeatures, k.nclusters);
            for (int p = 0; p < k.npoints && rc == 0; p++)
                if (k.membership[p] != want[p])
                    rc = ws_fail(err, "kmeans membership[%d]: got %d, expected %d", p,
                                 k.membership[p], want[p]);
            recompute_centres(k.input, want, ref_clusters, k.npoints, k.nfeatures, k.nclusters);
        }
        recompute_centres(k.input, k.membership, k.clusters, k.npoints, k.nfeatures, k.nclusters);
    }
    free(want);
    free(ref_clusters);
    return rc;
}

const workload workload_kmeans = {
    .name = "kmeans",
    .suite = "rodinia",
    .kernels = "invert_mapping, kmeansPoint (per iteration)",
    .description = "k-means clustering; feature-major reads, broadcast cluster centres",
    .sizes = {"4 K points", "64 K points", "1 M points"},
    .run = run,
};
