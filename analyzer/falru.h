/* analyzer/falru.h: a fully-associative LRU cache in O(1) per access.
 *
 * The reference for the 3C split (docs/metrics.md §8): a non-cold miss is a capacity
 * miss if a fully-associative LRU cache of the same size would also miss.
 * A hash map from line to node plus a doubly linked recency list, so large
 * L1s (1536 lines) cost the same as small ones. */
#ifndef WS_FALRU_H
#define WS_FALRU_H

#include <stdint.h>

#include "util/error.h"

typedef struct falru falru;

falru *falru_new(uint32_t lines, ws_error *err);
void falru_free(falru *f);
void falru_flush(falru *f);
/* 1 = hit, 0 = miss (allocated).  Never fails today (falru_new allocates
 * every table); -1 with err set is kept for callers as out of memory. */
int falru_access(falru *f, uint64_t line, ws_error *err);
void falru_invalidate(falru *f, uint64_t line);

#endif
