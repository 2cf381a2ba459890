/* util/counts.h: structs of uint64_t counters, added field by field. */
#ifndef WS_UTIL_COUNTS_H
#define WS_UTIL_COUNTS_H

#include <stddef.h>
#include <stdint.h>

/* into += from, for a struct made only of uint64_t counters (its size in
 * bytes): per-kernel counts summed into a run's. */
static inline void counts_add(void *into, const void *from, size_t bytes)
{
    uint64_t *dst = into;
    const uint64_t *src = from;
    for (size_t i = 0; i < bytes / sizeof(uint64_t); i++)
        dst[i] += src[i];
}

#endif
