/* analyzer/warp_orders/throttle.c: static warp throttling (docs/metrics.md §6, §9, the
 * baselines S2, S3 and S4 cite, and S3 ch. 5's warp tuples), on top of GTO:
 *   tuple:N,p S3's (N, p): the same rule as pcal:N,p, under S3's name;
 *   swl:N     static warp limiting: only the N oldest warps of each
 *             scheduler issue (= pcal:N,N);
 *   pcal:N,p  priority-based cache allocation with a static tuple: the N
 *             oldest issue, only the p oldest of them may allocate in L1
 *             (the others may hit but never allocate; S3 ch. 5's (N, p)).
 * Among the warps allowed to issue the order is GTO's. */
#include <stdlib.h>

#include "analyzer/warp_orders/gto.h"

typedef struct throttle {
    void *gto;        /* GTO's state, for the N oldest (first: gto.h) */
    uint32_t issue_n, allocate_p;
} throttle;

static void *throttle_create(const warp_order_geometry *g, ws_error *err)
{
    throttle *t = calloc(1, sizeof *t);
    if (!t || !(t->gto = warp_order_gto.create(g, err))) {
        free(t);
        return t ? NULL : (ws_fail(err, "out of memory"), NULL);
    }
    t->issue_n = g->issue_n;
    t->allocate_p = g->allocate_p;
    return t;
}

static void throttle_destroy(void *state)
{
    throttle *t = state;
    warp_order_gto.destroy(t->gto);
    free(t);
}

/* GTO among the scheduler's N oldest live warps only.  Steady when idle
 * (warp_order.h): GTO's choose changes nothing when no warp of the N can
 * issue, and the N are the same until a warp leaves. */
static int32_t throttle_pick(void *state, const warp_view *v)
{
    throttle *t = state;
    warp_view oldest = *v;
    if (oldest.live_count > t->issue_n)
        oldest.live_count = t->issue_n;
    return warp_order_gto.pick(t->gto, &oldest);
}

static int throttle_may_allocate(const void *state, uint32_t age_rank)
{
    return age_rank < ((const throttle *)state)->allocate_p;
}

#define THROTTLE(id, order_name, with_p, text)                                              \
    const warp_order_ops warp_order_##id = {                                               \
        .name = order_name, .description = text, .uses_misses = 1, .parameters = 1,        \
        .under_study = 1,                                                                  \
        .takes_p = with_p,                                                                 \
        .create = throttle_create, .destroy = throttle_destroy,                            \
        .kernel_begin = gto_inner_kernel_begin, .arrived = gto_inner_arrived,              \
        .pick = throttle_pick, .steady_when_idle = 1,                                      \
        .issued = gto_inner_issued, .left = gto_inner_left,                                \
        .may_allocate = throttle_may_allocate}

THROTTLE(swl, "swl", 0, "swl:N, static warp limiting: only the N oldest warps per scheduler issue");
THROTTLE(pcal, "pcal", 1, "pcal:N,p: the N oldest warps per scheduler issue, the p oldest allocate");
THROTTLE(tuple, "tuple", 1, "tuple:N,p, S3's warp-tuple (N, p): as pcal:N,p, the grid sweep's points");
