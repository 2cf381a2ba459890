/* util/slot_pool.h: slots in a growing array, freed ones reused first.
 *
 * For per-key records kept beside a u64map that holds only the slot's
 * index: the records of lines an L1 holds now (analyzer/locality.c,
 * analyzer/holders.c), which come and go with fills and evictions.  The
 * pool keeps the count and the freed indices; the caller owns the array.
 *
 *   uint32_t at;
 *   if (slot_pool_take(&pool, (void **)&items, sizeof *items, &at) != 0)
 *       return ws_fail(err, "out of memory");
 *   ... items[at] = ...;  later slot_pool_put(&pool, at); */
#ifndef WS_SLOT_POOL_H
#define WS_SLOT_POOL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/grow.h"

typedef struct slot_pool {
    size_t count;        /* slots ever handed out since the last clear: items[0, count) */
    size_t capacity;     /* of items, and of unused */
    uint32_t *unused;    /* freed slots, the last freed taken first */
    size_t unused_count;
} slot_pool;

/* A slot for a new item in *items (elem_size bytes each): a freed one,
 * else the next, growing *items.  -1 on out of memory, nothing changed. */
static inline int slot_pool_take(slot_pool *p, void **items, size_t elem_size, uint32_t *at)
{
    if (p->unused_count) {
        *at = p->unused[--p->unused_count];
        return 0;
    }
    if (p->count == p->capacity) {
        size_t capacity = p->capacity;
        if (ws_grow(items, &capacity, p->count + 1, elem_size) != 0)
            return -1;
        uint32_t *unused = realloc(p->unused, capacity * sizeof *unused);
        if (!unused)
            return -1;
        p->unused = unused;
        p->capacity = capacity;
    }
    *at = (uint32_t)p->count++;
    return 0;
}

/* Slot `at` is free again. */
static inline void slot_pool_put(slot_pool *p, uint32_t at) { p->unused[p->unused_count++] = at; }

/* Every slot free (the array keeps its room). */
static inline void slot_pool_clear(slot_pool *p) { p->count = p->unused_count = 0; }

static inline void slot_pool_destroy(slot_pool *p)
{
    free(p->unused);
    *p = (slot_pool){0};
}

#endif
