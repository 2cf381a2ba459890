/* analyzer/warp_orders/lws.c: locality-based warp scheduling (S2 §5, docs/metrics.md
 * §9): GTO, steered by how well each SM's L1 is doing.
 *
 * Every 256 L1 accesses of an SM, the cache utilization score of that
 * window is
 *     CUS = (hits × L2 latency) ÷ (misses × stall penalty)
 * (S2 Eq. 1; a window without misses scores above any threshold), where
 * misses × stall penalty is the sum of the window's misses' stalls (S2's
 * Stall_net).  Measured in the timed replay (docs/metrics.md §12), from
 * the L1 it watches there, the replayed hierarchy's own: a hit is a ready
 * line's (a merge into an MSHR waits, so it is a miss here, as S2's
 * statistics count it), a miss stalls for its latency from issue to data
 * back, and the L2 latency is the mean latency of the SM's loads served by
 * L2 so far in the kernel (the config's until one is).  On the functional
 * reference L1, which has no clock, the config's L2 latency and its DRAM
 * latency as every miss's stall.  Until the next score:
 *   CUS < 0.2  the cache is contended: the warps whose next load is
 *              streaming (it will bypass L1) go first;
 *   CUS > 1    the cache is doing well: the other warps go first;
 *   otherwise  plain GTO.
 * Within the favoured group the order is GTO's, among its ready warps; if
 * none is ready, GTO over every warp.
 *
 * In the functional replay it reads, like GTO and CCWS, the scheduler's
 * reference L1 (docs/metrics.md §6), so its order is computed once, before
 * any policy; in the timed replay, the replayed hierarchy's L1.  On that L1
 * it counts the accesses, hits and misses, and a PC is streaming by an LCM
 * monitor on it (analyzer/pc_monitor.h, LCM's: every warp's generations,
 * closed at eviction or T = 8 accesses, the last closed one deciding).  Its
 * issue order is its own (a schedule under study), and reports name it. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/mem_timing.h"
#include "analyzer/pc_monitor.h"
#include "analyzer/warp_orders/gto.h"
#include "formats/trace.h"

enum { WINDOW = 256, THRESHOLD_T = 8 };
#define CUS_LOW 0.2
#define CUS_HIGH 1.0

typedef enum { FAVOUR_NONE, FAVOUR_STREAMING, FAVOUR_OTHERS } favour;

typedef struct sm_window {
    uint32_t accesses, hits, misses;
    uint64_t stall;             /* the window's misses' stalls, in cycles */
    uint64_t l2_loads, l2_cycles; /* timed: the kernel's loads served by L2, their latency */
    favour mode;
} sm_window;

typedef struct lws {
    void *gto;           /* GTO's state (first: gto.h) */
    uint32_t sms, slots, line_shift;
    double l2_latency;
    uint32_t dram_latency; /* a miss's stall on the reference L1 */
    sm_window *windows;  /* [sms] */
    pc_monitor *monitor; /* the reference L1's generations and the PCs' decisions */
    uint32_t *group;     /* scratch: a scheduler's favoured slots, oldest first */
    uint8_t *in_group;   /* scratch: the group as a live mask */
} lws;

static void lws_destroy(void *state)
{
    lws *o = state;
    if (!o)
        return;
    if (o->gto)
        warp_order_gto.destroy(o->gto);
    pc_monitor_free(o->monitor);
    free(o->windows);
    free(o->group);
    free(o->in_group);
    free(o);
}

static void *lws_create(const warp_order_geometry *g, ws_error *err)
{
    lws *o = calloc(1, sizeof *o);
    if (!o)
        return ws_fail(err, "out of memory"), NULL;
    size_t slots = g->slots ? g->slots : 1;
    if (!(o->gto = warp_order_gto.create(g, err)) ||
        !(o->monitor = pc_monitor_new(g->sms, THRESHOLD_T, err))) {
        lws_destroy(o);
        return NULL;
    }
    if (!(o->windows = calloc(g->sms ? g->sms : 1, sizeof *o->windows)) ||
        !(o->group = calloc(slots, sizeof *o->group)) || !(o->in_group = calloc(slots, 1))) {
        lws_destroy(o);
        return ws_fail(err, "out of memory"), NULL;
    }
    o->sms = g->sms;
    o->slots = g->slots;
    o->line_shift = g->line_bytes ? (uint32_t)__builtin_ctz(g->line_bytes) : 7;
    o->l2_latency = g->l2_latency;
    o->dram_latency = g->dram_latency;
    return o;
}

/* A kernel starts with no PC decided and plain GTO on every SM.  (Out of
 * memory here leaves every PC undecided: LWS is then GTO.) */
static void lws_kernel_begin(void *state, uint32_t slots, uint32_t pc_count)
{
    lws *o = state;
    gto_inner_kernel_begin(o, slots, pc_count);
    memset(o->windows, 0, o->sms * sizeof *o->windows);
    ws_error ignored;
    (void)pc_monitor_begin_kernel(o->monitor, pc_count, &ignored);
}

/* S2 Eq. 1 over the SM's last window, and the group it favours. */
static favour score(const lws *o, const sm_window *w)
{
    if (!w->misses)
        return FAVOUR_OTHERS;
    double l2 = w->l2_loads ? (double)w->l2_cycles / (double)w->l2_loads : o->l2_latency;
    double cus = ((double)w->hits * l2) / (double)w->stall;
    return cus < CUS_LOW ? FAVOUR_STREAMING : cus > CUS_HIGH ? FAVOUR_OTHERS : FAVOUR_NONE;
}

/* A lookup's part in the window: a hit, or a miss with its stall. */
static void count(const lws *o, sm_window *w, const replay_ref *r)
{
    int hit = r->measured ? r->served == SERVED_L1 : r->hit;
    w->accesses++;
    w->hits += hit;
    w->misses += !hit;
    if (!hit)
        w->stall += r->measured ? r->latency : o->dram_latency;
}

/* The L1 on the issued instruction: the SM's window counts its lookups
 * (and, timed, the latency of its loads served by L2), and the monitor
 * follows the lines' generations. */
static void lws_observed(void *state, uint32_t sm, uint32_t slot, uint32_t warp, uint32_t pc,
                         const ws_request *requests, const replay_ref *refs, int n)
{
    (void)slot;
    lws *o = state;
    sm_window *w = &o->windows[sm];
    for (int i = 0; i < n; i++) {
        const replay_ref *r = &refs[i];
        uint64_t line = requests[i].line_addr >> o->line_shift;
        if (r->evicted)
            pc_monitor_evict(o->monitor, sm, r->victim_line);
        if (r->measured && r->served == SERVED_L2 && requests[i].kind == WST_LOAD) {
            w->l2_loads++;
            w->l2_cycles += r->latency;
        }
        if (r->outcome != L1_LOOKUP)
            continue;
        if (r->hit) {
            pc_monitor_use(o->monitor, sm, line, warp);
        } else if (r->filled) {
            ws_error ignored; /* out of memory: the line goes unwatched */
            (void)pc_monitor_fill(o->monitor, sm, line, warp, pc, 0, &ignored);
        }
        count(o, w, r);
        if (w->accesses == WINDOW) {
            w->mode = score(o, w);
            w->accesses = w->hits = w->misses = 0;
            w->stall = 0;
        }
    }
}

static int next_is_streaming(const lws *o, const warp_view *v, uint32_t slot)
{
    uint32_t pc;
    return v->next_load && v->next_load(v->sched_sm, slot, &pc) &&
           pc_monitor_decision(o->monitor, PC_EVERY_WARP, v->sm, pc) == LOCALITY_STREAMING;
}

static int32_t lws_pick(void *state, const warp_view *v)
{
    lws *o = state;
    favour mode = o->windows[v->sm].mode;
    if (mode != FAVOUR_NONE) {
        warp_view favoured = *v;
        favoured.live_count = 0;
        memset(o->in_group, 0, v->slot_count);
        for (uint32_t k = 0; k < v->live_count; k++) {
            uint32_t s = v->by_age[k];
            if (next_is_streaming(o, v, s) == (mode == FAVOUR_STREAMING)) {
                o->group[favoured.live_count++] = s;
                o->in_group[s] = 1;
            }
        }
        favoured.by_age = o->group;
        favoured.live = o->in_group;
        int32_t slot = favoured.live_count ? gto_pick_ready(o->gto, &favoured) : -1;
        if (slot >= 0)
            return slot;
    }
    return warp_order_gto.pick(o->gto, v);
}

const warp_order_ops warp_order_lws = {
    .name = "lws",
    .description = "locality-based warp scheduling (S2): GTO that favours warps about to "
                   "load streaming data when L1 is contended, the others when it does well",
    .uses_misses = 1,
    .under_study = 1,
    .create = lws_create,
    .destroy = lws_destroy,
    .kernel_begin = lws_kernel_begin,
    .arrived = gto_inner_arrived,
    .pick = lws_pick,
    .issued = gto_inner_issued,
    .left = gto_inner_left,
    .observed = lws_observed,
};
