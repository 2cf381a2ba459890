/* analyzer/missclass.h: why an L1 access missed (docs/metrics.md §8, S4 §3).
 *
 *   cold                 the line has not been resident in this L1 during
 *                        this kernel (first reference, or earlier references
 *                        never allocated it: store misses, bypassed loads)
 *   intra-warp conflict  it was last evicted by an allocation of the same warp
 *   inter-warp conflict  ... of another warp
 *   write-evict          it was invalidated by a store
 *
 * Also the 3C split of the intra- and inter-warp conflict misses: capacity
 * if a fully-associative LRU of the same size would also miss (the caller
 * knows: per-SM stack distance >= the L1's line count), else conflict.
 * Write-evict misses are the fourth C, invalidation, outside the split.
 *
 * Keeps, per SM, a map from line to the cause of its last departure. */
#ifndef WS_MISSCLASS_H
#define WS_MISSCLASS_H

#include <stdint.h>
#include "util/error.h"

typedef enum miss_class {
    MISS_COLD = 0,
    MISS_INTRA_WARP,
    MISS_INTER_WARP,
    MISS_WRITE_EVICT,
    MISS_CLASSES
} miss_class;

typedef struct miss_counts {
    uint64_t by_class[MISS_CLASSES];
    uint64_t capacity; /* eviction misses a fully-associative LRU also misses */
    uint64_t conflict; /* eviction misses it would have hit */
} miss_counts;

typedef struct missclass missclass;

missclass *missclass_new(uint32_t sm_count, ws_error *err);
void missclass_free(missclass *mc);
void missclass_begin_kernel(missclass *mc);

/* A line left sm's L1 because warp `evictor` allocated over it. */
/* Starts fetching what sm knows of line (ahead of an instruction's misses). */
void missclass_prefetch(const missclass *mc, uint32_t sm, uint64_t line);
int missclass_evicted(missclass *mc, uint32_t sm, uint64_t line, uint32_t evictor,
                      ws_error *err);
/* A store invalidated the line in sm's L1. */
int missclass_invalidated(missclass *mc, uint32_t sm, uint64_t line, ws_error *err);
/* A miss by `warp`; fully_assoc_hit says whether a fully-associative LRU of
 * the same capacity would have hit.  Returns the class and counts it. */
miss_class missclass_miss(missclass *mc, uint32_t sm, uint64_t line, uint32_t warp,
                          int fully_assoc_hit, miss_counts *counts);

const char *miss_class_name(miss_class c);

#endif
