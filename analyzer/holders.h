/* analyzer/holders.h: which L1s hold each line now (docs/metrics.md §5).
 *
 * The inter-core collector's state: for every line some L1 holds, the set
 * of SMs holding it, as a bit mask.  A μRC candidate (an L1 load miss)
 * reads the mask to count the other SMs that hold its line, without
 * looking up every other L1; the copies and distinct lines give the
 * replication factor.  Entries exist only while a line is held, so the
 * state is as large as the L1s together. */
#ifndef WS_HOLDERS_H
#define WS_HOLDERS_H

#include <stdint.h>

#include "util/slot_pool.h"
#include "util/u64map.h"

typedef struct holders {
    u64map index;       /* line -> its entry in masks */
    uint64_t *masks;    /* [entries × words]: bit s = SM s holds the line */
    uint32_t words;     /* 64-bit words a mask takes */
    slot_pool entries;  /* of masks: freed by departures, reused first */
    uint64_t copies;    /* lines held, summed over the L1s */
    uint64_t distinct;  /* lines held by at least one L1 */
} holders;

int holders_init(holders *h, uint32_t sms);
void holders_destroy(holders *h);
/* Kernel end: the L1s are flushed. */
void holders_clear(holders *h);

/* sm's L1 filled line.  -1 on out of memory. */
int holders_add(holders *h, uint64_t line, uint32_t sm);
/* line left sm's L1. */
void holders_remove(holders *h, uint64_t line, uint32_t sm);

/* The SMs holding line (h->words words), or NULL when none does. */
static inline const uint64_t *holders_of(const holders *h, uint64_t line)
{
    const uint32_t *entry = u64map_find(&h->index, line);
    return entry ? h->masks + (size_t)*entry * h->words : NULL;
}

static inline int holders_has(const uint64_t *mask, uint32_t sm)
{
    return (int)(mask[sm / 64] >> (sm % 64) & 1);
}

#endif
