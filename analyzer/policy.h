/* analyzer/policy.h: the cache-policy interfaces (docs/metrics.md §7, §9).
 *
 * Two kinds of module decide for a cache (DESIGN: extension points):
 *
 * A replacement policy owns one signed 64-bit word of metadata per line (an
 * LRU stamp, an RRPV, a next-use position, ...) and, if it needs more, any
 * per-line state of its own, sized from the geometry it is created with
 * (index it by set × ways + way).  It decides
 *   insertion  fill()     sets the new line's state;
 *   promotion  hit()      updates it on a hit;
 *   victim     victim()   picks a way among the candidates, or returns
 *                         POLICY_BYPASS (do not allocate) or
 *                         policy_stall(w) (wait until way w may be replaced,
 *                         then replace it: a stall, docs/metrics.md §7 reserved lines);
 *   bypass     bypass()   (optional) refuses to allocate a miss before any
 *                         way, even an invalid one, is looked for (OPT: a
 *                         line with no next use);
 *   miss       miss()     (optional) a miss happened in this set (set
 *                         dueling counts them);
 *   eviction   evicted()  (optional) a valid line leaves, with the cause;
 *   load end   load_done() (optional) every request of a global warp-load
 *                         has been serviced, `misses` of them missed (the
 *                         MPLI point, docs/metrics.md §8: DaCache's FCW counter);
 *   figures    stats()    (optional) its own counts for the report.
 *
 * An admission module decides, before any lookup, whether a request uses
 * the cache at all; a request it turns away never looks the cache up nor
 * changes it, exactly as `__ldcg` skips L1 (docs/metrics.md §9: bypass tables, per-PC
 * hints).  It composes with any replacement policy: `srrip+bypass-pc`.
 *
 * The generic cache (analyzer/cache.c) does the lookup, fills invalid ways
 * first, keeps pending lines out of the candidates, and calls these.  Both
 * see the request's metadata (cache_req), built in one place for both
 * levels (hierarchy.c), so PC-, warp- or divergence-aware policies fit.
 *
 * Each module is one file in analyzer/policies/ exporting one policy_ops or
 * admission_ops; analyzer/policies/registry.c lists them. */
#ifndef WS_POLICY_H
#define WS_POLICY_H

#include <stdint.h>

#include "util/error.h"

#define POLICY_BYPASS UINT32_MAX
#define POLICY_STALL_FLAG 0x80000000u

/* Wait for way w to become replaceable, then replace it. */
static inline uint32_t policy_stall(uint32_t way) { return POLICY_STALL_FLAG | way; }

/* What a policy may see of a request. */
typedef struct cache_req {
    uint64_t line;      /* line number (byte address ÷ line size) */
    uint64_t next_use;  /* OPT: position of this key's next access (NEXTUSE_NEVER) */
    uint64_t line_addr; /* byte address of the line */
    uint32_t pc, warp, warp_slot, scheduler, sm, kernel;
    uint32_t age_rank;  /* the warp's GTO age rank in its scheduler, 0 = oldest */
    uint8_t req_count;  /* Req: requests of the whole instruction (docs/metrics.md §2) */
    uint8_t coherent;   /* Req <= 2 (docs/metrics.md §2) */
    uint8_t kind, space, cache_op;
    uint8_t sector_mask;
    uint8_t fill_hint;  /* what the level below said of the line (a stage's flag) */
} cache_req;

/* A line's flags (cache_set.flags): what the level below said of it when
 * it was filled (the request's fill hint), or, in a cache that tracks
 * owners (an L2 under sharing-aware management, S0 §VI), whether an SM
 * other than the one that filled it has hit it. */
#define LINE_SHARED 0x1

/* One set as a policy sees it.  warps, ready, flags and now are there for
 * victim() and evicted() only (NULL / 0 in the hotter hit(), fill() and
 * miss(), which then cost less). */
typedef struct cache_set {
    uint32_t index;        /* set number within its cache */
    uint32_t ways;
    const uint64_t *lines; /* [ways], CACHE_INVALID when empty */
    int64_t *meta;         /* [ways], the policy's words */
    const uint32_t *warps; /* [ways], the warp that filled each line */
    const uint64_t *ready; /* [ways], pending until (reserved-line mode), else 0 */
    const uint8_t *flags;  /* [ways], LINE_SHARED, ... */
    uint64_t now;          /* the requester's clock */
} cache_set;

typedef struct policy_geometry {
    uint32_t sets, ways;
    uint32_t schedulers;   /* warp schedulers per SM (gauged insertion) */
    uint64_t seed; /* for randomized policies; same seed, same choices */
    const void *param; /* policy-specific (e.g. a bypass table), may be NULL */
} policy_geometry;

typedef enum evict_cause {
    EVICT_REPLACE,    /* a fill took its way */
    EVICT_INVALIDATE, /* a store invalidated it (write-evict) */
    EVICT_FLUSH       /* the cache was flushed (kernel end) */
} evict_cause;

/* One figure of a policy's own, summed over the caches of a level. */
typedef struct policy_stat {
    const char *name; /* a JSON key: lowercase, underscores */
    uint64_t value;
} policy_stat;

#define POLICY_MAX_STATS 8

typedef struct policy_ops {
    const char *name;
    const char *description;
    int needs_next_use; /* OPT: the replay must run the backward pass */
    /* Reads LINE_SHARED: the L1 fill waits for L2's answer, and the L2
     * tracks which SM filled each line (sharing-aware management). */
    int needs_sharing;
    void *(*create)(const policy_geometry *g, ws_error *err);
    void (*destroy)(void *state);
    void (*hit)(void *state, const cache_set *set, uint32_t way, const cache_req *r);
    void (*fill)(void *state, const cache_set *set, uint32_t way, const cache_req *r);
    /* candidates: bit w = way w may be replaced (valid, not pending); never 0. */
    uint32_t (*victim)(void *state, const cache_set *set, uint64_t candidates, const cache_req *r);
    void (*miss)(void *state, const cache_set *set, const cache_req *r);
    int (*bypass)(void *state, const cache_set *set, const cache_req *r);
    /* Called while the line is still in its way. */
    void (*evicted)(void *state, const cache_set *set, uint32_t way, evict_cause cause);
    /* r: the load's first request (req_count, warp, age_rank, pc). */
    void (*load_done)(void *state, const cache_req *r, uint32_t misses);
    /* Writes up to POLICY_MAX_STATS figures; returns how many. */
    uint32_t (*stats)(const void *state, policy_stat *out);
} policy_ops;

typedef struct admission_ops {
    const char *name;
    const char *description;
    int needs_param; /* cannot run without geometry.param (a table from `bypass`) */
    /* Nonzero: the request goes around the cache without looking it up. */
    int (*skip_lookup)(const void *param, const cache_req *r);
} admission_ops;

/* A cache's policy, resolved once from its name (docs/metrics.md §7): REPLACEMENT,
 * ADMISSION (= lru+ADMISSION) or REPLACEMENT+ADMISSION. */
typedef struct policy_spec {
    const policy_ops *replacement;
    const admission_ops *admission; /* NULL: every request looks the cache up */
} policy_spec;

int policy_spec_parse(const char *name, policy_spec *out, ws_error *err);
/* Plain LRU (the recording passes, the reference L1). */
policy_spec policy_spec_lru(void);

/* The registries: by name, or NULL. */
const policy_ops *policy_find(const char *name);
const admission_ops *admission_find(const char *name);
/* NULL-terminated lists. */
extern const policy_ops *const policy_all[];
extern const admission_ops *const admission_all[];

/* Helpers shared by several policies: the way with the smallest / largest
 * word among the candidates, lowest way on ties (so every policy is
 * deterministic).  Inline: they are the victim search of most policies. */

/* The smallest word of ways 0 .. n-1.  It selects rather than branches:
 * which word is smallest is data, and a branch on it mispredicts on most
 * misses (a plain LRU read ran 1.5x faster for it, bench/RESULTS.md). */
static inline uint32_t policy_min_meta_of_first(const cache_set *set, uint32_t n)
{
    uint32_t best = 0;
    int64_t least = set->meta[0];
    for (uint32_t w = 1; w < n; w++) {
        int64_t word = set->meta[w];
        int less = word < least;
        best = less ? w : best;
        least = less ? word : least;
    }
    return best;
}

static inline uint32_t policy_min_meta(const cache_set *set, uint64_t candidates)
{
    if ((candidates & (candidates + 1)) == 0) /* every way: the common case, a plain scan */
        return policy_min_meta_of_first(
            set, candidates == ~0ull ? 64 : (uint32_t)__builtin_ctzll(~candidates));
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
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
