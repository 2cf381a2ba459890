/* analyzer/cta_cache.h: one decode of each CTA for several schedulers.
 *
 * When the warp order is itself under study, each compared hierarchy has
 * its own scheduler (docs/metrics.md §6), yet the trace is decoded once (DESIGN).
 * This source wraps another: the first of `readers` schedulers to dispatch
 * a CTA decodes it, packs it and groups it by warp (the scheduler's own
 * layout), and every scheduler issues from that one copy (borrow_cta),
 * given back when the CTA retires; the copy is dropped once every
 * scheduler has borrowed and given it back.  The schedulers are advanced
 * in lockstep by CTA dispatch (replay.c), so the copies held are about one
 * residency of CTAs, however many schedulers there are. */
#ifndef WS_CTA_CACHE_H
#define WS_CTA_CACHE_H

#include "analyzer/sched.h"

typedef struct cta_cache cta_cache;

cta_cache *cta_cache_new(const sched_source *inner, uint32_t readers, ws_error *err);
void cta_cache_free(cta_cache *c);
/* The source the schedulers read; valid while c lives. */
sched_source cta_cache_source(cta_cache *c);
/* The most CTAs held at once (for memory tests). */
uint32_t cta_cache_peak(const cta_cache *c);

#endif
