/* bench/line_stream.h: the global-load line streams of the emulated traces,
 * for the benchmarks that measure a cache model or reuse distance on them.
 *
 * A stream holds the line ids (128-byte lines) of the global-load requests
 * in the analyzer's issue order: the rr,gto replay on fermi, every SM's
 * requests interleaved as the global scope sees them.  Collection stops
 * once `max` requests are in, an instruction's requests going in whole, as
 * bench_reuse collects its streams, so the benchmarks see the same streams. */
#ifndef WS_BENCH_LINE_STREAM_H
#define WS_BENCH_LINE_STREAM_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyzer/config.h"
#include "analyzer/replay.h"
#include "analyzer/reuse.h"
#include "bench/bench_clock.h"
#include "bench/bench_traces.h"
#include "formats/wst.h"

typedef struct line_stream {
    uint64_t *lines;
    uint16_t *sms; /* the SM of each request */
    size_t count, cap, max;
} line_stream;

static inline int line_stream_collect(void *ctx, const replay_issue *is, const ws_request *rq,
                                      int n, ws_error *err)
{
    line_stream *st = ctx;
    if (is->kind != WST_LOAD || is->space != WST_GLOBAL)
        return 0;
    if (st->max && st->count >= st->max)
        return ws_fail(err, "enough");
    if (st->count + (size_t)n > st->cap) {
        st->cap = st->cap ? st->cap * 2 : 1 << 20;
        st->lines = realloc(st->lines, st->cap * sizeof *st->lines);
        st->sms = realloc(st->sms, st->cap * sizeof *st->sms);
        if (!st->lines || !st->sms)
            return ws_fail(err, "out of memory");
    }
    for (int i = 0; i < n; i++) {
        st->lines[st->count] = rq[i].line_addr >> 7;
        st->sms[st->count++] = (uint16_t)is->sm;
    }
    return 0;
}

/* Replays a workload's trace (recorded now unless an earlier benchmark left
 * it) on fermi in the rr,gto issue order, calling observe for every issued
 * instruction; an observer stops the pass early by failing with "enough".
 * Exits on any other error.  Returns fermi's warp slots per SM. */
static inline uint32_t bench_observe(const char *name, workload_size size,
                                     int (*observe)(void *ctx, const replay_issue *issue,
                                                    const ws_request *requests, int n,
                                                    ws_error *err),
                                     void *ctx)
{
    char path[256];
    bench_trace(name, size, path, sizeof path);
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    gpu_config c;
    if (!r || config_load(&c, "fermi", &err) != 0) {
        fprintf(stderr, "bench: %s: %s\n", path, err.msg);
        exit(1);
    }
    sched_source src = sched_source_wst(r);
    replay_options ro;
    replay_options_default(&ro);
    ro.observe = observe;
    ro.observe_ctx = ctx;
    if (replay_run(&src, &c, &ro, NULL, 0, NULL, NULL, &err) != 0 && strcmp(err.msg, "enough")) {
        fprintf(stderr, "bench: %s: %s\n", path, err.msg);
        exit(1);
    }
    wst_reader_close(r);
    return c.max_warps_per_sm;
}

/* The first `max` (0 = every) global-load line requests of a workload's
 * trace. */
static inline line_stream line_stream_of(const char *name, workload_size size, size_t max)
{
    line_stream st = {.max = max};
    bench_observe(name, size, line_stream_collect, &st);
    return st;
}

/* keys through one reuse state into hist, REUSE_FEED_BATCH at a time as analyze
 * feeds them; returns the seconds spent in the reuse work alone.  Exits
 * when memory runs out. */
enum { REUSE_FEED_BATCH = 512 };
static inline double bench_reuse_feed(reuse_state *state, const uint64_t *keys, size_t n,
                                      reuse_hist *hist)
{
    uint64_t distances[REUSE_FEED_BATCH];
    double seconds = 0;
    for (size_t at = 0; at < n; at += REUSE_FEED_BATCH) {
        size_t len = n - at < REUSE_FEED_BATCH ? n - at : REUSE_FEED_BATCH;
        double start = bench_seconds();
        reuse_access_batch(state, keys + at, len, distances, NULL);
        seconds += bench_seconds() - start;
        for (size_t i = 0; i < len; i++) {
            if (distances[i] == REUSE_FAILED) {
                fprintf(stderr, "bench: reuse distance: out of memory\n");
                exit(1);
            }
            reuse_hist_add(hist, distances[i]);
        }
    }
    return seconds;
}

static inline void line_stream_free(line_stream *st)
{
    free(st->lines);
    free(st->sms);
    memset(st, 0, sizeof *st);
}

#endif
