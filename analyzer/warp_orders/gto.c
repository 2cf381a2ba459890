/* analyzer/warp_orders/gto.c: greedy-then-oldest (docs/metrics.md §6): keep issuing
 * the greedy warp until it misses in the reference L1, then the oldest
 * ready warp; a warp that missed is ready again after K = gto_k issues of
 * its scheduler.  The greedy choice belongs to a warp, not a slot: when the
 * greedy warp leaves, the next pick is the oldest ready warp, never a
 * newcomer to the same slot. */
#include <stdlib.h>

#include "analyzer/warp_orders/gto.h"

typedef struct gto {
    uint32_t sms, schedulers, slots, k;
    int32_t *greedy;       /* [sms × schedulers]: the greedy warp's slot, or -1 */
    uint64_t *issues;      /* [sms × schedulers]: the scheduler's issue count */
    uint64_t *ready_at;    /* [sms × slots]: issue count when the warp is ready */
} gto;

static void gto_destroy(void *state)
{
    gto *o = state;
    if (!o)
        return;
    free(o->greedy);
    free(o->issues);
    free(o->ready_at);
    free(o);
}

static void *gto_create(const warp_order_geometry *g, ws_error *err)
{
    gto *o = calloc(1, sizeof *o);
    size_t per_sm = (size_t)g->sms * g->schedulers;
    if (!o || !(o->greedy = malloc(per_sm * sizeof *o->greedy)) ||
        !(o->issues = calloc(per_sm, sizeof *o->issues)) ||
        !(o->ready_at = calloc((size_t)g->sms * (g->slots ? g->slots : 1), sizeof *o->ready_at))) {
        gto_destroy(o);
        return ws_fail(err, "out of memory"), NULL;
    }
    o->sms = g->sms;
    o->schedulers = g->schedulers;
    o->slots = g->slots;
    o->k = g->gto_k;
    for (size_t i = 0; i < per_sm; i++)
        o->greedy[i] = -1;
    return o;
}

/* A kernel starts afresh: no greedy warp, clocks at zero.  (Its warp
 * slots never exceed the geometry's: residency caps them at
 * max_warps_per_sm.) */
static void gto_kernel_begin(void *state, uint32_t slots, uint32_t pc_count)
{
    (void)slots, (void)pc_count;
    gto *o = state;
    size_t per_sm = (size_t)o->sms * o->schedulers;
    for (size_t i = 0; i < per_sm; i++) {
        o->greedy[i] = -1;
        o->issues[i] = 0;
    }
}

static void gto_arrived(void *state, uint32_t sm, uint32_t slot)
{
    gto *o = state;
    o->ready_at[(size_t)sm * o->slots + slot] = 0;
}

/* The greedy warp if it is ready, else the oldest ready warp; if every
 * warp is waiting after a miss, the one that becomes ready first (time
 * passes in a functional model), unless ready_only: then -1, and the
 * greedy warp stays.  In the timed replay (v->timing) only the warps that
 * can issue this cycle count, and none waits after a miss (no gto_k: it
 * waits for its data instead, docs/metrics.md §12); when none can issue,
 * the greedy warp stays greedy. */
/* Inline in its two callers: every timed issue picks through it. */
static inline __attribute__((always_inline)) int32_t choose(gto *o, const warp_view *v,
                                                            int ready_only)
{
    size_t at = (size_t)v->sm * o->schedulers + v->scheduler;
    const uint64_t *ready_at = o->ready_at + (size_t)v->sm * o->slots;
    int32_t current = o->greedy[at];
    uint64_t now = o->issues[at];
    if (current >= 0 && v->live[current] && ready_at[current] <= now &&
        warp_view_ready(v, (uint32_t)current))
        return current;
    int32_t soonest = -1;
    ready_only |= v->timing != NULL;
    /* The warps the scheduler's look found unable to issue are passed
     * over, and the one after them can issue (the look found so): the
     * oldest ready warp, unless it waits after a miss. */
    int known = v->first_ready_of == v->by_age;
    uint32_t from = known ? v->first_ready : 0;
    if (known && from < v->live_count) {
        uint32_t slot = v->by_age[from];
        if (ready_at[slot] <= now) {
            o->greedy[at] = (int32_t)slot;
            return (int32_t)slot;
        }
    }
    for (uint32_t k = from; k < v->live_count; k++) {
        uint32_t slot = v->by_age[k];
        if (!warp_view_ready(v, slot))
            continue;
        if (ready_at[slot] <= now) {
            soonest = (int32_t)slot; /* the oldest ready warp */
            break;
        }
        if (ready_only)
            continue;
        /* Strictly sooner: of warps ready at the same time, the older. */
        if (soonest < 0 || ready_at[slot] < ready_at[soonest])
            soonest = (int32_t)slot;
    }
    if (soonest >= 0 || !ready_only)
        o->greedy[at] = soonest;
    return soonest;
}

static int32_t gto_pick(void *state, const warp_view *v) { return choose(state, v, 0); }

int32_t gto_pick_ready(void *state, const warp_view *v) { return choose(state, v, 1); }

static void gto_left(void *state, uint32_t sm, uint32_t scheduler, uint32_t slot)
{
    gto *o = state;
    int32_t *greedy = &o->greedy[(size_t)sm * o->schedulers + scheduler];
    if (*greedy == (int32_t)slot)
        *greedy = -1;
}

static void gto_issued(void *state, const warp_view *v, uint32_t slot, int missed)
{
    gto *o = state;
    size_t at = (size_t)v->sm * o->schedulers + v->scheduler;
    o->issues[at]++;
    if (missed) {
        o->ready_at[(size_t)v->sm * o->slots + slot] = o->issues[at] + o->k;
        o->greedy[at] = -1;
    }
}

static int32_t *gto_timed_greedy(void *state) { return ((gto *)state)->greedy; }

/* The GTO state of an order built on it: its first member. */
static void *inner(void *state) { return *(void **)state; }

void gto_inner_kernel_begin(void *state, uint32_t slots, uint32_t pc_count)
{
    gto_kernel_begin(inner(state), slots, pc_count);
}

void gto_inner_arrived(void *state, uint32_t sm, uint32_t slot)
{
    gto_arrived(inner(state), sm, slot);
}

void gto_inner_issued(void *state, const warp_view *v, uint32_t slot, int missed)
{
    gto_issued(inner(state), v, slot, missed);
}

void gto_inner_left(void *state, uint32_t sm, uint32_t scheduler, uint32_t slot)
{
    gto_left(inner(state), sm, scheduler, slot);
}

const warp_order_ops warp_order_gto = {
    .name = "gto",
    .description = "greedy-then-oldest: the greedy warp until it misses in L1, then the oldest",
    .uses_misses = 1,
    .create = gto_create,
    .destroy = gto_destroy,
    .kernel_begin = gto_kernel_begin,
    .arrived = gto_arrived,
    .pick = gto_pick,
    .issued = gto_issued,
    .left = gto_left,
    .timed_greedy = gto_timed_greedy,
};
