/* bench/bench_memory_latency.c: this machine's load latency by working set.
 *
 * A timed replay's working set (the caches' tag arrays, the packed CTAs,
 * the scheduler's arrays) is a few hundred KB to a few MB, so its time
 * may follow the latency of the cache level that holds it; on a shared
 * machine that latency moves with the neighbours' use of the shared last
 * level.  bench/timed-vs-accelsim-rounds.sh records it beside each round
 * of the timed replay against Accel-Sim (bench/RESULTS.md, "The two
 * speeds of bfs fermi").  A pointer chase through a random cycle of
 * 64-byte lines (each load's address is the previous load's value, so no
 * two overlap and the prefetchers cannot guess), three passes to warm,
 * then ns per load.
 *
 *   bench_memory_latency            a Markdown section (`make bench`): 128 KB to 16 MB
 *   bench_memory_latency KB [KB...]  one line of "KB ns" pairs (the rounds script) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench_clock.h"

#define LINE 64
#define STEPS 3000000u

static volatile uint64_t sink;

/* ns per load of a chase through `kb` KB; -1 when out of memory. */
static double chase(size_t kb)
{
    size_t n = kb * 1024 / LINE;
    if (n < 2)
        n = 2;
    uint64_t *lines = aligned_alloc(LINE, n * LINE);
    size_t *order = malloc(n * sizeof *order);
    if (!lines || !order) {
        free(lines);
        free(order);
        return -1;
    }
    /* A random cycle through every line (Fisher-Yates on a fixed seed). */
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = n - 1; i > 0; i--) {
        seed = seed * 6364136223846793005u + 1442695040888963407u;
        size_t j = (size_t)(seed >> 33) % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    const size_t words = LINE / sizeof *lines;
    for (size_t i = 0; i < n; i++)
        lines[order[i] * words] = order[(i + 1) % n] * words;
    uint64_t at = 0;
    for (size_t pass = 0; pass < 3 * n; pass++)
        at = lines[at];
    double start = bench_seconds();
    for (unsigned i = 0; i < STEPS; i++)
        at = lines[at];
    double ns = (bench_seconds() - start) * 1e9 / STEPS;
    sink = at; /* read, so the chase is not optimised away */
    free(lines);
    free(order);
    return ns;
}

int main(int argc, char **argv)
{
    static const size_t defaults[] = {128, 384, 768, 1536, 2048, 4096, 16384};
    enum { MAX_SIZES = 64 };
    size_t sizes[MAX_SIZES], count = 0;
    if (argc - 1 > MAX_SIZES) {
        fprintf(stderr, "bench_memory_latency: at most %d sizes\n", MAX_SIZES);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        char *end;
        unsigned long kb = strtoul(argv[i], &end, 10);
        if (*end || end == argv[i] || kb == 0 || kb > (1ul << 22)) {
            fprintf(stderr, "bench_memory_latency: %s: not a size in KB (1 to 4194304)\n",
                    argv[i]);
            return 2;
        }
        sizes[count++] = kb;
    }
    for (; argc == 1 && count < sizeof defaults / sizeof *defaults; count++)
        sizes[count] = defaults[count];
    if (argc == 1)
        printf("## Load latency by working set (`bench/bench_memory_latency.c`)\n\n"
               "A pointer chase through a random cycle of 64-byte lines, ns per load: the\n"
               "cache level that holds a working set of each size on this machine now.\n\n"
               "| working set (KB) | ns per load |\n|---:|---:|\n");
    for (size_t i = 0; i < count; i++) {
        double ns = chase(sizes[i]);
        if (ns < 0) {
            fprintf(stderr, "\nbench_memory_latency: %zu KB: out of memory\n", sizes[i]);
            return 1;
        }
        if (argc == 1)
            printf("| %zu | %.1f |\n", sizes[i], ns);
        else
            printf("%s%zuK %.1f", i ? "  " : "", sizes[i], ns);
        fflush(stdout);
    }
    if (argc > 1)
        printf("\n");
    return 0;
}
