/* analyzer/policies/dip.c: dynamic insertion (docs/metrics.md §7): set dueling between
 * LRU (policy A) and BIP (policy B); see dueling.h for the leaders and PSEL. */
#include "analyzer/policies/dueling.h"
#include "analyzer/policies/stamp.h"

static void dip_miss(void *state, const cache_set *set, const cache_req *r)
{
    (void)r;
    stamp_state *s = state;
    dueling_miss(&s->psel, set->index, s->sets);
}

static void dip_fill(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)r;
    stamp_state *s = state;
    if (dueling_uses_b(s->psel, set->index, s->sets))
        stamp_bimodal(s, set, way);
    else
        stamp_mru(s, set, way);
}

const policy_ops policy_dip = {
    .name = "dip",
    .description = "dynamic insertion: set dueling between LRU and BIP, 10-bit PSEL",
    .create = stamp_create,
    .destroy = stamp_destroy,
    .hit = stamp_promote,
    .fill = dip_fill,
    .victim = stamp_victim,
    .miss = dip_miss,
};
