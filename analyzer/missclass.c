/* analyzer/missclass.c: see missclass.h (docs/metrics.md §8). */
#include "analyzer/missclass.h"

#include <stdlib.h>

#include "util/u64map.h"

/* Departure causes stored as map values. */
#define DEPARTED_BY_WRITE 0xffffffffu

struct missclass {
    uint32_t sm_count;
    /* per SM: line -> evicting warp or DEPARTED_BY_WRITE; made at the SM's
     * first departure (an SM that never issues has none) */
    u64map *departures;
};

missclass *missclass_new(uint32_t sm_count, ws_error *err)
{
    missclass *mc = calloc(1, sizeof *mc);
    if (!mc || !(mc->departures = calloc(sm_count ? sm_count : 1, sizeof *mc->departures)))
        goto oom;
    mc->sm_count = sm_count;
    return mc;
oom:
    ws_fail(err, "out of memory");
    missclass_free(mc);
    return NULL;
}

void missclass_free(missclass *mc)
{
    if (!mc)
        return;
    for (uint32_t s = 0; mc->departures && s < mc->sm_count; s++)
        u64map_destroy(&mc->departures[s]);
    free(mc->departures);
    free(mc);
}

void missclass_begin_kernel(missclass *mc)
{
    for (uint32_t s = 0; s < mc->sm_count; s++)
        u64map_clear(&mc->departures[s]);
}

static int record_departure(missclass *mc, uint32_t sm, uint64_t line, uint32_t cause,
                            ws_error *err)
{
    if (sm >= mc->sm_count)
        return ws_fail(err, "miss classes: SM %u outside 0..%u", sm, mc->sm_count - 1);
    int inserted;
    u64map *map = &mc->departures[sm];
    /* Small at first, grown as lines depart: an SM's map was 8 KiB of
     * cleared pages from its first departure on, two page faults each on
     * a short trace (bench/RESULTS.md, "Branch kern41"). */
    if (!map->slots && u64map_init(map, 16) != 0)
        return ws_fail(err, "out of memory");
    uint32_t *slot = u64map_upsert(map, line, cause, &inserted);
    if (!slot)
        return ws_fail(err, "out of memory");
    *slot = cause;
    return 0;
}

void missclass_prefetch(const missclass *mc, uint32_t sm, uint64_t line)
{
    if (sm < mc->sm_count && mc->departures[sm].slots)
        u64map_prefetch(&mc->departures[sm], line);
}

int missclass_evicted(missclass *mc, uint32_t sm, uint64_t line, uint32_t evictor,
                      ws_error *err)
{
    /* Warp ids never reach DEPARTED_BY_WRITE: that would be 2^32 - 1 warps. */
    return record_departure(mc, sm, line, evictor, err);
}

int missclass_invalidated(missclass *mc, uint32_t sm, uint64_t line, ws_error *err)
{
    return record_departure(mc, sm, line, DEPARTED_BY_WRITE, err);
}

miss_class missclass_miss(missclass *mc, uint32_t sm, uint64_t line, uint32_t warp,
                          int fully_assoc_hit, miss_counts *counts)
{
    const uint32_t *cause = sm < mc->sm_count && mc->departures[sm].slots
                                ? u64map_find(&mc->departures[sm], line)
                                : NULL;
    miss_class c;
    if (!cause)
        c = MISS_COLD;
    else if (*cause == DEPARTED_BY_WRITE)
        c = MISS_WRITE_EVICT;
    else
        c = *cause == warp ? MISS_INTRA_WARP : MISS_INTER_WARP;
    counts->by_class[c]++;
    /* Write-evict is the fourth C, invalidation: outside the capacity /
     * conflict split (docs/metrics.md §8). */
    if (c != MISS_COLD && c != MISS_WRITE_EVICT) {
        if (fully_assoc_hit)
            counts->conflict++;
        else
            counts->capacity++;
    }
    return c;
}

const char *miss_class_name(miss_class c)
{
    static const char *const names[MISS_CLASSES] = {"cold", "intra-warp", "inter-warp",
                                                    "write-evict"};
    return (unsigned)c < MISS_CLASSES ? names[c] : "?";
}
