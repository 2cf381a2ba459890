/* bench/bench_falru.c: the fully-associative LRU (analyzer/falru.c), which
 * the 3C split (docs/metrics.md §8) and the locality windows (§4) run beside
 * every L1.
 *
 * The global-load line streams of gemm, bfs and spmv (the first TRACE_LINES
 * line requests, in the rr,gto issue order on fermi), each request to its
 * SM's cache (15 caches), at 16 KB (128 lines, fermi's L1) and 192 KB (1536
 * lines, the largest L1 of the presets); then a synthetic stream of
 * consecutive lines (8 streams of 64 k lines each, interleaved, every line
 * read twice in a row), the pattern that makes open-addressing maps
 * cluster.  One core.  Prints a Markdown section: M requests/s and hit rate.
 *
 *   bench_falru [--size small|medium|large]   (default large) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/falru.h"
#include "bench/line_stream.h"

#define TRACE_LINES (UINT64_C(24) << 20)
#define SMS 15
#define SYNTHETIC (UINT64_C(16) << 20)

/* Requests per second through one cache per SM of `lines` lines;
 * *hit_rate receives the hit rate. */
static double run(const line_stream *st, uint32_t lines, double *hit_rate)
{
    falru *caches[SMS];
    ws_error err;
    for (int s = 0; s < SMS; s++)
        if (!(caches[s] = falru_new(lines, &err))) {
            fprintf(stderr, "bench_falru: %s\n", err.msg);
            exit(1);
        }
    uint64_t hits = 0;
    double start = bench_seconds();
    for (size_t i = 0; i < st->count; i++)
        hits += (uint64_t)falru_access(caches[st->sms[i] % SMS], st->lines[i], &err);
    double seconds = bench_seconds() - start;
    for (int s = 0; s < SMS; s++)
        falru_free(caches[s]);
    *hit_rate = st->count ? (double)hits / (double)st->count : 0;
    return (double)st->count / seconds;
}

/* 8 interleaved streams over consecutive lines, each line read twice. */
static line_stream synthetic(void)
{
    line_stream st = {.count = SYNTHETIC};
    st.lines = malloc(SYNTHETIC * sizeof *st.lines);
    st.sms = malloc(SYNTHETIC * sizeof *st.sms);
    if (!st.lines || !st.sms)
        exit(1);
    for (size_t i = 0; i < SYNTHETIC; i++) {
        uint64_t stream = i % 8, step = i / 8;
        st.lines[i] = (stream << 24) + (step / 2) % (UINT64_C(64) << 10);
        st.sms[i] = (uint16_t)(stream % SMS);
    }
    return st;
}

static void row(const char *what, const line_stream *st)
{
    static const uint32_t sizes[] = {128, 1536};
    printf("| %s | %zu |", what, st->count);
    for (size_t k = 0; k < 2; k++) {
        double hit, rate = run(st, sizes[k], &hit);
        printf(" %.1f | %.1f%% |", rate / 1e6, 100 * hit);
    }
    printf("\n");
    fflush(stdout);
}

int main(int argc, char **argv)
{
    workload_size size = SIZE_LARGE;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc && workload_size_parse(argv[i + 1]) >= 0) {
            size = (workload_size)workload_size_parse(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_falru [--size small|medium|large]\n");
            return 2;
        }
    }
    printf("## Fully-associative LRU (`bench/bench_falru.c`)\n\n");
    printf("One cache per SM (15) of 16 KB (128 lines) and 192 KB (1536 lines), each fed "
           "its SM's global-load line requests in the rr,gto issue order on fermi (the "
           "first %llu M); then 8 interleaved streams of consecutive lines, each line read "
           "twice.  One core.\n\n",
           (unsigned long long)(TRACE_LINES >> 20));
    printf("| stream | requests | 16 KB M req/s | hit rate | 192 KB M req/s | hit rate |\n"
           "|---|---:|---:|---:|---:|---:|\n");
    static const char *const names[] = {"gemm", "bfs", "spmv"};
    for (int w = 0; w < 3; w++) {
        line_stream st = line_stream_of(names[w], size, TRACE_LINES);
        char what[64];
        snprintf(what, sizeof what, "%s (%s)", names[w], workload_size_name(size));
        row(what, &st);
        line_stream_free(&st);
    }
    line_stream st = synthetic();
    row("consecutive lines", &st);
    line_stream_free(&st);
    return 0;
}
