/* analyzer/warp_orders/lrr.c: loose round robin (docs/metrics.md §6): the scheduler's
 * warps in slot order, one instruction each per turn, starting after the
 * last one issued. */
#include <stdlib.h>

#include "analyzer/warp_order.h"

typedef struct lrr {
    uint32_t sms, schedulers;
    uint32_t *last; /* [sms × schedulers]: position of the last issue */
} lrr;

static void lrr_kernel_begin(void *state, uint32_t slots, uint32_t pc_count)
{
    (void)slots, (void)pc_count;
    lrr *o = state;
    size_t n = (size_t)o->sms * o->schedulers;
    for (size_t i = 0; i < n; i++)
        o->last[i] = UINT32_MAX; /* so the first turn starts at position 0 */
}

static void *lrr_create(const warp_order_geometry *g, ws_error *err)
{
    lrr *o = calloc(1, sizeof *o);
    if (!o || !(o->last = malloc((size_t)g->sms * g->schedulers * sizeof *o->last))) {
        free(o);
        return ws_fail(err, "out of memory"), NULL;
    }
    o->sms = g->sms;
    o->schedulers = g->schedulers;
    lrr_kernel_begin(o, g->slots, 0);
    return o;
}

static void lrr_destroy(void *state)
{
    lrr *o = state;
    free(o->last);
    free(o);
}

static int32_t lrr_pick(void *state, const warp_view *v)
{
    lrr *o = state;
    uint32_t step = v->schedulers, t = v->scheduler;
    if (t >= v->slot_count)
        return -1;
    uint32_t *last = &o->last[(size_t)v->sm * o->schedulers + t];
    uint32_t count = (v->slot_count - t + step - 1) / step;
    for (uint32_t k = 1; k <= count; k++) {
        uint32_t position = (*last + k) % count;
        uint32_t slot = t + position * step;
        if (v->live[slot] && warp_view_ready(v, slot)) {
            *last = position;
            return (int32_t)slot;
        }
    }
    return -1;
}

const warp_order_ops warp_order_lrr = {
    .name = "lrr",
    .description = "loose round robin: each ready warp issues one instruction per turn",
    .create = lrr_create,
    .destroy = lrr_destroy,
    .kernel_begin = lrr_kernel_begin,
    .pick = lrr_pick,
};
