/* analyzer/tagcache.h: a tag-only, set-associative LRU cache.
 *
 * The scheduler's reference L1 (docs/metrics.md §6: GTO's "misses in L1" comes from a
 * tag-only LRU L1 of the configured geometry) and the L1 whose line
 * generations give the locality classes (docs/metrics.md §4).  The replay policies of
 * docs/metrics.md §7 are a separate library; this is the one fixed LRU they are all
 * compared under. */
#ifndef WS_TAGCACHE_H
#define WS_TAGCACHE_H

#include <stdint.h>

#include "analyzer/config.h"
#include "util/error.h"

typedef struct tagcache_result {
    int hit;
    int evicted;           /* a valid line was replaced */
    uint64_t victim_line;  /* its line address (in lines, not bytes) */
    uint32_t victim_owner; /* owner tag given when the victim was filled */
} tagcache_result;

typedef struct tagcache tagcache;

tagcache *tagcache_new(const cache_config *geometry, ws_error *err);
void tagcache_free(tagcache *c);
void tagcache_flush(tagcache *c);

/* Set of a line (line address = byte address ÷ line size). */
uint32_t tagcache_set(const tagcache *c, uint64_t line);

/* Looks line up; on a miss with allocate, fills it (LRU victim). owner is
 * kept with the line and returned when it is evicted (e.g. a warp id). */
tagcache_result tagcache_access(tagcache *c, uint64_t line, int allocate, uint32_t owner);
/* Removes the line if present (write-evict); 1 if it was there. */
int tagcache_invalidate(tagcache *c, uint64_t line);
int tagcache_contains(const tagcache *c, uint64_t line);

#endif
