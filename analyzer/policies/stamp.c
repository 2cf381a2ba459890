/* analyzer/policies/stamp.c: see stamp.h. */
#include "analyzer/policies/stamp.h"

#include <stdlib.h>

#include "analyzer/policies/dueling.h"

void *stamp_create(const policy_geometry *g, ws_error *err)
{
    stamp_state *s = calloc(1, sizeof *s);
    if (!s)
        return ws_fail(err, "out of memory"), NULL;
    s->rng = g->seed;
    s->sets = g->sets;
    s->psel = DUELING_PSEL_START;
    return s;
}

void stamp_destroy(void *state) { free(state); }

uint32_t stamp_victim(void *state, const cache_set *set, uint64_t candidates, const cache_req *r)
{
    (void)state;
    (void)r;
    return policy_min_meta(set, candidates);
}

void stamp_promote(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)r;
    stamp_mru(state, set, way);
}

void stamp_keep(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)state;
    (void)set;
    (void)way;
    (void)r;
}

uint32_t stamp_lru_with(const cache_set *set, uint64_t candidates, int shared)
{
    uint32_t best = set->ways;
    for (uint32_t w = 0; w < set->ways; w++)
        if ((candidates >> w & 1) && ((set->flags[w] & LINE_SHARED) != 0) == shared &&
            (best == set->ways || set->meta[w] < set->meta[best]))
            best = w;
    return best;
}
