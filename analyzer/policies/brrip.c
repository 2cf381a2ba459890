/* analyzer/policies/brrip.c: bimodal RRIP (docs/metrics.md §7): insert at RRPV 7, at 6
 * with probability 1/32, so scans do not displace the working set. */
#include "analyzer/policies/rrip.h"

const policy_ops policy_brrip = {
    .name = "brrip",
    .description = "bimodal RRIP: insert at 7, at 6 with probability 1/32",
    .create = rrip_create,
    .destroy = rrip_destroy,
    .hit = rrip_hit,
    .fill = rrip_fill_bimodal,
    .victim = rrip_victim,
};
