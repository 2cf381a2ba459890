/* analyzer/policies/dacache.c: DaCache, divergence-aware L1 management
 * (S4 §4, docs/metrics.md §9), in its variants:
 *
 *   dacache        gauged insertion, coherent loads at MRU when their PC has
 *                  intra-warp locality, incremental promotion by G = 4,
 *                  constrained replacement that bypasses, dynamic FCW;
 *   dacache-stall  the same, but constrained replacement stalls;
 *   dacache-uncon  the same without the constraint;
 *   static0..3     unconstrained, with a fixed locality region of N warps
 *                  per scheduler (S4 §5.4).
 *
 * In the functional replay every line can be replaced, so the LRU end is
 * always a thrashing-region line: dacache, dacache-stall and dacache-uncon
 * then replay alike.  They differ where S4 sets them apart, when lines are
 * reserved for outstanding misses: the timed replay (--timed, docs/metrics.md §12).
 *
 * A line's word is its position in the set's LRU chain, 0 = MRU.  The
 * chain holds the valid lines; insertion at position k pushes the lines at
 * k and below one step toward LRU. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/policies/dacache.h"
#include "analyzer/policy.h"

#define EMPTY UINT64_MAX /* an invalid way's line (cache.h CACHE_INVALID) */
#define OFF_CHAIN INT64_MAX

typedef enum constraint { UNCONSTRAINED, CONSTRAINED_BYPASS, CONSTRAINED_STALL } constraint;

typedef struct variant {
    constraint constraint;
    int dynamic;           /* FCW follows S4 Fig. 7; else fixed */
    uint32_t warps_per_scheduler; /* the fixed locality region (static variants) */
} variant;

typedef struct victim_tag {
    uint64_t line;
    uint32_t warp;
    int valid;
} victim_tag;

typedef struct dacache {
    variant v;
    uint32_t sets, ways, schedulers;
    dacache_fcw fcw;
    /* The locality detector (docs/metrics.md §9 decision): the lines this L1 evicted,
     * with the warp that filled them, FIFO; and the coherent-load PCs of
     * the current kernel found to have intra-warp locality.  As in S4
     * §4.2, only the most prioritized warp is sampled: a line enters the
     * victim tags only if a coherent load of an age-rank-0 warp filled it
     * (sampled[], per line: state beyond the policy's word), so divergent
     * traffic cannot flush 16 entries before a reuse comes back. */
    uint8_t *sampled; /* [sets × ways] */
    victim_tag tags[DACACHE_VICTIM_TAGS];
    uint32_t next_tag;
    uint8_t *local_pcs;
    uint32_t local_pc_capacity, kernel;
    /* Figures of its own (policy.h stats). */
    uint64_t bypasses, stalls, stall_steps, local_pcs_found;
} dacache;

static void *create(const policy_geometry *g, const variant *v, ws_error *err)
{
    dacache *d = calloc(1, sizeof *d);
    if (!d || !(d->sampled = calloc((size_t)g->sets * g->ways, 1))) {
        free(d);
        return ws_fail(err, "out of memory"), NULL;
    }
    d->v = *v;
    d->sets = g->sets;
    d->ways = g->ways;
    d->schedulers = g->schedulers ? g->schedulers : 1;
    d->fcw = dacache_fcw_start();
    if (!v->dynamic)
        d->fcw.fcw = v->warps_per_scheduler * d->schedulers;
    return d;
}

static void destroy(void *state)
{
    dacache *d = state;
    free(d->local_pcs);
    free(d->sampled);
    free(d);
}

/* ---- the LRU chain ---- */

static void chain_insert(const cache_set *set, uint32_t way, uint32_t position)
{
    uint32_t count = 0;
    for (uint32_t w = 0; w < set->ways; w++)
        count += w != way && set->lines[w] != EMPTY && set->meta[w] != OFF_CHAIN;
    if (position > count)
        position = count;
    for (uint32_t w = 0; w < set->ways; w++)
        if (w != way && set->lines[w] != EMPTY && set->meta[w] != OFF_CHAIN &&
            set->meta[w] >= position)
            set->meta[w]++;
    set->meta[way] = position;
}

static void chain_remove(const cache_set *set, uint32_t way)
{
    int64_t at = set->meta[way];
    for (uint32_t w = 0; w < set->ways; w++)
        if (w != way && set->lines[w] != EMPTY && set->meta[w] != OFF_CHAIN && set->meta[w] > at)
            set->meta[w]--;
    set->meta[way] = OFF_CHAIN;
}

/* Promotion by G positions toward MRU (S4 §4.2, incremental as PIPP). */
static void chain_promote(const cache_set *set, uint32_t way)
{
    int64_t at = set->meta[way], to = at > DACACHE_PROMOTION ? at - DACACHE_PROMOTION : 0;
    for (uint32_t w = 0; w < set->ways; w++)
        if (w != way && set->lines[w] != EMPTY && set->meta[w] != OFF_CHAIN &&
            set->meta[w] >= to && set->meta[w] < at)
            set->meta[w]++;
    set->meta[way] = to;
}

/* ---- the locality detector ---- */

static void new_kernel(dacache *d, uint32_t kernel)
{
    if (kernel == d->kernel)
        return;
    d->kernel = kernel; /* the marks are sticky for one kernel */
    if (d->local_pcs)
        memset(d->local_pcs, 0, d->local_pc_capacity);
}

static int pc_local(const dacache *d, uint32_t pc)
{
    return pc < d->local_pc_capacity && d->local_pcs[pc];
}

static void mark_pc(dacache *d, uint32_t pc)
{
    if (pc >= d->local_pc_capacity) {
        uint32_t cap = d->local_pc_capacity ? d->local_pc_capacity : 64;
        while (cap <= pc)
            cap *= 2;
        uint8_t *grown = realloc(d->local_pcs, cap);
        if (!grown)
            return; /* a mark lost to memory pressure only costs locality */
        memset(grown + d->local_pc_capacity, 0, cap - d->local_pc_capacity);
        d->local_pcs = grown;
        d->local_pc_capacity = cap;
    }
    d->local_pcs_found += !d->local_pcs[pc];
    d->local_pcs[pc] = 1;
}

/* A coherent load missed: if its line was evicted from this L1 after its
 * own warp filled it, its PC has intra-warp locality (S4 §4.2). */
static void dacache_miss(void *state, const cache_set *set, const cache_req *r)
{
    (void)set;
    dacache *d = state;
    new_kernel(d, r->kernel);
    if (r->req_count > 2 || pc_local(d, r->pc))
        return;
    for (uint32_t i = 0; i < DACACHE_VICTIM_TAGS; i++)
        if (d->tags[i].valid && d->tags[i].line == r->line && d->tags[i].warp == r->warp) {
            mark_pc(d, r->pc);
            return;
        }
}

static void dacache_evicted(void *state, const cache_set *set, uint32_t way, evict_cause cause)
{
    dacache *d = state;
    if (cause == EVICT_REPLACE && d->sampled[(size_t)set->index * d->ways + way]) {
        d->tags[d->next_tag] = (victim_tag){.line = set->lines[way], .warp = set->warps[way],
                                            .valid = 1};
        d->next_tag = (d->next_tag + 1) % DACACHE_VICTIM_TAGS;
    }
    chain_remove(set, way);
}

/* ---- insertion, promotion, replacement ---- */

static int32_t partition(const dacache *d)
{
    return dacache_partition(d->fcw.fcw, d->sets, d->ways);
}

static int locality_warp(const dacache *d, uint32_t prio)
{
    return (int32_t)dacache_gauged_way(prio, d->schedulers, d->sets, d->ways) <= partition(d);
}

/* docs/metrics.md §9: coherent loads at MRU if their PC has intra-warp locality, else
 * at LRU; a thrashing warp's divergent loads at LRU whatever their size
 * (S4 §4: "exclusively inserted into LRU positions"); a locality warp's at
 * MRU when they make at most 5 requests, else at its gauged way. */
static void dacache_fill(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    dacache *d = state;
    new_kernel(d, r->kernel);
    d->sampled[(size_t)set->index * d->ways + way] = r->req_count <= 2 && r->age_rank == 0;
    uint32_t lru = d->ways - 1, position;
    if (r->req_count <= 2)
        position = pc_local(d, r->pc) ? 0 : lru;
    else if (!locality_warp(d, r->age_rank))
        position = lru;
    else if (r->req_count <= DACACHE_SMALL_DIVERGENT)
        position = 0;
    else
        position = dacache_gauged_way(r->age_rank, d->schedulers, d->sets, d->ways);
    chain_insert(set, way, position);
}

static void dacache_hit(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)state, (void)r;
    chain_promote(set, way);
}

/* The candidate nearest the LRU end, within positions > above (-1: any);
 * ways if none. */
static uint32_t nearest_lru(const cache_set *set, uint64_t candidates, int64_t above)
{
    uint32_t best = set->ways;
    for (uint32_t w = 0; w < set->ways; w++)
        if ((candidates >> w & 1) && set->meta[w] > above &&
            (best == set->ways || set->meta[w] > set->meta[best]))
            best = w;
    return best;
}

static uint32_t dacache_victim(void *state, const cache_set *set, uint64_t candidates,
                               const cache_req *r)
{
    (void)r;
    dacache *d = state;
    if (d->v.constraint == UNCONSTRAINED)
        return nearest_lru(set, candidates, -1);
    int64_t p = partition(d);
    uint32_t way = nearest_lru(set, candidates, p);
    if (way < set->ways)
        return way;
    /* Every thrashing-region line is reserved (S4 §4.3). */
    if (d->v.constraint == CONSTRAINED_BYPASS) {
        d->bypasses++;
        return POLICY_BYPASS;
    }
    uint32_t first = set->ways; /* stall: for the one whose fill arrives first */
    for (uint32_t w = 0; w < set->ways; w++)
        if (set->meta[w] > p && (first == set->ways || set->ready[w] < set->ready[first]))
            first = w;
    d->stalls++;
    d->stall_steps += set->ready[first] > set->now ? set->ready[first] - set->now : 0;
    return policy_stall(first);
}

static void dacache_load_done(void *state, const cache_req *r, uint32_t misses)
{
    dacache *d = state;
    if (!d->v.dynamic || r->req_count <= 2) /* the counter follows divergent loads */
        return;
    dacache_fcw_update(&d->fcw, misses == 0, locality_warp(d, r->age_rank), r->age_rank);
}

static uint32_t dacache_stats(const void *state, policy_stat *out)
{
    const dacache *d = state;
    uint32_t n = 0;
    out[n++] = (policy_stat){"locality_pcs", d->local_pcs_found};
    if (d->v.dynamic) {
        out[n++] = (policy_stat){"fcw_increases", d->fcw.increases};
        out[n++] = (policy_stat){"fcw_decreases", d->fcw.decreases};
        out[n++] = (policy_stat){"fcw_end_sum", d->fcw.fcw}; /* summed over the SMs */
    }
    if (d->v.constraint == CONSTRAINED_BYPASS)
        out[n++] = (policy_stat){"constrained_bypasses", d->bypasses};
    if (d->v.constraint == CONSTRAINED_STALL) {
        out[n++] = (policy_stat){"stalls", d->stalls};
        out[n++] = (policy_stat){"stall_steps", d->stall_steps};
    }
    return n;
}

#define DACACHE_VARIANT(id, policy_name, text, ...)                                         \
    static void *create_##id(const policy_geometry *g, ws_error *err)                      \
    {                                                                                      \
        static const variant v = __VA_ARGS__;                                              \
        return create(g, &v, err);                                                         \
    }                                                                                      \
    const policy_ops policy_##id = {                                                       \
        .name = policy_name, .description = text, .create = create_##id,                   \
        .destroy = destroy, .hit = dacache_hit, .fill = dacache_fill,                      \
        .victim = dacache_victim, .miss = dacache_miss, .evicted = dacache_evicted,        \
        .load_done = dacache_load_done, .stats = dacache_stats}

DACACHE_VARIANT(dacache, "dacache",
                "DaCache (S4): gauged insertion, dynamic FCW, constrained replacement that "
                "bypasses (differs from -stall/-uncon only in the timed replay, --timed)",
                {CONSTRAINED_BYPASS, 1, 0});
DACACHE_VARIANT(dacache_stall, "dacache-stall",
                "DaCache whose constrained replacement stalls instead of bypassing",
                {CONSTRAINED_STALL, 1, 0});
DACACHE_VARIANT(dacache_uncon, "dacache-uncon",
                "DaCache with unconstrained replacement (victim nearest LRU)",
                {UNCONSTRAINED, 1, 0});
DACACHE_VARIANT(dacache_static0, "static0",
                "DaCache, unconstrained, no locality region: divergent loads at LRU",
                {UNCONSTRAINED, 0, 0});
DACACHE_VARIANT(dacache_static1, "static1",
                "DaCache, unconstrained, a fixed locality region of 1 warp per scheduler",
                {UNCONSTRAINED, 0, 1});
DACACHE_VARIANT(dacache_static2, "static2",
                "DaCache, unconstrained, a fixed locality region of 2 warps per scheduler",
                {UNCONSTRAINED, 0, 2});
DACACHE_VARIANT(dacache_static3, "static3",
                "DaCache, unconstrained, a fixed locality region of 3 warps per scheduler",
                {UNCONSTRAINED, 0, 3});
