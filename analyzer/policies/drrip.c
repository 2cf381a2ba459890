/* analyzer/policies/drrip.c: dynamic RRIP (docs/metrics.md §7): set dueling between
 * SRRIP (policy A) and BRRIP (policy B), as DIP does (dueling.h). */
#include "analyzer/policies/dueling.h"
#include "analyzer/policies/rrip.h"

static void drrip_miss(void *state, const cache_set *set, const cache_req *r)
{
    (void)r;
    rrip_state *s = state;
    dueling_miss(&s->psel, set->index, s->sets);
}

static void drrip_fill(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    rrip_state *s = state;
    if (dueling_uses_b(s->psel, set->index, s->sets))
        rrip_fill_bimodal(state, set, way, r);
    else
        rrip_fill_long(state, set, way, r);
}

const policy_ops policy_drrip = {
    .name = "drrip",
    .description = "dynamic RRIP: set dueling between SRRIP and BRRIP, 10-bit PSEL",
    .create = rrip_create,
    .destroy = rrip_destroy,
    .hit = rrip_hit,
    .fill = drrip_fill,
    .victim = rrip_victim,
    .miss = drrip_miss,
};
