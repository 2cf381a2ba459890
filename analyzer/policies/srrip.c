/* analyzer/policies/srrip.c: static RRIP (docs/metrics.md §7): insert at RRPV 6. */
#include "analyzer/policies/rrip.h"

const policy_ops policy_srrip = {
    .name = "srrip",
    .description = "static RRIP: 3-bit RRPV, insert at 6, hit lowers by 1",
    .create = rrip_create,
    .destroy = rrip_destroy,
    .hit = rrip_hit,
    .fill = rrip_fill_long,
    .victim = rrip_victim,
};
