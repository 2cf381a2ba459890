/* tests/test_falru.c: the fully-associative LRU (analyzer/falru.c) against a
 * plain reference: an array kept in recency order, searched from the front. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/falru.h"

typedef struct ref_lru {
    uint64_t *lines; /* [0] most recent */
    uint32_t used, capacity;
} ref_lru;

static int ref_access(ref_lru *r, uint64_t line)
{
    uint32_t at = 0;
    while (at < r->used && r->lines[at] != line)
        at++;
    int hit = at < r->used;
    if (!hit)
        at = r->used < r->capacity ? r->used++ : r->capacity - 1; /* the LRU line goes */
    memmove(r->lines + 1, r->lines, at * sizeof *r->lines);
    r->lines[0] = line;
    return hit;
}

static void ref_invalidate(ref_lru *r, uint64_t line)
{
    for (uint32_t at = 0; at < r->used; at++)
        if (r->lines[at] == line) {
            memmove(r->lines + at, r->lines + at + 1, (r->used - at - 1) * sizeof *r->lines);
            r->used--;
            return;
        }
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

enum { CONSECUTIVE, STRIDED, MIXED };

/* Request i of a stream shape: interleaved runs of consecutive lines (what
 * GPU streams touch), lines 2^20 apart (every one in the same hash bucket
 * of a table indexed by low bits), or a mix with re-reads and far lines. */
static uint64_t stream_line(int shape, uint64_t i, uint64_t *rng)
{
    switch (shape) {
    case CONSECUTIVE:
        return ((i % 6) << 32) + (i / 6) / 2 % 5000; /* 6 streams, each line twice */
    case STRIDED:
        return (rng_next(rng) % 700) << 20;
    default: {
        uint64_t r = rng_next(rng) % 10;
        return r < 5 ? i / 3 % 4096 : r < 8 ? rng_next(rng) % 300 : rng_next(rng);
    }
    }
}

/* Every access's hit or miss matches the reference, at capacities from 1
 * line to an L1's 1536, with invalidations and flushes mixed in. */
Test(falru, matches_reference_lru)
{
    static const uint32_t capacities[] = {1, 2, 3, 128, 333, 1536};
    for (size_t c = 0; c < sizeof capacities / sizeof capacities[0]; c++)
        for (int shape = CONSECUTIVE; shape <= MIXED; shape++) {
            ws_error err;
            falru *f = falru_new(capacities[c], &err);
            cr_assert_not_null(f, "%s", err.msg);
            ref_lru ref = {calloc(capacities[c], sizeof(uint64_t)), 0, capacities[c]};
            uint64_t rng = 12345 + (uint64_t)shape, hits = 0;
            for (uint64_t i = 0; i < 60000; i++) {
                uint64_t line = stream_line(shape, i, &rng);
                if (i % 97 == 0) { /* a line leaves: another SM wrote it */
                    falru_invalidate(f, line);
                    ref_invalidate(&ref, line);
                    continue;
                }
                if (i == 30000) {
                    falru_flush(f);
                    ref.used = 0;
                }
                int want = ref_access(&ref, line), got = falru_access(f, line, &err);
                cr_assert_eq(got, want, "capacity %u, shape %d, access %llu: line %llx",
                             capacities[c], shape, (unsigned long long)i,
                             (unsigned long long)line);
                hits += (uint64_t)got;
            }
            if (capacities[c] >= 128) /* the streams' re-reads fit */
                cr_assert_gt(hits, 1000, "capacity %u, shape %d: hits", capacities[c], shape);
            free(ref.lines);
            falru_free(f);
        }
}

Test(falru, zero_lines_is_an_error)
{
    ws_error err;
    cr_assert_null(falru_new(0, &err));
    cr_assert_str_eq(err.msg, "out of memory");
}
