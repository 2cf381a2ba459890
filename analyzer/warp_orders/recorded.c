/* analyzer/warp_orders/recorded.c: the trace's own order (docs/metrics.md §6): the
 * scheduler issues the record with the earliest timestamp over every SM,
 * so this order is a marker with nothing to decide. */
#include "analyzer/warp_order.h"

static void *recorded_create(const warp_order_geometry *g, ws_error *err)
{
    (void)g, (void)err;
    static int none;
    return &none;
}

static void recorded_destroy(void *state) { (void)state; }

const warp_order_ops warp_order_recorded = {
    .name = "recorded",
    .description = "the trace's timestamps (needs SM ids and timestamps)",
    .recorded = 1,
    .create = recorded_create,
    .destroy = recorded_destroy,
};
