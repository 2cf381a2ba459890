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

/* ws_grow for large, short-lived buffers (the scheduler's resident CTAs):
 * past 2 MiB the array moves to 2 MiB-aligned memory marked for transparent
 * huge pages, so filling it costs one page fault per 2 MiB, not per 4 KiB
 * (first touches dominated the replay on virtual machines). */
/* Only the first `used` elements are kept when the array moves. */
int ws_grow_huge(void **array, size_t *capacity, size_t used, size_t needed, size_t elem_size);

#endif
