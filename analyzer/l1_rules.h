/* analyzer/l1_rules.h: what an L1 does with a request (docs/metrics.md §7), defined
 * once.  Every L1 model in the program applies these rules: the scheduler's
 * reference L1 (GTO's misses, analyze's LRU counts and locality
 * generations) and the replay's L1s under every policy, so they agree hit
 * for hit on the same schedule. */
#ifndef WS_L1_RULES_H
#define WS_L1_RULES_H

#include <stdint.h>

#include "analyzer/config.h"
#include "formats/trace.h"

typedef enum l1_route {
    L1_LOOKUP,      /* a load: looks the line up, allocates on a miss */
    L1_BYPASS,      /* a global load with `cg` or `cv`: asks L2, never looks up L1 */
    L1_WRITE_EVICT, /* a global store or atomic: write-through, no-write-allocate,
                       evicts the line on a write hit (S3 §2.2.2) */
    L1_WRITE_BACK,  /* a local store or atomic: write-back, write-allocate */
    L1_WRITE_ALLOCATE /* a global store under the `allocate` write policy: write-through,
                         allocates the line; the sectors it writes whole become valid */
} l1_route;

/* `cg` and `cv` keep a global access out of L1 (a load bypasses it). */
static inline int l1_excluded(uint8_t cache_op)
{
    return cache_op == WST_OP_CG || cache_op == WST_OP_CV;
}

/* Whether a load bypasses L1 (route L1_BYPASS, whatever the write policy). */
static inline int l1_load_bypasses(uint8_t space, uint8_t cache_op)
{
    return space == WST_GLOBAL && l1_excluded(cache_op);
}

/* The route of an instruction in an L1 of write policy `write`.  Under
 * `allocate` an atomic still evicts (it is performed at L2, so an L1 copy
 * would be stale) and so does a `cg` or `cv` store (it is not to be cached
 * in L1): docs/metrics.md §7, "Write policy". */
static inline l1_route l1_route_of(uint8_t kind, uint8_t space, uint8_t cache_op,
                                   write_policy write)
{
    if (space != WST_GLOBAL)
        return kind == WST_LOAD ? L1_LOOKUP : L1_WRITE_BACK;
    if (kind == WST_STORE && write == WRITE_ALLOCATE && !l1_excluded(cache_op))
        return L1_WRITE_ALLOCATE;
    if (kind != WST_LOAD)
        return L1_WRITE_EVICT;
    return l1_load_bypasses(space, cache_op) ? L1_BYPASS : L1_LOOKUP;
}

/* The 32 B sectors a request writes whole: only these become valid when a
 * write-through store allocates or updates an invalid sector (a partly
 * written sector is fetched from L2 by the next load, docs/metrics.md §7). */
static inline uint8_t l1_whole_sectors(const uint64_t *byte_mask, uint32_t line_bytes)
{
    /* A word of the mask at a time, its two sectors together; the sectors
     * past the line are masked off (a line of 32 B has one). */
    uint32_t whole = 0;
    for (uint32_t w = 0; w < (line_bytes + 63) / 64; w++) {
        uint64_t m = byte_mask[w];
        uint32_t low = (uint32_t)m == UINT32_MAX, high = (uint32_t)(m >> 32) == UINT32_MAX;
        whole |= (low | high << 1) << (2 * w);
    }
    return (uint8_t)(whole & ((1u << (line_bytes / 32)) - 1));
}

/* The 32 B sectors a request asks of its line (a request always asks for
 * at least one; an empty mask means the whole line). */
static inline uint8_t l1_request_sectors(uint8_t sector_mask, uint8_t all_sectors)
{
    return sector_mask ? sector_mask : all_sectors;
}

#endif
