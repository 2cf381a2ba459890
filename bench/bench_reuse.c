/* bench/bench_reuse.c: throughput and memory of exact reuse distance
 * (analyzer/reuse.c, docs/metrics.md §3).
 *
 * First, the real thing: the global-load line and sector streams of the large
 * emulated traces (gemm, bfs, spmv; up to TRACE_LINES line requests each) in
 * the analyzer's issue order, through the three scopes exactly as `analyze`
 * feeds them (pending lists of 512 accesses through reuse_access_each,
 * per-warp states reset for a slot's next warp).  One core; the time counts
 * the reuse work only, not decoding.
 *
 * Then a stress case: a synthetic line stream that mixes what GPU kernels do
 * to L2 lines, half streaming through a 2 M-line array (re-read when it
 * wraps), 30% looping over 512-line tiles (8 passes per tile, 1024 tiles), 20%
 * random over 1 M lines; about 3.5 M distinct lines, so most table lookups
 * miss every CPU cache.  Prints a Markdown section.
 *
 *   bench_reuse [--accesses N] [--size small|medium|large]   (defaults 30 M, large) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/reuse.h"
#include "bench/line_stream.h"

#define CHUNK 65536
#define PENDING 512 /* accesses fed together, as analyze does */
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
        double start = bench_seconds();
        /* Runs of 32 accesses (one instruction's worth) go to the SMs in
         * turn, fed as analyze feeds them: PENDING at a time. */
        for (size_t i = 0; i < n; i += PENDING) {
            size_t len = n - i < PENDING ? n - i : PENDING;
            reuse_state *pending[PENDING];
            for (size_t j = 0; j < len; j++)
                pending[j] = states[(done + i + j) / 32 % scopes];
            reuse_access_each(pending, keys + i, len, distances + i, NULL);
        }
        for (size_t i = 0; i < n; i++)
            result.checksum += distances[i];
        result.seconds += bench_seconds() - start;
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

/* ---- the emulated traces' streams --------------------------------------- */

#define TRACE_LINES (UINT64_C(24) << 20)

/* One granularity's accesses in issue order, with who issued each. */
typedef struct access_stream {
    uint64_t *keys;
    uint32_t *warps;   /* unique warp id */
    uint16_t *slots;   /* SM × warp slots + slot */
    uint8_t *sms;
    size_t count, cap;
} access_stream;

typedef struct trace_streams {
    access_stream gran[2]; /* line, sector */
    uint32_t warp_slots;   /* per SM */
} trace_streams;

static void stream_push(access_stream *st, uint64_t key, const replay_issue *is, uint32_t slots)
{
    if (st->count == st->cap) {
        st->cap = st->cap ? st->cap * 2 : 1 << 20;
        st->keys = realloc(st->keys, st->cap * sizeof *st->keys);
        st->warps = realloc(st->warps, st->cap * sizeof *st->warps);
        st->slots = realloc(st->slots, st->cap * sizeof *st->slots);
        st->sms = realloc(st->sms, st->cap * sizeof *st->sms);
        if (!st->keys || !st->warps || !st->slots || !st->sms)
            exit(1);
    }
    st->keys[st->count] = key;
    st->warps[st->count] = is->warp;
    st->slots[st->count] = (uint16_t)(is->sm * slots + is->warp_slot);
    st->sms[st->count++] = (uint8_t)is->sm;
}

/* Collects the global loads' keys; stops the pass (an error the caller
 * expects) once TRACE_LINES line requests are in. */
static int collect(void *ctx, const replay_issue *is, const ws_request *rq, int n, ws_error *err)
{
    trace_streams *t = ctx;
    if (is->kind != WST_LOAD || is->space != WST_GLOBAL)
        return 0;
    if (t->gran[0].count >= TRACE_LINES)
        return ws_fail(err, "enough");
    for (int i = 0; i < n; i++) {
        stream_push(&t->gran[0], rq[i].line_addr >> 7, is, t->warp_slots);
        for (unsigned bits = rq[i].sector_mask; bits; bits &= bits - 1)
            stream_push(&t->gran[1], rq[i].line_addr / 32 + (unsigned)__builtin_ctz(bits), is,
                        t->warp_slots);
    }
    return 0;
}

enum { SCOPE_GLOBAL, SCOPE_SM, SCOPE_WARP };

/* Runs n pending accesses into the checksum; returns 0 (none pending). */
static size_t feed(reuse_state *const *pending, const uint64_t *keys, size_t n, uint64_t *sum)
{
    uint64_t distances[PENDING], times[PENDING];
    reuse_access_each(pending, keys, n, distances, times);
    for (size_t j = 0; j < n; j++)
        *sum += distances[j] + times[j];
    return 0;
}

/* Seconds to run one granularity's stream through one scope as analyze
 * does: 15 SMs, 15 × 48 warp slots. */
static double run_scope(const access_stream *st, int scope, uint32_t slot_count, uint64_t *sum)
{
    uint32_t states_n = scope == SCOPE_GLOBAL ? 1 : scope == SCOPE_SM ? SMS : slot_count;
    reuse_state **states = calloc(states_n, sizeof *states);
    uint32_t *owner = calloc(states_n, sizeof *owner);
    for (uint32_t i = 0; i < states_n; i++) {
        states[i] = reuse_state_new(NULL, NULL);
        owner[i] = UINT32_MAX;
    }
    reuse_state *pending[PENDING];
    uint64_t keys[PENDING];
    size_t n = 0;
    double start = bench_seconds();
    for (size_t i = 0; i < st->count; i++) {
        uint32_t at = scope == SCOPE_GLOBAL ? 0 : scope == SCOPE_SM ? st->sms[i] : st->slots[i];
        if (scope == SCOPE_WARP && owner[at] != st->warps[i]) {
            n = feed(pending, keys, n, sum); /* the old warp's accesses first */
            reuse_state_reset(states[at]);
            owner[at] = st->warps[i];
        }
        pending[n] = states[at];
        keys[n++] = st->keys[i];
        if (n == PENDING)
            n = feed(pending, keys, n, sum);
    }
    feed(pending, keys, n, sum);
    double seconds = bench_seconds() - start;
    for (uint32_t i = 0; i < states_n; i++)
        reuse_state_free(states[i]);
    free(states);
    free(owner);
    return seconds;
}

static void stream_free(access_stream *st)
{
    free(st->keys);
    free(st->warps);
    free(st->slots);
    free(st->sms);
}

static uint64_t trace_table(workload_size size, const char *only)
{
    static const char *const names[] = {"gemm", "bfs", "spmv"};
    static const char *const scopes[] = {"global", "per SM", "per warp"};
    uint64_t sum = 0;
    printf("| trace | line requests | scope | lines M/s | sectors M/s |\n"
           "|---|---:|---|---:|---:|\n");
    double total_accesses = 0, total_seconds = 0;
    for (int w = 0; w < 3; w++) {
        if (only && strcmp(only, names[w]))
            continue;
        trace_streams t = {0};
        t.warp_slots = bench_observe(names[w], size, collect, &t);
        for (int scope = 0; scope < 3; scope++) {
            uint32_t slots = SMS * t.warp_slots;
            double line_s = run_scope(&t.gran[0], scope, slots, &sum);
            double sector_s = run_scope(&t.gran[1], scope, slots, &sum);
            printf("| %s (%s) | %zu | %s | %.1f | %.1f |\n", names[w], workload_size_name(size),
                   t.gran[0].count, scopes[scope], t.gran[0].count / line_s / 1e6,
                   t.gran[1].count / sector_s / 1e6);
            total_accesses += (double)t.gran[0].count + (double)t.gran[1].count;
            total_seconds += line_s + sector_s;
        }
        fflush(stdout);
        stream_free(&t.gran[0]);
        stream_free(&t.gran[1]);
    }
    printf("\nAll of it: %.0f M accesses in %.1f s, **%.1f M accesses/s** on one core.\n\n",
           total_accesses / 1e6, total_seconds, total_accesses / total_seconds / 1e6);
    return sum;
}

int main(int argc, char **argv)
{
    uint64_t accesses = 30000000;
    workload_size size = SIZE_LARGE;
    const char *only = NULL; /* one trace and no stress case: for profiling */
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--accesses") && i + 1 < argc) {
            accesses = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--only") && i + 1 < argc) {
            only = argv[++i];
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc &&
                   workload_size_parse(argv[i + 1]) >= 0) {
            size = (workload_size)workload_size_parse(argv[++i]);
        } else {
            fprintf(stderr, "usage: bench_reuse [--accesses N] [--size small|medium|large] "
                            "[--only gemm|bfs|spmv]\n");
            return 2;
        }
    }
    if (accesses < 2) {
        fprintf(stderr, "bench_reuse: --accesses must be at least 2\n");
        return 2;
    }

    printf("## Exact reuse distance (analyzer/reuse.c)\n\n");
    printf("Target: 10 M line requests/s on one core.  The global-load streams of the "
           "emulated traces (the first %llu M line requests of each, in the rr,gto issue "
           "order on fermi), through each scope as `analyze` feeds it; the sector streams "
           "hold the same requests' sectors.  Time counts the reuse work only.\n\n",
           (unsigned long long)(TRACE_LINES >> 20));
    uint64_t trace_sum = trace_table(size, only);
    if (only)
        return 0;
    run_result global = run(accesses, 1);
    run_result per_sm = run(accesses, SMS);
    size_t half_bytes = 0, full_bytes = 0;
    long half_rss = peak_rss_kib(accesses / 2, &half_bytes);
    long full_rss = peak_rss_kib(accesses, &full_bytes);
    printf("Stress case: a synthetic line stream, 50%% streaming over 2 M lines, 30%% looping "
           "512-line tiles, 20%% random over 1 M lines (3.5 M distinct lines: most table "
           "lookups miss every CPU cache).\n\n");
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
    printf("\n(checksum %llx)\n", (unsigned long long)(global.checksum ^ per_sm.checksum ^ trace_sum));
    return 0;
}
