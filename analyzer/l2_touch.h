/* analyzer/l2_touch.h: an L2 that never evicts, answered from the issue
 * stream (docs/replay.md, "An L2 that never evicts").
 *
 * When no set of L2 is ever asked for more distinct lines than it has
 * ways (l2_touch_fits: the whole trace, every kernel), no replay of the
 * trace evicts an L2 line, under any issue order, L1 or allocation rule.
 * An L2 access then hits exactly when its line reached L2 before, and a
 * line's first access reaches L2 in every hierarchy fed the same issue
 * stream: nothing held its line before it, so it misses every L1 (a store
 * goes through anyway).  So one record of the lines seen per stream
 * (l2_touch_request) answers the L2 of all of them, which the sweep's
 * grid shares (hierarchy_options.l2_by_touch): the same figures as the
 * slices' LRU, without them.  Dirty lines are never written back before
 * the end, so those written by then are the lines ever written. */
#ifndef WS_L2_TOUCH_H
#define WS_L2_TOUCH_H

#include <stdint.h>

#include "analyzer/config.h"
#include "analyzer/sched.h"
#include "util/error.h"

/* What the stream's record says of one request (replay_ref.l2_touch). */
enum {
    L2_TOUCH_FIRST = 1,      /* the first request to its line: an L2 miss */
    L2_TOUCH_FIRST_WRITE = 2 /* the first write to its line: the line ends dirty */
};

/* Whether every L2 set of `config` is asked for at most its ways of
 * distinct lines over the whole of `source` (coalesced with `half_warp`),
 * and no request can make an L1 line dirty (a local store: its write-back
 * would reach L2 at a time that depends on the L1).  1 or 0; -1 with err
 * set.  Memory: at most the L2's lines, whatever the trace's length. */
int l2_touch_fits(const sched_source *source, const gpu_config *config, int half_warp,
                  ws_error *err);

typedef struct l2_touch l2_touch;

l2_touch *l2_touch_new(ws_error *err);
void l2_touch_free(l2_touch *t);
/* The next request of the stream to `line` (a write: a store's or
 * atomic's): its L2_TOUCH_* flags.  On out of memory, 0 with *failed set. */
uint8_t l2_touch_request(l2_touch *t, uint64_t line, int write, int *failed);

#endif
