/* analyzer/timed_replay.h: the timed replay's closed loop (docs/metrics.md
 * §12).
 *
 * Each hierarchy drives its own issue stream: its own scheduler on the
 * timed clock (sched.h), whose ISSUE events go through the coalescer into
 * the hierarchy, which answers when the data is back and when the LD/ST
 * unit is free; the scheduler's ready warps follow.  Several hierarchies
 * (compare) share one decode of the trace through a CTA cache, advanced in
 * lockstep by CTA dispatch; they run on the calling thread. */
#ifndef WS_TIMED_REPLAY_H
#define WS_TIMED_REPLAY_H

#include "analyzer/replay.h"

/* Feeds hs[0..count) (each made with hierarchy_options.timed), hierarchy
 * i under warp order orders[i] (ops NULL: the options' own). */
int timed_replay_run(const sched_source *source, const gpu_config *config,
                     const replay_options *o, hierarchy **hs, const warp_order_spec *orders,
                     uint32_t count, progress *bar, ws_error *err);

#endif
