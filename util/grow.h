/* util/grow.h: growing a dynamic array by doubling.
 *
 *   if (ws_grow((void **)&items, &capacity, count + 1, sizeof *items) != 0)
 *       return ws_fail(err, "out of memory");
 *
 * Leaves the array untouched on failure. */
#ifndef WS_GROW_H
#define WS_GROW_H

#include <stddef.h>
#include <stdlib.h>

/* The array resized to exactly `needed` items when it holds fewer (a
 * size known in advance, or one that follows another array's: the packed
 * records' side arrays, formats/packed_record.h). */
static inline int ws_grow_exact(void **array, size_t *capacity, size_t needed, size_t elem_size)
{
    if (needed <= *capacity)
        return 0;
    void *grown = realloc(*array, needed * elem_size);
    if (!grown)
        return -1;
    *array = grown;
    *capacity = needed;
    return 0;
}

/* The capacity ws_grow gives an array of `capacity` items that must hold
 * `needed` (more than it does): 16 at first, doubled until it does.  For
 * an allocator of its own that grows as ws_grow (formats/packed_record.c's
 * lane pool). */
static inline size_t ws_grown_capacity(size_t capacity, size_t needed)
{
    size_t cap = capacity ? capacity : 16;
    while (cap < needed)
        cap *= 2;
    return cap;
}

static inline int ws_grow(void **array, size_t *capacity, size_t needed, size_t elem_size)
{
    if (needed <= *capacity)
        return 0;
    return ws_grow_exact(array, capacity, ws_grown_capacity(*capacity, needed), elem_size);
}

#endif
