/* analyzer/warp_orders/gto.h: GTO's choice for orders built on it (CCWS,
 * throttling, LWS), beyond warp_order_gto's ops. */
#ifndef WS_WARP_ORDERS_GTO_H
#define WS_WARP_ORDERS_GTO_H

#include "analyzer/warp_order.h"

/* GTO's pick among v's live warps that are ready now (the greedy warp
 * first, then the oldest); -1 if none is, leaving GTO's state as it was.
 * An order favouring a group of warps tries the group this way first. */
int32_t gto_pick_ready(void *gto_state, const warp_view *v);

/* An order built on GTO keeps GTO's state as the first member of its own
 * (`void *gto`); these hand an event on to it unchanged, for the events
 * the order itself ignores. */
void gto_inner_kernel_begin(void *state, uint32_t slots, uint32_t pc_count);
void gto_inner_arrived(void *state, uint32_t sm, uint32_t slot);
void gto_inner_issued(void *state, const warp_view *v, uint32_t slot, int missed);
void gto_inner_left(void *state, uint32_t sm, uint32_t scheduler, uint32_t slot);

#endif
