/* analyzer/l1_rules.h: what an L1 does with a request (docs/metrics.md §7), defined
 * once.  Every L1 model in the program applies these rules: the scheduler's
 * reference L1 (GTO's misses, analyze's LRU counts and locality
 * generations) and the replay's L1s under every policy, so they agree hit
 * for hit on the same schedule. */
#ifndef WS_L1_RULES_H
#define WS_L1_RULES_H

#include <stdint.h>

#include "formats/trace.h"

typedef enum l1_route {
    L1_LOOKUP,      /* a load: looks the line up, allocates on a miss */
    L1_BYPASS,      /* a global load with `cg` or `cv`: asks L2, never looks up L1 */
    L1_WRITE_EVICT, /* a global store or atomic: write-through, no-write-allocate,
                       evicts the line on a write hit (S3 §2.2.2) */
    L1_WRITE_BACK   /* a local store or atomic: write-back, write-allocate */
} l1_route;

static inline l1_route l1_route_of(uint8_t kind, uint8_t space, uint8_t cache_op)
{
    if (space != WST_GLOBAL)
        return kind == WST_LOAD ? L1_LOOKUP : L1_WRITE_BACK;
    if (kind != WST_LOAD)
        return L1_WRITE_EVICT;
    return cache_op == WST_OP_CG || cache_op == WST_OP_CV ? L1_BYPASS : L1_LOOKUP;
}

/* The 32 B sectors a request asks of its line (a request always asks for
 * at least one; an empty mask means the whole line). */
static inline uint8_t l1_request_sectors(uint8_t sector_mask, uint8_t all_sectors)
{
    return sector_mask ? sector_mask : all_sectors;
}

#endif
