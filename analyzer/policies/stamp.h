/* analyzer/policies/stamp.h: the state of the recency-stack policies.
 *
 * LRU, FIFO, LIP, BIP and DIP keep the recency stack as stamps: a line's
 * word is the clock when it last moved to MRU, so the victim is the
 * smallest stamp.  Inserting at the LRU end stores a negative stamp that is
 * below every MRU stamp and below every earlier LRU insertion, which is
 * exactly "push onto the bottom of the stack". */
#ifndef WS_POLICY_STAMP_H
#define WS_POLICY_STAMP_H

#include <stdint.h>

#include "analyzer/policy.h"

typedef struct stamp_state {
    int64_t clock;
    uint64_t rng;
    uint32_t sets;
    uint32_t psel; /* DIP's selector */
} stamp_state;

void *stamp_create(const policy_geometry *g, ws_error *err);
void stamp_destroy(void *state);

static inline void stamp_mru(stamp_state *s, const cache_set *set, uint32_t way)
{
    set->meta[way] = ++s->clock;
}

static inline void stamp_lru(stamp_state *s, const cache_set *set, uint32_t way)
{
    set->meta[way] = -(++s->clock);
}

/* BIP's insertion: MRU with probability 1/32 (docs/metrics.md §7), else LRU. */
static inline void stamp_bimodal(stamp_state *s, const cache_set *set, uint32_t way)
{
    if ((policy_rand(&s->rng) & 31) == 0)
        stamp_mru(s, set, way);
    else
        stamp_lru(s, set, way);
}

uint32_t stamp_victim(void *state, const cache_set *set, uint64_t candidates, const cache_req *r);
/* The least recently used candidate whose LINE_SHARED bit is `shared`, or
 * set->ways if none (S0's sharing-aware replacement). */
uint32_t stamp_lru_with(const cache_set *set, uint64_t candidates, int shared);

void stamp_promote(void *state, const cache_set *set, uint32_t way, const cache_req *r);
void stamp_keep(void *state, const cache_set *set, uint32_t way, const cache_req *r);

#endif
