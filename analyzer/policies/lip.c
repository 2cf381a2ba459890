/* analyzer/policies/lip.c: LRU insertion policy (docs/metrics.md §7, Qureshi et al.):
 * new lines go to the LRU position and move to MRU only when hit, so a
 * streaming line is the next victim and cannot push out the working set. */
#include "analyzer/policies/stamp.h"

static void lip_fill(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)r;
    stamp_lru(state, set, way);
}

const policy_ops policy_lip = {
    .name = "lip",
    .description = "LRU insertion: insert at LRU, promote to MRU on hit",
    .create = stamp_create,
    .destroy = stamp_destroy,
    .hit = stamp_promote,
    .fill = lip_fill,
    .victim = stamp_victim,
};
