/* collectors/workloads/cuda/bfs.cu: Rodinia breadth-first search (Kernel,
 * Kernel2) as a CUDA program, the twin of the emulator port
 * collectors/workloads/bfs.c (docs/cuda-workloads.md).  Each level
 * launches Kernel then Kernel2 until no node is updated: the number of
 * launches follows the graph, which comes from the seed. */
#include "collectors/workloads/cuda/ws_cuda.cuh"

#define MAX_THREADS_PER_BLOCK 512

/* Rodinia's Node: 8 bytes, 4-byte aligned, so the compiler loads its two
 * fields with two 32-bit loads, as the port records them. */
struct Node {
    int starting;
    int no_of_edges;
};

__global__ void Kernel(Node *g_graph_nodes, int *g_graph_edges, bool *g_graph_mask,
                       bool *g_updating_graph_mask, bool *g_graph_visited, int *g_cost, int no_of_nodes)
{
    int tid = (int)(blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x);
    if (tid < no_of_nodes && g_graph_mask[tid]) {
        g_graph_mask[tid] = false;
        /* The loop bounds are read once, into registers, as the port models
         * them (Rodinia's source re-reads them in the loop condition, which
         * a bool store in the body could force the compiler to do). */
        int start = g_graph_nodes[tid].starting;
        int count = g_graph_nodes[tid].no_of_edges;
        for (int i = start; i < start + count; i++) {
            int id = g_graph_edges[i];
            if (!g_graph_visited[id]) {
                g_cost[id] = g_cost[tid] + 1;
                g_updating_graph_mask[id] = true;
            }
        }
    }
}

__global__ void Kernel2(bool *g_graph_mask, bool *g_updating_graph_mask, bool *g_graph_visited,
                        bool *g_over, int no_of_nodes)
{
    int tid = (int)(blockIdx.x * MAX_THREADS_PER_BLOCK + threadIdx.x);
    if (tid < no_of_nodes && g_updating_graph_mask[tid]) {
        g_graph_mask[tid] = true;
        g_graph_visited[tid] = true;
        *g_over = true;
        g_updating_graph_mask[tid] = false;
    }
}

/* Level-synchronous BFS on the CPU: the costs Rodinia's kernels produce. */
static int *reference_costs(const Node *nodes, const int *edges, int n)
{
    int *cost = ws_host<int>((size_t)n), *queue = ws_host<int>((size_t)n);
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

int main(int argc, char **argv)
{
    ws_options o = ws_parse(argc, argv, "bfs");
    static const int sizes[] = {4096, 65536, 8388608};
    int n = sizes[o.size];
    uint64_t s = o.seed;
    Node *nodes = ws_device<Node>((size_t)n);
    /* Out-degrees 1..11 (mean 6), neighbours near and far. */
    int *degree = ws_host<int>((size_t)n);
    size_t total = 0;
    for (int i = 0; i < n; i++) {
        degree[i] = 1 + (int)(ws_rand(&s) % 11);
        total += (size_t)degree[i];
    }
    int *edges = ws_device<int>(total);
    bool *mask = ws_device_zeroed<bool>((size_t)n), *updating = ws_device_zeroed<bool>((size_t)n),
         *visited = ws_device_zeroed<bool>((size_t)n), *over = ws_device<bool>(1);
    int *cost = ws_device<int>((size_t)n);

    Node *host_nodes = ws_host<Node>((size_t)n);
    int *host_edges = ws_host<int>(total);
    int *host_cost = ws_host<int>((size_t)n);
    size_t next = 0;
    for (int i = 0; i < n; i++) {
        host_nodes[i].starting = (int)next;
        host_nodes[i].no_of_edges = degree[i];
        for (int d = 0; d < degree[i]; d++) {
            uint64_t r = ws_rand(&s);
            host_edges[next++] = r % 4 ? (int)((i + 1 + r % 64) % n) : (int)(r % (uint64_t)n);
        }
        host_cost[i] = -1;
    }
    free(degree);
    host_cost[0] = 0;
    ws_to_device(nodes, host_nodes, (size_t)n);
    ws_to_device(edges, host_edges, total);
    ws_to_device(cost, host_cost, (size_t)n);
    const bool source = true; /* node 0 starts the frontier */
    ws_to_device(mask, &source, 1);
    ws_to_device(visited, &source, 1);

    unsigned blocks = (unsigned)(n + MAX_THREADS_PER_BLOCK - 1) / MAX_THREADS_PER_BLOCK;
    bool stop;
    do {
        stop = false;
        ws_to_device(over, &stop, 1);
        Kernel<<<blocks, MAX_THREADS_PER_BLOCK>>>(nodes, edges, mask, updating, visited, cost, n);
        WS_LAUNCHED();
        Kernel2<<<blocks, MAX_THREADS_PER_BLOCK>>>(mask, updating, visited, over, n);
        WS_LAUNCHED();
        ws_to_host(&stop, over, 1);
    } while (stop);

    if (o.verify) {
        int *want = reference_costs(host_nodes, host_edges, n);
        ws_to_host(host_cost, cost, (size_t)n);
        for (int i = 0; i < n; i++)
            if (host_cost[i] != want[i]) {
                fprintf(stderr, "%s: bfs cost[%d]: got %d, expected %d\n", o.program, i,
                        host_cost[i], want[i]);
                exit(1);
            }
        free(want);
    }
    free(host_nodes);
    free(host_edges);
    free(host_cost);
    return 0;
}
