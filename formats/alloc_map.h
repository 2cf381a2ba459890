/* formats/alloc_map.h: a trace's device allocations sorted by address.
 *
 * The metadata lists allocations in the order the application made them;
 * an allocation's ordinal is its position in that list.  Two recordings of
 * one workload by different allocators (cudaMalloc, the emulator's arena)
 * put its buffers at different addresses but in the same order, so an
 * address is compared as (ordinal, offset inside the allocation): this map
 * finds that pair by binary search.  Ranges never overlap: the writer
 * refuses an overlapping allocation and the reader an overlapping list. */
#ifndef WS_ALLOC_MAP_H
#define WS_ALLOC_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "formats/trace.h"
#include "util/error.h"

typedef struct wst_alloc_range {
    uint64_t base, end; /* [base, end) */
    uint32_t ordinal;
} wst_alloc_range;

typedef struct wst_alloc_map {
    wst_alloc_range *ranges; /* sorted by base */
    size_t count, capacity;
} wst_alloc_map;

/* One allocation on its own: bytes > 0 and base + bytes within
 * WST_MAX_ALLOCATION_END.  0, or -1 with err naming the ordinal. */
int wst_allocation_check(const wst_allocation *a, uint32_t ordinal, ws_error *err);

/* The map of list[0..count), each entry checked: -1 with err on a bad
 * entry or two that overlap (named by ordinal).  One sort, so a forged
 * list costs O(n log n), whatever its order. */
int wst_alloc_map_build(wst_alloc_map *m, const wst_allocation *list, uint32_t count,
                        ws_error *err);
/* Adds allocation `ordinal` (checked): 0; 1 when it overlaps one already in
 * the map, which is left as it was; -1 with err. */
int wst_alloc_map_insert(wst_alloc_map *m, const wst_allocation *a, uint32_t ordinal,
                         ws_error *err);
/* 1 with *ordinal and *offset when address lies in an allocation, else 0. */
int wst_alloc_map_find(const wst_alloc_map *m, uint64_t address, uint32_t *ordinal,
                       uint64_t *offset);
void wst_alloc_map_free(wst_alloc_map *m);

#endif
