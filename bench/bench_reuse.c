/* bench/bench_reuse.c: throughput and memory of exact reuse distance
 * (analyzer/reuse.c, SPEC §3) on a synthetic GPU-like line stream.
 *
 * The stream mixes what GPU kernels do to L2 lines: half streaming through a
 * 2 M-line array (re-read when it wraps), 30% looping over 512-line tiles
 * (8 passes per tile, 1024 tiles), 20% random over 1 M lines; about 3.5 M
 * distinct lines.  Prints a Markdown section.
 *
 *   bench_reuse [--accesses N]   (default 30 M) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/reuse.h"

#define CHUNK 65536
#define SMS 15
#define STREAM_LINES (UINT64_C(2) << 20)
#define TILE_LINES 512
#define TILE_PASSES 8
#define TILES 1024
#define RANDOM_LINES (UINT64_C(1) << 20)

typedef struct stream_gen {
    uint64_t rng, stream_pos, tile_pos;
} stream_gen;

static uint64_t gen_rand(stream_gen *g)
{
    g->rng ^= g->rng << 13;
    g->rng ^= g->rng >> 7;
    g->rng ^= g->rng << 17;
    return g->rng;
}

/* Line ids of three arrays 1 GB apart (128 B lines). */
static void gen_fill(stream_gen *g, uint64_t *keys, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        uint64_t r = gen_rand(g);
        unsigned kind = (unsigned)(r % 100);
        if (kind < 50) {
            keys[i] = (UINT64_C(1) << 23) + g->stream_pos++ % STREAM_LINES;
        } else if (kind < 80) {
            uint64_t t = g->tile_pos++;
            uint64_t tile = t / (TILE_LINES * TILE_PASSES) % TILES;
            keys[i] = (UINT64_C(2) << 23) + tile * TILE_LINES + t % TILE_LINES;
        } else {
            keys[i] = (UINT64_C(3) << 23) + (r >> 20) % RANDOM_LINES;
        }
    }
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct run_result {
    double seconds;      /* in reuse_access only */
    uint64_t checksum;   /* keeps the work observable */
    size_t state_bytes;
    uint64_t keys;
} run_result;

/* scopes = 1: global; else accesses go to SM (i / 32) % scopes. */
static run_result run(uint64_t accesses, unsigned scopes)
{
    run_result result = {0};
    reuse_state *states[SMS];
    for (unsigned s = 0; s < scopes; s++)
        if (!(states[s] = reuse_state_new(NULL, NULL)))
            exit(1);
    uint64_t *keys = malloc(CHUNK * sizeof *keys), *distances = malloc(CHUNK * sizeof *keys);
    stream_gen gen = {.rng = 88172645463325252ULL};
    for (uint64_t done = 0; done < accesses;) {
        size_t n = accesses - done < CHUNK ? (size_t)(accesses - done) : CHUNK;
        gen_fill(&gen, keys, n);
        double start = now_seconds();
        /* Global: one batch per chunk; per SM: batches of 32 accesses (one
         * instruction's worth), SMs in turn. */
        size_t batch = scopes == 1 ? n : 32;
        for (size_t i = 0; i < n; i += batch) {
            size_t len = n - i < batch ? n - i : batch;
            reuse_access_batch(states[(done + i) / 32 % scopes], keys + i, len, distances + i, NULL);
        }
        for (size_t i = 0; i < n; i++)
            result.checksum += distances[i];
        result.seconds += now_seconds() - start;
        done += n;
    }
    for (unsigned s = 0; s < scopes; s++) {
        result.state_bytes += reuse_state_bytes(states[s]);
        result.keys += reuse_state_keys(states[s]);
        reuse_state_free(states[s]);
    }
    free(keys);
    free(distances);
    return result;
}

/* Runs the global scope in a child process; returns its peak RSS in KiB. */
static long peak_rss_kib(uint64_t accesses, size_t *state_bytes)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        run_result r = run(accesses, 1);
        ssize_t ignored = write(fds[1], &r.state_bytes, sizeof r.state_bytes);
        (void)ignored;
        _exit(0);
    }
    close(fds[1]);
    if (read(fds[0], state_bytes, sizeof *state_bytes) != sizeof *state_bytes)
        *state_bytes = 0;
    close(fds[0]);
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) < 0)
        return -1;
    return usage.ru_maxrss;
}

int main(int argc, char **argv)
{
    uint64_t accesses = 30000000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--accesses") && i + 1 < argc) {
            accesses = strtoull(argv[++i], NULL, 10);
        } else {
            fprintf(stderr, "usage: bench_reuse [--accesses N]\n");
            return 2;
        }
    }
    if (accesses < 2) {
        fprintf(stderr, "bench_reuse: --accesses must be at least 2\n");
        return 2;
    }
    run_result global = run(accesses, 1);
    run_result per_sm = run(accesses, SMS);
    size_t half_bytes = 0, full_bytes = 0;
    long half_rss = peak_rss_kib(accesses / 2, &half_bytes);
    long full_rss = peak_rss_kib(accesses, &full_bytes);

    printf("## Exact reuse distance (analyzer/reuse.c)\n\n");
    printf("Synthetic GPU-like line stream: 50%% streaming over 2 M lines, 30%% looping "
           "512-line tiles, 20%% random over 1 M lines. Time counts `reuse_access` only. "
           "Target: 10 M accesses/s on one core.\n\n");
    printf("| scope | accesses | distinct lines | M accesses/s | state MiB |\n");
    printf("|---|---:|---:|---:|---:|\n");
    printf("| global | %llu | %llu | %.2f | %.1f |\n", (unsigned long long)accesses,
           (unsigned long long)global.keys, accesses / global.seconds / 1e6,
           global.state_bytes / 1048576.0);
    printf("| per SM (%d states) | %llu | %llu | %.2f | %.1f |\n", SMS,
           (unsigned long long)accesses, (unsigned long long)per_sm.keys,
           accesses / per_sm.seconds / 1e6, per_sm.state_bytes / 1048576.0);
    printf("\nPeak memory of the global scope alone (same key set, two lengths):\n\n");
    printf("| accesses | peak RSS MiB | state MiB |\n|---:|---:|---:|\n");
    printf("| %llu | %.1f | %.1f |\n", (unsigned long long)(accesses / 2), half_rss / 1024.0,
           half_bytes / 1048576.0);
    printf("| %llu | %.1f | %.1f |\n", (unsigned long long)accesses, full_rss / 1024.0,
           full_bytes / 1048576.0);
    printf("\n(checksum %llx)\n", (unsigned long long)(global.checksum ^ per_sm.checksum));
    return 0;
}
