/* analyzer/policies/bip.c: bimodal insertion (docs/metrics.md §7): LIP, except that
 * one fill in 32 goes to MRU so the cache still adapts to a new working set. */
#include "analyzer/policies/stamp.h"

static void bip_fill(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)r;
    stamp_bimodal(state, set, way);
}

const policy_ops policy_bip = {
    .name = "bip",
    .description = "bimodal insertion: LRU position, MRU with probability 1/32",
    .create = stamp_create,
    .destroy = stamp_destroy,
    .hit = stamp_promote,
    .fill = bip_fill,
    .victim = stamp_victim,
};
