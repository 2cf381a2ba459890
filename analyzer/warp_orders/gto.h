/* analyzer/warp_orders/gto.h: GTO's choice for orders built on it (CCWS,
 * throttling, LWS), beyond warp_order_gto's ops. */
#ifndef WS_WARP_ORDERS_GTO_H
#define WS_WARP_ORDERS_GTO_H

#include "analyzer/warp_order.h"

/* GTO's pick among v's live warps that are ready now (the greedy warp
 * first, then the oldest); -1 if none is, leaving GTO's state as it was.
 * An order favouring a group of warps tries the group this way first. */
int32_t gto_pick_ready(void *gto_state, const warp_view *v);

/* GTO's pick in the timed replay, where no order is told of a miss
 * (docs/metrics.md §12), so no warp waits after one and the issue count
 * that would time its wait is never read: the greedy warp if it can issue
 * now, else the oldest that can, `oldest_ready` (the scheduler's look
 * found it), which becomes greedy.  `greedy` is the scheduler's entry of
 * warp_order_ops.timed_greedy's array; `head` and `ldst_open` are its SM's
 * (warp_view.timing, warp_view.ldst_open).  Inline: every timed issue
 * under GTO picks through it. */
static inline uint32_t gto_timed_pick(int32_t *greedy, const uint8_t *live,
                                      const warp_timing *head, uint64_t cycle, uint64_t ldst_open,
                                      uint32_t oldest_ready)
{
    int32_t current = *greedy;
    if (current >= 0 && live[current] &&
        warp_timing_issue_from(&head[current], ldst_open) <= cycle)
        return (uint32_t)current;
    *greedy = (int32_t)oldest_ready;
    return oldest_ready;
}

/* An order built on GTO keeps GTO's state as the first member of its own
 * (`void *gto`); these hand an event on to it unchanged, for the events
 * the order itself ignores. */
void gto_inner_kernel_begin(void *state, uint32_t slots, uint32_t pc_count);
void gto_inner_arrived(void *state, uint32_t sm, uint32_t slot);
void gto_inner_issued(void *state, const warp_view *v, uint32_t slot, int missed);
void gto_inner_left(void *state, uint32_t sm, uint32_t scheduler, uint32_t slot);

#endif
