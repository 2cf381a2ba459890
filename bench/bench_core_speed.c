/* bench/bench_core_speed.c: how much of its core this process gets now.
 *
 * Two fixed loops, timed on the CPU clock of the process:
 *   wide   eight independent chains of adds and xors: bound by how many
 *          instructions the core issues a cycle, so it slows when another
 *          hardware thread shares the core's issue slots (on a virtual
 *          machine, a neighbour on the host's sibling thread), and when the
 *          clock drops;
 *   chain  one chain of dependent multiplies: bound by the multiplier's
 *          latency, so it slows when the clock drops, hardly when the
 *          issue slots are shared.
 * When `wide` slows and `chain` does not, the core is shared, not slowed.
 * bench/timed-vs-accelsim-rounds.sh records `wide` beside each round of the
 * timed replay against Accel-Sim: a timed compare, as Accel-Sim, is bound
 * by issue (bench/RESULTS.md, "The two speeds: the core is shared").
 *
 *   bench_core_speed         a Markdown section (`make bench`): RUNS of each
 *                            loop, interleaved, and how they spread
 *   bench_core_speed wide    one line: `wide` in ms (for scripts)
 *   bench_core_speed N       N lines of "wide_ms chain_ms", interleaved */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench_clock.h"

#define WIDE_STEPS 25000000L
#define CHAIN_STEPS 20000000L
#define RUNS 60

static volatile uint64_t sink;

/* Eight chains the core can run side by side (the empty asm keeps them
 * eight: the compiler may neither merge nor vectorise them). */
static double wide(void)
{
    uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
    double start = bench_cpu_ms();
    for (long i = 0; i < WIDE_STEPS; i++) {
        a += b ^ (uint64_t)i;
        b += c;
        c ^= d + (uint64_t)i;
        d += e;
        e ^= f;
        f += g ^ (uint64_t)i;
        g += h;
        h ^= a;
        __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g),
                         "+r"(h));
    }
    double ms = bench_cpu_ms() - start;
    sink = a + b + c + d + e + f + g + h;
    return ms;
}

/* One chain: each multiply waits for the one before. */
static double chain(void)
{
    uint64_t x = 1;
    double start = bench_cpu_ms();
    for (long i = 0; i < CHAIN_STEPS; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        __asm__ volatile("" : "+r"(x));
    }
    double ms = bench_cpu_ms() - start;
    sink = x;
    return ms;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The share of runs within 10% of the least: the core's own speed. */
static double share_near_least(const double *sorted, int n)
{
    int k = 0;
    while (k < n && sorted[k] <= sorted[0] * 1.10)
        k++;
    return 100.0 * k / n;
}

static void section(void)
{
    double w[RUNS], c[RUNS];
    for (int i = 0; i < RUNS; i++) {
        w[i] = wide();
        c[i] = chain();
    }
    qsort(w, RUNS, sizeof *w, by_value);
    qsort(c, RUNS, sizeof *c, by_value);
    printf("## The core's speed now (`bench/bench_core_speed.c`)\n\n"
           "%d runs of each loop, interleaved, CPU ms: `wide` (eight independent\n"
           "chains: bound by the core's issue slots) and `chain` (one dependent\n"
           "chain: bound by latency).  When `wide` spreads and `chain` does not,\n"
           "another hardware thread shares the core at times (a neighbour on the\n"
           "host), and any issue-bound program, warpscope and Accel-Sim alike, runs\n"
           "slower by as much while it does.\n\n"
           "| loop | least | median | most | runs within 10%% of the least |\n"
           "|---|---:|---:|---:|---:|\n",
           RUNS);
    printf("| wide | %.1f | %.1f | %.1f | %.0f%% |\n", w[0], w[RUNS / 2], w[RUNS - 1],
           share_near_least(w, RUNS));
    printf("| chain | %.1f | %.1f | %.1f | %.0f%% |\n", c[0], c[RUNS / 2], c[RUNS - 1],
           share_near_least(c, RUNS));
}

int main(int argc, char **argv)
{
    if (argc == 1) {
        section();
        return 0;
    }
    if (argc == 2 && strcmp(argv[1], "wide") == 0) {
        printf("%.2f\n", wide());
        return 0;
    }
    char *end;
    long n = argc == 2 ? strtol(argv[1], &end, 10) : 0;
    if (argc != 2 || *end || end == argv[1] || n < 1 || n > 100000) {
        fprintf(stderr, "bench_core_speed: usage: bench_core_speed [wide | N (1 to 100000)]\n");
        return 2;
    }
    for (long i = 0; i < n; i++) {
        double w = wide();
        printf("%.2f %.2f\n", w, chain());
        fflush(stdout);
    }
    return 0;
}
