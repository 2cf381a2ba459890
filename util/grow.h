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

static inline int ws_grow(void **array, size_t *capacity, size_t needed, size_t elem_size)
{
    if (needed <= *capacity)
        return 0;
    size_t cap = *capacity ? *capacity : 16;
    while (cap < needed)
        cap *= 2;
    void *grown = realloc(*array, cap * elem_size);
    if (!grown)
        return -1;
    *array = grown;
    *capacity = cap;
    return 0;
}

#endif
