/* analyzer/policies/sharing_l2.c: S0's L2 replacement (S0 §V-B3, docs/metrics.md §9):
 * LRU, but the victim is the least recently used *private* line; only a set
 * of shared lines gives up its LRU shared line.  Shared lines so live
 * longer in L2, where every SM finds them. */
#include "analyzer/policies/stamp.h"

static uint32_t private_first(void *state, const cache_set *set, uint64_t candidates,
                              const cache_req *r)
{
    (void)state, (void)r;
    uint32_t way = stamp_lru_with(set, candidates, 0);
    return way < set->ways ? way : policy_min_meta(set, candidates);
}

const policy_ops policy_sa_l2 = {
    .name = "sa-l2",
    .description = "S0's L2 replacement: the LRU private line first, then the LRU shared line",
    .needs_sharing = 1,
    .create = stamp_create,
    .destroy = stamp_destroy,
    .hit = stamp_promote,
    .fill = stamp_promote,
    .victim = private_first,
};
