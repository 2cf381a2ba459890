/* analyzer/set_index.h: which set a line maps to (docs/metrics.md §7).
 *
 * Shared by the tag-only reference L1 (tagcache.c) and the policy caches
 * (cache.c), so both place a line in the same set. */
#ifndef WS_SET_INDEX_H
#define WS_SET_INDEX_H

#include <stdint.h>

#include "analyzer/config.h"

/* Whether the Fermi hash applies (set_index_of). */
static inline int set_index_hashed(set_index kind, uint32_t sets)
{
    return kind == INDEX_FERMI_HASH && (sets == 32 || sets == 64);
}

/* Whether the set is the line's low bits: linear over a power of 2 sets. */
static inline int set_index_is_mask(set_index kind, uint32_t sets)
{
    return !set_index_hashed(kind, sets) && (sets & (sets - 1)) == 0;
}

/* Linear: line mod sets.  Fermi hash: GPGPU-Sim's FERMI_HASH_SET_FUNCTION
 * for 32 or 64 sets (line bits xor'ed with address bits 13-15, 17 and 19;
 * 64 sets add bit 12); other set counts fall back to linear. */
static inline uint32_t set_index_of(set_index kind, uint64_t line, uint32_t line_shift,
                                    uint32_t sets)
{
    if (set_index_hashed(kind, sets)) {
        uint64_t addr = line << line_shift;
        uint32_t lower = (uint32_t)(line & 0x1f);
        uint32_t upper = (uint32_t)(((addr & 0xe000) >> 13) | ((addr & 0x20000) >> 14) |
                                    ((addr & 0x80000) >> 15));
        uint32_t set = lower ^ upper;
        if (sets == 64)
            set |= (uint32_t)((addr & 0x1000) >> 7);
        return set;
    }
    if ((sets & (sets - 1)) == 0) /* a mask, not a 64-bit division: the hot path */
        return (uint32_t)(line & (sets - 1));
    return (uint32_t)(line % sets);
}

#endif
