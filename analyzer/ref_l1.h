/* analyzer/ref_l1.h: the scheduler's reference L1 (docs/metrics.md §6, §7).
 *
 * GTO switches warps when one misses in L1.  So that every consumer sees
 * the same issue order, that miss comes from one fixed model: per SM, the
 * replay's own cache model (cache.h) of the configured L1 geometry, sectors
 * included, under `lru` and the L1 rules of l1_rules.h.  It is therefore
 * exactly the L1 of `replay --l1-policy lru` on the same schedule.  The stream
 * computes it once and hands each request's outcome to every consumer, so
 * analyze's LRU counts and locality generations need not simulate it
 * again. */
#ifndef WS_REF_L1_H
#define WS_REF_L1_H

#include "analyzer/config.h"
#include "analyzer/l1_rules.h"
#include "analyzer/request.h"
#include "util/error.h"

/* An L1's answer on one request: the reference L1's, or, in the timed
 * replay, the replayed hierarchy's own (hierarchy_l1_view, docs/metrics.md
 * §12), which the warp orders that watch L1 (CCWS, LWS) read there. */
typedef struct replay_ref {
    uint8_t outcome;   /* l1_route; L1_BYPASS also for a request the policy refused */
    uint8_t hit;       /* every sector asked for was valid (timed: pending lines too) */
    uint8_t present;   /* the line was there (a sector miss is present, not hit) */
    uint8_t evicted;   /* a lookup's fill replaced a line, or a write-evict removed this one */
    uint8_t filled;    /* a miss put its line in (one that did not allocate did not) */
    /* Timed only (0 from the reference L1, which has no clock): measured is
     * set, served is where a load's data came from (served_by of
     * mem_timing.h: a merge into an MSHR is SERVED_L1_MERGE), latency its
     * cycles from issue to data back. */
    uint8_t measured;
    uint8_t served;
    /* The stream's first touches of L2 (L2_TOUCH_* of analyzer/l2_touch.h),
     * set only when the run answers L2 from them (replay_options.l2_by_touch). */
    uint8_t l2_touch;
    uint32_t victim_warp; /* a replaced line's filler (the warp argument it was filled
                             with); UINT32_MAX for a write-evict */
    uint32_t latency;
    uint64_t victim_line;
} replay_ref;

typedef struct ref_l1 ref_l1;

ref_l1 *ref_l1_new(const gpu_config *config, ws_error *err);
void ref_l1_free(ref_l1 *r);
/* Kernel boundary: the L1s are flushed (docs/metrics.md §7). */
void ref_l1_flush(ref_l1 *r);

/* One request of an instruction by `warp` on `sm`, routed by the L1 rules
 * (l1_route_of of the instruction); returns whether GTO counts it as a
 * miss (a lookup that did not hit, or a bypass, which waits on L2). */
int ref_l1_request(ref_l1 *r, uint32_t sm, l1_route route, uint32_t warp, const ws_request *rq,
                   replay_ref *out);

#endif
