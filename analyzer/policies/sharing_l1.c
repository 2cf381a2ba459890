/* analyzer/policies/sharing_l1.c: S0's L1 replacement (S0 §V-B3, §VI-B,
 * docs/metrics.md §9): LRU, but shared lines (LINE_SHARED from L2 when they were
 * filled) go first, so private lines live longer in the SM's own L1.  A
 * private line at the LRU end is declared dead (its dead-block flag) and
 * spared once, the LRU shared line going instead; still at the LRU end at
 * the next fill, it goes. */
#include <stdlib.h>

#include "analyzer/policies/stamp.h"

typedef struct sharing_l1 {
    stamp_state stamps; /* first: the stamp helpers take it as their state */
    uint32_t ways;
    uint8_t *dead;      /* [sets × ways]: the dead-block flag (DBF) */
} sharing_l1;

static void *sa_l1_create(const policy_geometry *g, ws_error *err)
{
    sharing_l1 *s = calloc(1, sizeof *s);
    if (!s || !(s->dead = calloc((size_t)g->sets * g->ways, 1))) {
        free(s);
        return ws_fail(err, "out of memory"), NULL;
    }
    s->stamps.rng = g->seed;
    s->stamps.sets = g->sets;
    s->ways = g->ways;
    return s;
}

static void sa_l1_destroy(void *state)
{
    sharing_l1 *s = state;
    free(s->dead);
    free(s);
}

static void sa_l1_touch(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    sharing_l1 *s = state;
    s->dead[(size_t)set->index * s->ways + way] = 0; /* used: alive again */
    stamp_promote(&s->stamps, set, way, r);
}

static uint32_t sa_l1_victim(void *state, const cache_set *set, uint64_t candidates,
                             const cache_req *r)
{
    (void)r;
    sharing_l1 *s = state;
    uint32_t lru = policy_min_meta(set, candidates);
    if (set->flags[lru] & LINE_SHARED)
        return lru; /* the LRU line is shared: it goes */
    uint8_t *dead = &s->dead[(size_t)set->index * s->ways + lru];
    if (*dead)
        return lru; /* its second chance has passed */
    uint32_t shared = stamp_lru_with(set, candidates, 1);
    if (shared == set->ways)
        return lru; /* no shared line to spare it for */
    *dead = 1;
    return shared;
}

const policy_ops policy_sa_l1 = {
    .name = "sa-l1",
    .description = "S0's L1 replacement: the LRU shared line first; a private LRU line is "
                   "spared once (dead-block flag)",
    .needs_sharing = 1,
    .create = sa_l1_create,
    .destroy = sa_l1_destroy,
    .hit = sa_l1_touch,
    .fill = sa_l1_touch,
    .victim = sa_l1_victim,
};
