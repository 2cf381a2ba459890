/* bench/guard/guard_kernels.c: the inner loops scripts/bench-guard.sh times,
 * each a whole process whose CPU time is nearly all that loop.
 *
 * The guard compiles this one file against each side's library (the
 * headers and libwarpscope.a of the commit it builds), so both sides run
 * the same driver and only the library differs.  It reads nothing: each
 * stream is generated here, the same on both sides.  It includes only the
 * library's long-standing headers (an older side has no newer shared one),
 * so it generates bench_reuse's and bench_replay's streams itself.  Prints a checksum, so
 * the work cannot be optimised away and a change of answer shows.
 *
 *   guard_kernels reuse-global | reuse-sm   exact reuse distance (analyzer/reuse.c)
 *       on bench_reuse's stress stream (streaming, tiles, random: 3.5 M
 *       distinct lines), 12 M accesses, as analyze feeds it (512 at a time
 *       through reuse_access_each), one state or 15 per-SM states
 *   guard_kernels lru      30 M requests through 15 fermi L1s (16 KB, 4 ways,
 *       plain LRU, analyzer/cache.c), bench_replay's synthetic mix
 *   guard_kernels falru    the same stream through 15 fully-associative LRUs of
 *       128 lines (fermi's L1, as the 3C split; analyzer/falru.c) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/cache.h"
#include "analyzer/falru.h"
#include "analyzer/policy.h"
#include "analyzer/reuse.h"

#define SMS 15
#define PENDING 512

static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* bench_reuse's stress stream: 50% streaming over 2 M lines, 30% 512-line
 * tiles read 8 times each, 20% random over 1 M lines. */
static void stress_stream(uint64_t *keys, size_t count)
{
    uint64_t rng = 88172645463325252ULL, stream_pos = 0, tile_pos = 0;
    for (size_t i = 0; i < count; i++) {
        uint64_t r = next_random(&rng);
        unsigned kind = (unsigned)(r % 100);
        if (kind < 50) {
            keys[i] = (UINT64_C(1) << 23) + stream_pos++ % (UINT64_C(2) << 20);
        } else if (kind < 80) {
            uint64_t t = tile_pos++;
            keys[i] = (UINT64_C(2) << 23) + t / (512 * 8) % 1024 * 512 + t % 512;
        } else {
            keys[i] = (UINT64_C(3) << 23) + (r >> 20) % (UINT64_C(1) << 20);
        }
    }
}

static uint64_t reuse_scopes(unsigned scopes)
{
    size_t count = 12000000;
    uint64_t *keys = malloc(count * sizeof *keys), sum = 0;
    reuse_state *states[SMS];
    for (unsigned s = 0; s < scopes; s++)
        if (!keys || !(states[s] = reuse_state_new(NULL, NULL)))
            exit(1);
    stress_stream(keys, count);
    for (size_t i = 0; i < count; i += PENDING) {
        size_t len = count - i < PENDING ? count - i : PENDING;
        reuse_state *pending[PENDING];
        uint64_t distances[PENDING];
        for (size_t j = 0; j < len; j++) /* runs of 32 (an instruction) to the SMs in turn */
            pending[j] = states[(i + j) / 32 % scopes];
        reuse_access_each(pending, keys + i, len, distances, NULL);
        for (size_t j = 0; j < len; j++)
            sum += distances[j];
    }
    for (unsigned s = 0; s < scopes; s++)
        reuse_state_free(states[s]);
    free(keys);
    return sum;
}

/* bench_replay's synthetic mix: 50% a hot set that fits, 30% a warm set 8x
 * an L1, 20% streaming; request i goes to L1 i % 15. */
static uint64_t mixed_line(uint64_t *rng, size_t i)
{
    uint64_t pick = next_random(rng) % 100;
    return pick < 50 ? next_random(rng) % 96 : pick < 80 ? 1000 + next_random(rng) % 1024 : 1000000 + i;
}

#define MIXED_REQUESTS 30000000

static uint64_t lru_caches(void)
{
    ws_error err;
    cache_options o = {.sets = 32, .ways = 4, .line_bytes = 128, .policy = policy_find("lru"),
                       .policy_geometry = {.seed = 1}};
    cache *c[SMS];
    for (int s = 0; s < SMS; s++)
        if (!(c[s] = cache_new(&o, &err)))
            exit(1);
    uint64_t rng = 7, hits = 0;
    cache_req q = {.sector_mask = 0xf};
    cache_result r;
    for (size_t i = 0; i < MIXED_REQUESTS; i++) {
        q.line = mixed_line(&rng, i);
        cache_read(c[i % SMS], &q, 1, 0, &r);
        hits += r.hit;
    }
    for (int s = 0; s < SMS; s++)
        cache_free(c[s]);
    return hits;
}

static uint64_t falru_caches(void)
{
    ws_error err;
    falru *f[SMS];
    for (int s = 0; s < SMS; s++)
        if (!(f[s] = falru_new(128, &err)))
            exit(1);
    uint64_t rng = 7, hits = 0;
    for (size_t i = 0; i < MIXED_REQUESTS; i++)
        hits += falru_access(f[i % SMS], mixed_line(&rng, i), &err) == 1;
    for (int s = 0; s < SMS; s++)
        falru_free(f[s]);
    return hits;
}

int main(int argc, char **argv)
{
    const char *what = argc == 2 ? argv[1] : "";
    uint64_t sum;
    if (!strcmp(what, "reuse-global"))
        sum = reuse_scopes(1);
    else if (!strcmp(what, "reuse-sm"))
        sum = reuse_scopes(SMS);
    else if (!strcmp(what, "lru"))
        sum = lru_caches();
    else if (!strcmp(what, "falru"))
        sum = falru_caches();
    else {
        fprintf(stderr, "usage: guard_kernels reuse-global|reuse-sm|lru|falru\n");
        return 2;
    }
    printf("%s %llx\n", what, (unsigned long long)sum);
    return 0;
}
