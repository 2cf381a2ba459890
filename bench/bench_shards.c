/* bench/bench_shards.c: how far `analyze --sample R` (SHARDS, analyzer/reuse.c,
 * docs/metrics.md §3) strays from exact reuse distance.
 *
 * The global-load line streams of the emulated gemm, bfs and spmv (the first
 * TRACE_LINES line requests of each, in the rr,gto issue order on fermi, one
 * global stream: what the L2-sized curve reads) go through one exact state
 * and one sampled state per rate.  Each histogram keeps exact counts up to
 * 256 lines, as analyze does for fermi (2 × L1 lines).  Prints, per trace,
 * the miss ratio of a fully-associative LRU at 2^k lines (k = 0..16), exact
 * and sampled ("-" where the sample cannot resolve the size), and the mean
 * absolute error over the resolved sizes.  Prints a Markdown section.
 *
 *   bench_shards [--size small|medium|large] [--only gemm|bfs|spmv]   (default large) */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/reuse.h"
#include "bench/line_stream.h"

#define TRACE_LINES (UINT64_C(24) << 20)
#define EXACT_LIMIT 256
#define CAPACITIES 17 /* 1 .. 65536 lines */
#define RATES 2
#define SEEDS 32 /* samples of each rate, each of other lines */

static const double rates[RATES] = {0.01, 0.001};

static void die(const char *what, const ws_error *err)
{
    fprintf(stderr, "bench_shards: %s: %s\n", what, err->msg);
    exit(1);
}

/* The stream through a state at `rate` (1 = exact) into hist; returns the
 * seconds spent in the reuse work. */
static double histogram(const line_stream *st, double rate, uint64_t seed, reuse_hist *hist)
{
    ws_error err;
    reuse_options o = {.sample_rate = rate, .sample_seed = seed};
    reuse_state *state = reuse_state_new(&o, &err);
    if (!state || reuse_hist_init(hist, EXACT_LIMIT, &err) != 0)
        die("reuse", &err);
    double seconds = bench_reuse_feed(state, st->lines, st->count, hist);
    reuse_state_free(state);
    return seconds;
}

/* Mean absolute error of a sampled curve over the sizes it resolves;
 * `adjusted` 0 divides by the sampled requests instead (no SHARDS_adj). */
static double curve_error(const reuse_hist *exact, const reuse_hist *sampled, double rate,
                          int adjusted)
{
    double error = 0;
    int points = 0;
    for (int k = 0; k < CAPACITIES; k++) {
        uint64_t lines = UINT64_C(1) << k;
        double s = reuse_hist_miss_ratio(sampled, lines, rate);
        if (isnan(s))
            continue;
        if (!adjusted)
            s = reuse_hist_misses_at(sampled, lines) / (double)sampled->total;
        error += fabs(s - reuse_hist_miss_ratio(exact, lines, 1.0));
        points++;
    }
    return points ? error / points : NAN;
}

typedef struct seed_errors {
    double mean, min, max, unadjusted;
} seed_errors;

/* The error of SEEDS samples at one rate, each of other lines. */
static seed_errors over_seeds(const line_stream *st, const reuse_hist *exact, double rate)
{
    seed_errors e = {0, INFINITY, 0, 0};
    for (uint64_t seed = 0; seed < SEEDS; seed++) {
        reuse_hist h;
        histogram(st, rate, seed, &h);
        double error = curve_error(exact, &h, rate, 1);
        e.mean += error / SEEDS;
        e.unadjusted += curve_error(exact, &h, rate, 0) / SEEDS;
        e.min = error < e.min ? error : e.min;
        e.max = error > e.max ? error : e.max;
        reuse_hist_clear(&h);
    }
    return e;
}

static void trace_section(const char *name, workload_size size)
{
    line_stream st = line_stream_of(name, size, TRACE_LINES);
    reuse_hist exact, sampled[RATES];
    double exact_seconds = histogram(&st, 1.0, 0, &exact), sampled_seconds[RATES];
    for (int r = 0; r < RATES; r++)
        sampled_seconds[r] = histogram(&st, rates[r], 0, &sampled[r]);
    printf("%s (%s), %zu line requests:\n\n| lines | exact |", name, workload_size_name(size),
           st.count);
    for (int r = 0; r < RATES; r++)
        printf(" R = %g |", rates[r]);
    printf("\n|---:|---:|");
    for (int r = 0; r < RATES; r++)
        printf("---:|");
    printf("\n");
    double error[RATES] = {0};
    int points[RATES] = {0};
    for (int k = 0; k < CAPACITIES; k++) {
        uint64_t lines = UINT64_C(1) << k;
        double e = reuse_hist_miss_ratio(&exact, lines, 1.0);
        printf("| %llu | %.4f |", (unsigned long long)lines, e);
        for (int r = 0; r < RATES; r++) {
            double s = reuse_hist_miss_ratio(&sampled[r], lines, rates[r]);
            if (isnan(s)) {
                printf(" - |");
                continue;
            }
            printf(" %.4f |", s);
            error[r] += fabs(s - e);
            points[r]++;
        }
        printf("\n");
    }
    printf("| mean abs. error | |");
    for (int r = 0; r < RATES; r++)
        printf(" **%.4f** (%d sizes) |", points[r] ? error[r] / points[r] : NAN, points[r]);
    printf("\n| over %d seeds: mean (min-max) | |", SEEDS);
    for (int r = 0; r < RATES; r++) {
        seed_errors e = over_seeds(&st, &exact, rates[r]);
        printf(" %.4f (%.4f-%.4f); without SHARDS_adj %.4f |", e.mean, e.min, e.max, e.unadjusted);
    }
    printf("\n| M requests/s | %.1f |", (double)st.count / exact_seconds / 1e6);
    for (int r = 0; r < RATES; r++)
        printf(" %.1f |", (double)st.count / sampled_seconds[r] / 1e6);
    printf("\n\n");
    fflush(stdout);
    reuse_hist_clear(&exact);
    for (int r = 0; r < RATES; r++)
        reuse_hist_clear(&sampled[r]);
    line_stream_free(&st);
}

int main(int argc, char **argv)
{
    workload_size size = SIZE_LARGE;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
                   workload_size_parse(argv[i + 1]) >= 0) {
            size = (workload_size)workload_size_parse(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_shards [--size small|medium|large] [--only gemm|bfs|spmv]\n");
            return 2;
        }
    }
    static const char *const names[] = {"gemm", "bfs", "spmv"};
    printf("## Sampled reuse distance (SHARDS, `analyze --sample R`)\n\n");
    printf("Miss ratio of a fully-associative LRU from the global line stream's reuse "
           "distances, exact and sampled (SHARDS_adj, distances spread over their "
           "sampling step); \"-\": a size below 1 / R lines, which the sample cannot "
           "resolve (reported as null).  The first %llu M global-load line requests of "
           "each trace, in the rr,gto issue order on fermi.\n\n",
           (unsigned long long)(TRACE_LINES >> 20));
    for (int w = 0; w < 3; w++)
        if (!only || !strcmp(only, names[w]))
            trace_section(names[w], size);
    return 0;
}
