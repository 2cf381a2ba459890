/* analyzer/warp_orders/throttle.c: static warp throttling (SPEC §6, §9, the
 * baselines S2, S3 and S4 cite, and S3 ch. 5's warp tuples), on top of GTO:
 *   tuple:N,p S3's (N, p): the same rule as pcal:N,p, under S3's name;
 *   swl:N     static warp limiting: only the N oldest warps of each
 *             scheduler issue (= pcal:N,N);
 *   pcal:N,p  priority-based cache allocation with a static tuple: the N
 *             oldest issue, only the p oldest of them may allocate in L1
 *             (the others may hit but never allocate; S3 ch. 5's (N, p)).
 * Among the warps allowed to issue the order is GTO's. */
#include <stdlib.h>

#include "analyzer/warp_order.h"

typedef struct throttle {
    void *gto;        /* GTO's state, for the N oldest */
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

static void throttle_kernel_begin(void *state, uint32_t slots, uint32_t pc_count)
{
    warp_order_gto.kernel_begin(((throttle *)state)->gto, slots, pc_count);
}

static void throttle_arrived(void *state, uint32_t sm, uint32_t slot)
{
    warp_order_gto.arrived(((throttle *)state)->gto, sm, slot);
}

/* GTO among the scheduler's N oldest live warps only. */
static int32_t throttle_pick(void *state, const warp_view *v)
{
    throttle *t = state;
    warp_view oldest = *v;
    if (oldest.live_count > t->issue_n)
        oldest.live_count = t->issue_n;
    return warp_order_gto.pick(t->gto, &oldest);
}

static void throttle_issued(void *state, const warp_view *v, uint32_t slot, int missed)
{
    warp_order_gto.issued(((throttle *)state)->gto, v, slot, missed);
}

static void throttle_left(void *state, uint32_t sm, uint32_t scheduler, uint32_t slot)
{
    warp_order_gto.left(((throttle *)state)->gto, sm, scheduler, slot);
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
        .kernel_begin = throttle_kernel_begin, .arrived = throttle_arrived,                \
        .pick = throttle_pick, .issued = throttle_issued, .left = throttle_left,           \
        .may_allocate = throttle_may_allocate}

THROTTLE(swl, "swl", 0, "swl:N, static warp limiting: only the N oldest warps per scheduler issue");
THROTTLE(pcal, "pcal", 1, "pcal:N,p: the N oldest warps per scheduler issue, the p oldest allocate");
THROTTLE(tuple, "tuple", 1, "tuple:N,p, S3's warp-tuple (N, p): as pcal:N,p, the grid sweep's points");
