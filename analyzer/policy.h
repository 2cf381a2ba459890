/* analyzer/policy.h: the replacement-policy interface (SPEC §7).
 *
 * A policy owns one signed 64-bit word of metadata per cache line (an LRU
 * stamp, an RRPV, a next-use position, ...) and decides:
 *   insertion  fill()   sets the new line's word;
 *   promotion  hit()    updates it on a hit;
 *   victim     victim() picks a way among the candidates, or POLICY_BYPASS;
 *   bypass     bypass() (optional) refuses to allocate a miss before any
 *                       way, even an invalid one, is looked for (OPT: a line
 *                       with no next use);
 *   skip       skip_lookup() (optional) sends the request around the cache
 *                       before any lookup: it neither hits nor changes the
 *                       cache, exactly as `__ldcg` skips L1 (SPEC §9: bypass
 *                       tables, per-PC hints).
 * The generic cache (analyzer/cache.c) does the lookup, fills invalid ways
 * first, keeps pending lines out of the candidates, and calls these.  A
 * policy sees the request's metadata (cache_req), so PC-, warp- or
 * divergence-aware policies fit the same interface.
 *
 * Each policy is one file in analyzer/policies/ exporting one policy_ops;
 * analyzer/policies/registry.c lists them. */
#ifndef WS_POLICY_H
#define WS_POLICY_H

#include <stdint.h>

#include "util/error.h"

#define POLICY_BYPASS UINT32_MAX

/* What a policy may see of a request. */
typedef struct cache_req {
    uint64_t line;      /* line number (byte address ÷ line size) */
    uint64_t next_use;  /* OPT: position of this key's next access (NEXTUSE_NEVER) */
    uint64_t line_addr; /* byte address of the line */
    uint32_t pc, warp, warp_slot, scheduler, sm, kernel;
    uint8_t coherent;   /* Req <= 2 (SPEC §2) */
    uint8_t kind, space, cache_op;
    uint8_t sector_mask;
} cache_req;

/* One set as a policy sees it. */
typedef struct cache_set {
    uint32_t index;        /* set number within its cache */
    uint32_t ways;
    const uint64_t *lines; /* [ways], CACHE_INVALID when empty */
    int64_t *meta;         /* [ways], the policy's words */
} cache_set;

typedef struct policy_geometry {
    uint32_t sets, ways;
    uint64_t seed; /* for randomized policies; same seed, same choices */
    const void *param; /* policy-specific (e.g. a bypass table), may be NULL */
} policy_geometry;

typedef struct policy_ops {
    const char *name;
    const char *description;
    int needs_next_use; /* OPT: the replay must run the backward pass */
    int needs_param;    /* the policy cannot run without geometry.param */
    void *(*create)(const policy_geometry *g, ws_error *err);
    void (*destroy)(void *state);
    void (*hit)(void *state, const cache_set *set, uint32_t way, const cache_req *r);
    void (*fill)(void *state, const cache_set *set, uint32_t way, const cache_req *r);
    /* candidates: bit w = way w may be replaced (valid, not pending); never 0. */
    uint32_t (*victim)(void *state, const cache_set *set, uint64_t candidates, const cache_req *r);
    /* Optional: a miss happened in this set (set dueling counts them). */
    void (*miss)(void *state, const cache_set *set, const cache_req *r);
    /* Optional: on a miss, nonzero = do not allocate it. */
    int (*bypass)(void *state, const cache_set *set, const cache_req *r);
    /* Optional: nonzero = the request does not look the cache up at all. */
    int (*skip_lookup)(const void *state, const cache_req *r);
} policy_ops;

/* The registry: by name, or NULL. */
const policy_ops *policy_find(const char *name);
/* NULL-terminated list of every policy. */
extern const policy_ops *const policy_all[];

/* Helpers shared by several policies: the way with the smallest / largest
 * word among the candidates, lowest way on ties (so every policy is
 * deterministic).  Inline: they are the victim search of most policies. */
static inline uint32_t policy_min_meta(const cache_set *set, uint64_t candidates)
{
    uint32_t best = 0;
    if ((candidates & (candidates + 1)) == 0) { /* every way: the common case, a plain scan */
        uint32_t n = candidates == ~0ull ? 64 : (uint32_t)__builtin_ctzll(~candidates);
        for (uint32_t w = 1; w < n; w++)
            if (set->meta[w] < set->meta[best])
                best = w;
        return best;
    }
    best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t m = candidates & (candidates - 1); m; m &= m - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(m);
        if (set->meta[w] < set->meta[best])
            best = w;
    }
    return best;
}

static inline uint32_t policy_max_meta(const cache_set *set, uint64_t candidates)
{
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t m = candidates & (candidates - 1); m; m &= m - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(m);
        if (set->meta[w] > set->meta[best])
            best = w;
    }
    return best;
}

/* A small, fast, seedable generator (splitmix64). */
static inline uint64_t policy_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
