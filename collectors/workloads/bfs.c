/* collectors/workloads/bfs.c: Rodinia breadth-first search (kernel.cu,
 * kernel2.cu).  Each level launches Kernel (expand the frontier) then
 * Kernel2 (commit the next frontier) until no node is updated.  The graph is
 * generated from the seed with varied out-degrees, like Rodinia's graphgen. */
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/workloads.h"

#define MAX_THREADS_PER_BLOCK 512

typedef struct bfs_node {
    int starting;
    int no_of_edges;
} bfs_node;

typedef struct bfs_args {
    bfs_node *nodes;
    int *edges;
    uint8_t *mask, *updating, *visited, *over;
    int *cost;
    int no_of_nodes;
} bfs_args;

static void bfs_kernel(emu_thread *t)
{
    const bfs_args *g = t->args;
    int tid = (int)(t->blockIdx.x * MAX_THREADS_PER_BLOCK + t->threadIdx.x); emu_gap(t, 12); /* timing: docs/cuda-workloads.md */
    if (tid < g->no_of_nodes && EMU_LD(t, uint8_t, &g->mask[tid])) { workload_used(t, 3);
        EMU_ST(t, uint8_t, &g->mask[tid], 0); emu_gap(t, 2);
        /* The loop bounds are read once, as the compiled kernel keeps them
         * in registers. */
        int start = EMU_LD(t, int, &g->nodes[tid].starting); emu_value loaded_start = emu_loaded(t); emu_gap(t, 2);
        int count = EMU_LD(t, int, &g->nodes[tid].no_of_edges); workload_use_loaded(t, loaded_start, 21);
        for (int i = start; i < start + count; i++) {
            int id = EMU_LD(t, int, &g->edges[i]); workload_used(t, 3);
            if (!workload_tested(t, 1, EMU_LD(t, uint8_t, &g->visited[id]))) {
                int my_cost = EMU_LD(t, int, &g->cost[tid]); workload_used(t, 12);
                EMU_ST(t, int, &g->cost[id], my_cost + 1);
                EMU_ST(t, uint8_t, &g->updating[id], 1);
            } emu_gap(t, 4);
        }
    }
}

static void bfs_kernel2(emu_thread *t)
{
    const bfs_args *g = t->args;
    int tid = (int)(t->blockIdx.x * MAX_THREADS_PER_BLOCK + t->threadIdx.x); emu_gap(t, 12);
    if (tid < g->no_of_nodes && EMU_LD(t, uint8_t, &g->updating[tid])) { workload_used(t, 10);
        EMU_ST(t, uint8_t, &g->mask[tid], 1);
        EMU_ST(t, uint8_t, &g->visited[tid], 1);
        EMU_ST(t, uint8_t, g->over, 1);
        EMU_ST(t, uint8_t, &g->updating[tid], 0);
    }
}

/* Level-synchronous BFS on the CPU: the costs Rodinia's kernels produce. */
static int *reference_costs(const bfs_node *nodes, const int *edges, int n)
{
    int *cost = malloc((size_t)n * sizeof *cost), *queue = malloc((size_t)n * sizeof *queue);
    for (int i = 0; i < n; i++)
        cost[i] = -1;
    int head = 0, tail = 0;
    cost[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int i = nodes[v].starting; i < nodes[v].starting + nodes[v].no_of_edges; i++)
            if (cost[edges[i]] < 0) {
                cost[edges[i]] = cost[v] + 1;
                queue[tail++] = edges[i];
            }
    }
    free(queue);
    return cost;
}

static int run(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err)
{
    static const int sizes[SIZE_COUNT] = {4096, 65536, 8388608};
    int n = sizes[size];
    uint64_t s = seed;
    bfs_args g = {.no_of_nodes = n};
    g.nodes = emu_malloc(e, (size_t)n * sizeof *g.nodes);
    /* Out-degrees 1..11 (mean 6), neighbours near and far. */
    int *degree = malloc((size_t)n * sizeof *degree);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        degree[i] = 1 + (int)(workload_rand(&s) % 11);
        total += (size_t)degree[i];
    }
    g.edges = emu_malloc(e, total * sizeof *g.edges);
    g.mask = emu_malloc(e, (size_t)n);
    g.updating = emu_malloc(e, (size_t)n);
    g.visited = emu_malloc(e, (size_t)n);
    g.over = emu_malloc(e, 1);
    g.cost = emu_malloc(e, (size_t)n * sizeof *g.cost);
    if (!g.nodes || !g.edges || !g.mask || !g.updating || !g.visited || !g.over || !g.cost) {
        free(degree);
        return ws_fail(err, "bfs: emulated device memory is full");
    }
    size_t next = 0;
    for (int i = 0; i < n; i++) {
        g.nodes[i] = (bfs_node){(int)next, degree[i]};
        for (int d = 0; d < degree[i]; d++) {
            uint64_t r = workload_rand(&s);
            g.edges[next++] = r % 4 ? (int)((i + 1 + r % 64) % n) : (int)(r % (uint64_t)n);
        }
        g.cost[i] = -1;
    }
    free(degree);
    g.mask[0] = g.visited[0] = 1;
    g.cost[0] = 0;
    emu_launch k1 = {.name = "_Z6KernelP4NodePiPbS2_S2_S1_i",
                     .grid = {(unsigned)(n + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK, 1, 1},
                     .block = {MAX_THREADS_PER_BLOCK, 1, 1}, .kernel = bfs_kernel, .args = &g, .timed = 1};
    emu_launch k2 = k1;
    k2.name = "_Z7Kernel2PbS_S_S_i";
    k2.kernel = bfs_kernel2;
    int rc = 0;
    do {
        *g.over = 0; /* a host-to-device copy in Rodinia: not traced */
        rc = emu_launch_kernel(e, &k1, err);
        if (rc == 0)
            rc = emu_launch_kernel(e, &k2, err);
    } while (rc == 0 && *g.over);
    if (rc == 0 && verify) {
        int *want = reference_costs(g.nodes, g.edges, n);
        for (int i = 0; i < n && rc == 0; i++)
            if (g.cost[i] != want[i])
                rc = ws_fail(err, "bfs cost[%d]: got %d, expected %d", i, g.cost[i], want[i]);
        free(want);
    }
    return rc;
}

const workload workload_bfs = {
    .name = "bfs",
    .suite = "rodinia",
    .kernels = "Kernel, Kernel2 (per level)",
    .description = "breadth-first search; data-dependent, divergent frontier accesses",
    .sizes = {"4 K nodes", "64 K nodes", "8 M nodes (56 M records)"},
    .run = run,
};
