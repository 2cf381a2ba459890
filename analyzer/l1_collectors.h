/* analyzer/l1_collectors.h: the replay's built-in metric collectors, as
 * subscribers to the L1 events of hierarchy.h (DESIGN: collectors subscribe
 * to cache events):
 *   miss classes   SPEC §8: cold / intra-warp / inter-warp / write-evict,
 *                  and the 3C split from a fully-associative LRU per SM;
 *   generations    SPEC §4: the locality classes of this L1's lines;
 *   inter-core     SPEC §5: μRC, the remote-holder matrix and the
 *                  replication factor, from a map of which L1s hold a line.
 * They write into the hierarchy's results: per-kernel figures into the
 * kernel *current points to. */
#ifndef WS_L1_COLLECTORS_H
#define WS_L1_COLLECTORS_H

#include "analyzer/cache.h"
#include "analyzer/hierarchy.h"

typedef struct l1_collectors l1_collectors;

l1_collectors *l1_collectors_new(uint32_t sms, uint32_t l1_lines, cache *const *l1,
                                 replay_results *res, replay_kernel *const *current,
                                 ws_error *err);
void l1_collectors_free(l1_collectors *c);

/* Writes its observers to out (room for L1_COLLECTORS of them). */
#define L1_COLLECTORS 3
void l1_collectors_observers(l1_collectors *c, l1_observer *out);

/* Starts fetching what the collectors know of a line (ahead of an
 * instruction's misses). */
void l1_collectors_prefetch(const l1_collectors *c, uint32_t sm, uint64_t line);

/* Kernel end: the generations and replication at the end, then a fresh
 * start (the L1s are flushed). */
int l1_collectors_kernel_end(l1_collectors *c, ws_error *err);

#endif
