/* analyzer/policies/dacache.h: the arithmetic of DaCache (S4 §4, docs/metrics.md §9),
 * apart from the policy so tests can check it against S4's known answers.
 *
 *   gauged insertion  way = min(prio × schedulers × 32 ÷ sets, ways − 1)
 *                     (S4 Eq. 1, 32 = the SIMD width in lanes);
 *   partition         locality region = ways 0..p, p = FCW × 32 ÷ sets − 1,
 *                     at most ways − 2 so a thrashing region remains;
 *                     a warp is a locality warp iff its gauged way <= p;
 *   dynamic FCW       S4 Fig. 7, on every divergent warp-load:
 *     (1) fully cached: CNT + 1;
 *     (2) CNT = Cmax:   FCW + 1 (up to Wmax) and CNT = Cmax / 2; at Wmax
 *                       CNT stays saturated (7);
 *     (3) not fully cached, a thrashing warp: CNT − 1;
 *     (5) not fully cached, a locality warp:  CNT − (FCW − prio), at least 1:
 *                       a miss among the warps the region should hold
 *                       shrinks it faster, the more so the older the warp;
 *     (6) CNT = 0:      FCW − 1 (down to 1) and CNT = Cmax / 2; at 1 CNT
 *                       stays at 0 (7).
 *   S4 leaves open which way the comparison in (3)/(5) reads; the decision
 *   above keeps FCW − prio positive, as its use as a decrement requires,
 *   and is documented in docs/replay.md. */
#ifndef WS_POLICY_DACACHE_H
#define WS_POLICY_DACACHE_H

#include <stdint.h>

#define DACACHE_WIDTH 32         /* SIMD width in lanes (S4 Eq. 1) */
#define DACACHE_PROMOTION 4      /* G: a hit moves the line 4 positions up */
#define DACACHE_SMALL_DIVERGENT 5 /* divergent loads with <= 5 requests insert at MRU */
#define DACACHE_CNT_START 128
#define DACACHE_CMAX 256
#define DACACHE_FCW_START 4
#define DACACHE_WMAX 48
#define DACACHE_VICTIM_TAGS 16   /* the locality detector's victim tag cache, per SM */

static inline uint32_t dacache_gauged_way(uint32_t prio, uint32_t schedulers, uint32_t sets,
                                          uint32_t ways)
{
    uint64_t way = (uint64_t)prio * schedulers * DACACHE_WIDTH / (sets ? sets : 1);
    return way < ways - 1 ? (uint32_t)way : ways - 1;
}

/* p, or -1 when the locality region is empty (FCW = 0, Static0). */
static inline int32_t dacache_partition(uint32_t fcw, uint32_t sets, uint32_t ways)
{
    int64_t p = (int64_t)fcw * DACACHE_WIDTH / (sets ? sets : 1) - 1;
    int64_t cap = (int64_t)ways - 2;
    return (int32_t)(p < cap ? p : cap);
}

typedef struct dacache_fcw {
    uint32_t fcw, cnt;
    uint64_t increases, decreases;
} dacache_fcw;

static inline dacache_fcw dacache_fcw_start(void)
{
    return (dacache_fcw){.fcw = DACACHE_FCW_START, .cnt = DACACHE_CNT_START};
}

/* One divergent warp-load of a warp of priority `prio` retired; `locality`
 * says whether that warp is a locality warp under the current p. */
static inline void dacache_fcw_update(dacache_fcw *f, int fully_cached, int locality, uint32_t prio)
{
    if (fully_cached) {
        if (f->cnt < DACACHE_CMAX)
            f->cnt++;
        if (f->cnt == DACACHE_CMAX && f->fcw < DACACHE_WMAX) {
            f->fcw++;
            f->increases++;
            f->cnt = DACACHE_CMAX / 2;
        }
        return;
    }
    uint32_t step = 1;
    if (locality && f->fcw > prio + 1)
        step = f->fcw - prio;
    f->cnt = f->cnt > step ? f->cnt - step : 0;
    if (f->cnt == 0 && f->fcw > 1) {
        f->fcw--;
        f->decreases++;
        f->cnt = DACACHE_CMAX / 2;
    }
}

#endif
