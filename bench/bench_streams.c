/* bench/bench_streams.c: the emulated traces' line streams, for other tools.
 *
 * To set warpscope's exact reuse distance beside public tools (libCacheSim's
 * cachesim, distUtil and SHARDS mrcProfiler; parda) on the very same access
 * streams, bench/peers.sh needs the streams in files those tools read.  The
 * streams are the ones bench_reuse measures (bench/line_stream.h): the
 * global-load line requests (128-byte line ids, every SM's interleaved: the
 * global scope) of gemm, bfs and spmv in the analyzer's issue order (the
 * rr,gto replay on fermi), the first 24 M of each (whole instructions, so a
 * few more) unless --max says otherwise.
 *
 *   bench_streams --out DIR [--size small|medium|large] [--max N] [gemm] [bfs] [spmv]
 *       writes, per trace, DIR/NAME.oracleGeneral.bin, libCacheSim's
 *       oracleGeneral format: packed little-endian 24-byte records {u32 clock
 *       time (0), u64 object id (the line id), u32 object size (128), i64 next
 *       access (the 1-based number of the line's next request, -1 if none)};
 *       and DIR/NAME.parda.txt, parda's text input: one line id a line, in hex
 *       (parda reads tokens of up to 19 characters).  Prints a line per trace:
 *       name, requests, distinct lines, tab-separated.
 *   bench_streams --mrc FILE
 *       reads an oracleGeneral file back and runs exact reuse distance
 *       (analyzer/reuse.c, one state, the batch path) over it: the stream's
 *       length, distinct lines, seconds in the reuse work, and the LRU miss
 *       ratio at 1, 2, 4, ..., 65536 lines, tab-separated.  peers.sh times
 *       this end to end, file reading included, like each peer.
 *   bench_streams --lru LINES FILE
 *       reads an oracleGeneral file back through one fully-associative LRU
 *       of LINES lines (analyzer/falru.c, what the 3C split and the locality
 *       windows use): requests, misses, miss ratio and seconds in the cache
 *       work, tab-separated.  peers.sh times it beside cachesim's LRU at the
 *       same size, file reading included.
 *   bench_streams [--size small|medium|large] [--max N]   (`make bench`)
 *       the same curves computed in memory, as a Markdown section: the
 *       reference the peers' curves are measured against.
 *
 * Defaults: --size large, --max 24 M (0 = the whole trace). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/falru.h"
#include "analyzer/nextuse.h"
#include "analyzer/reuse.h"
#include "bench/line_stream.h"

#define LINE_BYTES 128
#define RECORD_BYTES 24 /* oracleGeneral */
#define CURVE_POINTS 17 /* 1 .. 65536 lines */
#define CHUNK 65536

static void die(const char *what, const char *msg)
{
    fprintf(stderr, "bench_streams: %s: %s\n", what, msg);
    exit(1);
}

/* ---- writing ------------------------------------------------------------ */

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

static FILE *open_out(const char *dir, const char *name, const char *suffix, char *path, size_t cap)
{
    snprintf(path, cap, "%s/%s.%s", dir, name, suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        die(path, strerror(errno));
    setvbuf(f, NULL, _IOFBF, 1 << 20);
    return f;
}

static void close_out(FILE *f, const char *path)
{
    if (ferror(f) | fclose(f))
        die(path, "write failed");
}

/* Writes both files; returns the distinct lines (the requests with no next
 * access). */
static uint64_t write_stream(const line_stream *st, const char *dir, const char *name)
{
    ws_error err;
    nextuse *nu = nextuse_new(&err);
    for (size_t i = 0; i < st->count && nu; i++)
        if (nextuse_record(nu, st->lines[i], &err) != 0)
            die("next access", err.msg);
    if (!nu || nextuse_finish(nu, &err) != 0)
        die("next access", err.msg);
    char bin_path[512], txt_path[512];
    FILE *bin = open_out(dir, name, "oracleGeneral.bin", bin_path, sizeof bin_path);
    FILE *txt = open_out(dir, name, "parda.txt", txt_path, sizeof txt_path);
    uint64_t distinct = 0;
    for (size_t i = 0; i < st->count; i++) {
        uint64_t next;
        if (nextuse_read(nu, &next, &err) != 0)
            die("next access", err.msg);
        distinct += next == NEXTUSE_NEVER;
        unsigned char rec[RECORD_BYTES];
        put_u32(rec, 0);
        put_u64(rec + 4, st->lines[i]);
        put_u32(rec + 12, LINE_BYTES);
        put_u64(rec + 16, next == NEXTUSE_NEVER ? UINT64_MAX /* -1 */ : next + 1);
        fwrite(rec, sizeof rec, 1, bin);
        fprintf(txt, "%llx\n", (unsigned long long)st->lines[i]);
    }
    nextuse_free(nu);
    close_out(bin, bin_path);
    close_out(txt, txt_path);
    return distinct;
}

/* ---- the exact curve ---------------------------------------------------- */

typedef struct curve {
    reuse_hist hist;   /* exact distances of every request */
    uint64_t distinct;
    double seconds;    /* in the reuse work only */
    reuse_state *state;
} curve;

static void curve_init(curve *cv)
{
    memset(cv, 0, sizeof *cv);
    ws_error err;
    if (!(cv->state = reuse_state_new(NULL, &err)) || reuse_hist_init(&cv->hist, 0, &err) != 0)
        die("reuse state", err.msg);
}

static void curve_feed(curve *cv, const uint64_t *keys, size_t n)
{
    cv->seconds += bench_reuse_feed(cv->state, keys, n, &cv->hist);
}

static void curve_finish(curve *cv)
{
    cv->distinct = reuse_state_keys(cv->state);
    reuse_state_free(cv->state);
    cv->state = NULL;
}

/* An LRU cache of 2^j lines hits exactly the requests at distance < 2^j. */
static double curve_miss_ratio(const curve *cv, int j)
{
    return reuse_hist_miss_ratio(&cv->hist, UINT64_C(1) << j, 1.0);
}

/* Feeds an oracleGeneral file's object ids to feed(ctx, keys, n), a chunk
 * at a time. */
static void read_keys(const char *path, void (*feed)(void *, const uint64_t *, size_t), void *ctx)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        die(path, strerror(errno));
    static unsigned char records[CHUNK * RECORD_BYTES];
    static uint64_t keys[CHUNK];
    size_t n;
    while ((n = fread(records, RECORD_BYTES, CHUNK, f)) > 0) {
        for (size_t i = 0; i < n; i++)
            memcpy(&keys[i], records + i * RECORD_BYTES + 4, sizeof keys[i]); /* little-endian */
        feed(ctx, keys, n);
    }
    if (ferror(f))
        die(path, "read failed");
    fclose(f);
}

static void feed_curve(void *cv, const uint64_t *keys, size_t n) { curve_feed(cv, keys, n); }

typedef struct lru_run {
    falru *cache;
    uint64_t requests, misses;
    double seconds;
} lru_run;

static void feed_lru(void *ctx, const uint64_t *keys, size_t n)
{
    lru_run *run = ctx;
    ws_error err;
    double start = bench_seconds();
    for (size_t i = 0; i < n; i++)
        run->misses += falru_access(run->cache, keys[i], &err) == 0;
    run->seconds += bench_seconds() - start;
    run->requests += n;
}

static int lru_file(uint32_t lines, const char *path)
{
    ws_error err;
    lru_run run = {.cache = falru_new(lines, &err)};
    if (!run.cache)
        die("falru", err.msg);
    read_keys(path, feed_lru, &run);
    falru_free(run.cache);
    printf("requests\t%llu\nmisses\t%llu\nmiss_ratio\t%.6f\nlru_seconds\t%.3f\n",
           (unsigned long long)run.requests, (unsigned long long)run.misses,
           run.requests ? (double)run.misses / run.requests : 0.0, run.seconds);
    return 0;
}

static int mrc_file(const char *path)
{
    curve cv;
    curve_init(&cv);
    read_keys(path, feed_curve, &cv);
    curve_finish(&cv);
    printf("requests\t%llu\ndistinct\t%llu\nreuse_seconds\t%.3f\n",
           (unsigned long long)cv.hist.total, (unsigned long long)cv.distinct, cv.seconds);
    printf("lines\tmiss_ratio\n");
    for (int j = 0; j < CURVE_POINTS; j++)
        printf("%llu\t%.6f\n", 1ULL << j, curve_miss_ratio(&cv, j));
    return 0;
}

int main(int argc, char **argv)
{
    static const char *const names[] = {"gemm", "bfs", "spmv"};
    workload_size size = SIZE_LARGE;
    size_t max = (size_t)24 << 20;
    const char *out = NULL, *mrc = NULL;
    uint32_t lru_lines = 0;
    int only[3] = {0, 0, 0}, any = 0; /* trace names given: only those */
    for (int i = 1; i < argc; i++) {
        int w = 0;
        while (w < 3 && strcmp(argv[i], names[w]))
            w++;
        if (w < 3) {
            only[w] = any = 1;
            continue;
        }
        if (!strcmp(argv[i], "--size") && i + 1 < argc && workload_size_parse(argv[i + 1]) >= 0) {
            size = (workload_size)workload_size_parse(argv[++i]);
        } else if (!strcmp(argv[i], "--max") && i + 1 < argc) {
            max = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--mrc") && i + 1 < argc) {
            mrc = argv[++i];
        } else if (!strcmp(argv[i], "--lru") && i + 2 < argc && atoi(argv[i + 1]) > 0) {
            lru_lines = (uint32_t)atoi(argv[++i]);
            mrc = argv[++i];
        } else {
            fprintf(stderr, "usage: bench_streams [--out DIR] [--size small|medium|large] [--max N] "
                            "[gemm] [bfs] [spmv]\n"
                            "       bench_streams --mrc FILE.oracleGeneral.bin\n"
                            "       bench_streams --lru LINES FILE.oracleGeneral.bin\n");
            return 2;
        }
    }
    if (mrc)
        return lru_lines ? lru_file(lru_lines, mrc) : mrc_file(mrc);

    curve curves[3];
    for (int w = 0; w < 3; w++) {
        curves[w] = (curve){0};
        if (any && !only[w])
            continue;
        line_stream st = line_stream_of(names[w], size, max);
        if (out) {
            uint64_t distinct = write_stream(&st, out, names[w]);
            printf("%s\t%zu\t%llu\n", names[w], st.count, (unsigned long long)distinct);
            fflush(stdout);
        } else {
            curve_init(&curves[w]);
            curve_feed(&curves[w], st.lines, st.count);
            curve_finish(&curves[w]);
        }
        line_stream_free(&st);
    }
    if (out)
        return 0;

    printf("## The streams bench/peers.sh compares (`bench/bench_streams.c`)\n\n");
    char first[64] = "all";
    if (max)
        snprintf(first, sizeof first, "the first %.0f M", max / 1048576.0);
    printf("The global-load line requests of the emulated traces (%s, %s of each; all SMs' "
           "in the rr,gto issue order on fermi), one exact reuse state each: the exact LRU "
           "miss ratio at each fully-associative capacity (128 B lines).  bench/peers.sh "
           "writes the same streams for libCacheSim and parda and sets their curves beside these.\n\n",
           workload_size_name(size), first);
    printf("| lines |");
    for (int w = 0; w < 3; w++)
        if (curves[w].hist.total)
            printf(" %s |", names[w]);
    printf("\n|---:|");
    for (int w = 0; w < 3; w++)
        if (curves[w].hist.total)
            printf("---:|");
    for (int j = 0; j < CURVE_POINTS + 3; j++) {
        if (j < CURVE_POINTS)
            printf("\n| %llu |", 1ULL << j);
        else
            printf("\n| %s |", (const char *[]){"requests", "distinct lines",
                                                "reuse M requests/s"}[j - CURVE_POINTS]);
        for (int w = 0; w < 3; w++) {
            const curve *cv = &curves[w];
            if (!cv->hist.total)
                continue;
            if (j < CURVE_POINTS)
                printf(" %.4f |", curve_miss_ratio(cv, j));
            else if (j == CURVE_POINTS)
                printf(" %llu |", (unsigned long long)cv->hist.total);
            else if (j == CURVE_POINTS + 1)
                printf(" %llu |", (unsigned long long)cv->distinct);
            else
                printf(" %.1f |", cv->hist.total / cv->seconds / 1e6);
        }
    }
    printf("\n");
    return 0;
}
