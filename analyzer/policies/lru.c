/* analyzer/policies/lru.c: least recently used (docs/metrics.md §7). */
#include "analyzer/policies/stamp.h"

const policy_ops policy_lru = {
    .name = "lru",
    .description = "least recently used: insert and promote at MRU, evict LRU",
    .create = stamp_create,
    .destroy = stamp_destroy,
    .hit = stamp_promote,
    .fill = stamp_promote,
    .victim = stamp_victim,
};
