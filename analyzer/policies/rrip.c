/* analyzer/policies/rrip.c: see rrip.h. */
#include "analyzer/policies/rrip.h"

#include <stdlib.h>

#include "analyzer/policies/dueling.h"

void *rrip_create(const policy_geometry *g, ws_error *err)
{
    rrip_state *s = calloc(1, sizeof *s);
    if (!s)
        return ws_fail(err, "out of memory"), NULL;
    s->rng = g->seed;
    s->sets = g->sets;
    s->psel = DUELING_PSEL_START;
    return s;
}

void rrip_destroy(void *state) { free(state); }

void rrip_hit(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)state;
    (void)r;
    if (set->meta[way] > 0)
        set->meta[way]--;
}

uint32_t rrip_victim(void *state, const cache_set *set, uint64_t candidates, const cache_req *r)
{
    (void)state;
    (void)r;
    /* Age by the distance of the most distant candidate from 7 in one go:
     * the same result as aging one step at a time. */
    uint32_t oldest = policy_max_meta(set, candidates);
    int64_t age = RRIP_MAX - set->meta[oldest];
    if (age > 0)
        for (uint32_t w = 0; w < set->ways; w++)
            set->meta[w] = set->meta[w] + age > RRIP_MAX ? RRIP_MAX : set->meta[w] + age;
    return oldest;
}

void rrip_fill_long(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)state;
    (void)r;
    set->meta[way] = RRIP_LONG;
}

/* BRRIP's insertion: distant (7), long (6) with probability 1/32. */
void rrip_fill_bimodal(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)r;
    rrip_state *s = state;
    set->meta[way] = (policy_rand(&s->rng) & 31) == 0 ? RRIP_LONG : RRIP_MAX;
}
