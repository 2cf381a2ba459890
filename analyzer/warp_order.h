/* analyzer/warp_order.h: the warp-order interface (docs/metrics.md §6; DESIGN:
 * extension points).
 *
 * Inside an SM each warp scheduler picks which of its ready warps issues
 * next; a warp order makes that choice, and may also forbid a warp to
 * allocate in L1 (throttling, S3 ch. 5: the others may hit but never
 * allocate).  The scheduler (sched.c) keeps the warps and hands an order a
 * view of one scheduler at a time; the order keeps whatever state it needs
 * (GTO its greedy warp and when each missing warp is ready again, LRR its
 * turn), told when a warp arrives in a slot, issues, and leaves.
 *
 * Each order is one file in analyzer/warp_orders/ exporting one
 * warp_order_ops; analyzer/warp_orders/registry.c lists them. */
#ifndef WS_WARP_ORDER_H
#define WS_WARP_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "analyzer/ref_l1.h"
#include "analyzer/request.h"
#include "util/error.h"

/* A live warp's next instruction in the timed replay (docs/metrics.md §12):
 * what the scheduler reads of every live warp each cycle it looks, kept in
 * a small array of its own so that look walks little memory. */
typedef struct warp_timing {
    uint64_t ready_at; /* the first cycle its next instruction may issue */
    uint32_t gap_left; /* non-memory instructions before its next record */
} warp_timing;

/* The first cycle the warp may issue, with its SM's LD/ST unit open from
 * `ldst_open`: a record needs the unit, a gap instruction does not. */
static inline uint64_t warp_timing_issue_from(const warp_timing *h, uint64_t ldst_open)
{
    return h->gap_left == 0 && ldst_open > h->ready_at ? ldst_open : h->ready_at;
}

/* One warp scheduler of one SM as an order sees it. */
typedef struct warp_view {
    uint32_t sm, scheduler;
    const uint32_t *by_age; /* its live warp slots, oldest first */
    uint32_t live_count;
    const uint8_t *live;    /* [slot_count]: the slot's warp has records left */
    /* [slot_count], timed replay (docs/metrics.md §12): each warp's next
     * instruction, read for the view's live slots only (warp_view_ready),
     * at `cycle` with the SM's LD/ST unit open from `ldst_open`.  NULL in
     * the functional order, where every live warp can issue.  An order asks
     * only about the warps it considers, so a look at a scheduler costs
     * what its order reads, not a pass over every warp. */
    const warp_timing *timing;
    uint64_t cycle, ldst_open;
    /* Timed: the first `first_ready` warps of by_age cannot issue (the
     * scheduler's look found so before asking the order), while by_age is
     * still `first_ready_of`: an order's view of its own warps (another
     * by_age) knows nothing of them.  NULL: nothing known. */
    const uint32_t *first_ready_of;
    uint32_t first_ready;
    uint32_t slot_count;    /* warp slots of the SM; slot s is scheduler s mod schedulers' */
    uint32_t schedulers;
    /* The PC of a live slot's next record; whether that record is a
     * global load (LWS steers by the loads warps are about to issue). */
    int (*next_load)(const void *sched_sm, uint32_t slot, uint32_t *pc);
    const void *sched_sm;
} warp_view;

/* Can the view's live warp in `slot` issue now?  Timed: its loads are back
 * and, for a record, its SM's LD/ST unit is open. */
static inline int warp_view_ready(const warp_view *v, uint32_t slot)
{
    return !v->timing || warp_timing_issue_from(&v->timing[slot], v->ldst_open) <= v->cycle;
}

typedef struct warp_order_geometry {
    uint32_t sms, schedulers, slots; /* slots: warp slots per SM */
    uint32_t gto_k;                  /* GTO: issues a missing warp waits */
    uint32_t line_bytes;             /* the L1's line */
    uint32_t l2_latency, dram_latency; /* the config's (LWS's CUS) */
    /* The order's parameters (throttling: swl:N, pcal:N,p): the warps of a
     * scheduler that may issue, and that may allocate, oldest first. */
    uint32_t issue_n, allocate_p;
} warp_order_geometry;

typedef struct warp_order_ops {
    const char *name;
    const char *description;
    /* Issues depend on the reference L1's misses (GTO): the stream asks
     * after every issue. */
    int uses_misses;
    /* The order across SMs is the trace's own timestamps (recorded): the
     * scheduler issues by time and never calls pick. */
    int recorded;
    /* The order is itself under study (throttling, CCWS, LWS): it steers
     * issue by the cache, so its order is its own, not the baseline's GTO,
     * and reports say so (docs/metrics.md §6). */
    int under_study;
    /* Takes parameters: NAME:N (p = N), or NAME:N,p when takes_p. */
    int parameters, takes_p;
    void *(*create)(const warp_order_geometry *g, ws_error *err);
    void (*destroy)(void *state);
    /* A kernel begins with slots warp slots per SM and PCs 0..pc_count-1
     * (optional). */
    void (*kernel_begin)(void *state, uint32_t slots, uint32_t pc_count);
    /* A new warp took a slot (optional). */
    void (*arrived)(void *state, uint32_t sm, uint32_t slot);
    /* The slot to issue from among the scheduler's live warps, or -1.  In
     * the timed replay, with no live warp ready, it must return -1 and
     * change no state: the scheduler then does not call it (sched_timed.c). */
    int32_t (*pick)(void *state, const warp_view *v);
    /* pick's -1 changes no state and stays -1 until the scheduler's live
     * or ready warps change: a timed SM whose ready warps the order holds
     * back (throttling) may sleep until then (sched_timed.c next_wake)
     * instead of asking again every cycle. */
    int steady_when_idle;
    /* Optional: the slot issued; missed is whether it missed in the
     * reference L1 (only when uses_misses).  Called after `left` if the
     * warp is done. */
    void (*issued)(void *state, const warp_view *v, uint32_t slot, int missed);
    /* The slot's warp has no records left (optional). */
    void (*left)(void *state, uint32_t sm, uint32_t scheduler, uint32_t slot);
    /* Optional: whether a warp of this age rank may allocate in L1 (NULL:
     * every warp may). */
    int (*may_allocate)(const void *state, uint32_t age_rank);
    /* Optional (with uses_misses): the reference L1 on each of the issued
     * instruction's n requests, before `issued` (CCWS's victim tags, LWS's
     * monitor).  warp is the issuing warp's id as the reference L1 records
     * fillers, pc the instruction's. */
    void (*observed)(void *state, uint32_t sm, uint32_t slot, uint32_t warp, uint32_t pc,
                     const ws_request *requests, const replay_ref *refs, int n);
    /* Optional: the order is plain GTO, whose timed pick is
     * gto_timed_pick (warp_orders/gto.h) on the array this returns (each
     * scheduler's greedy warp, at sm × schedulers + scheduler).  The timed
     * scheduler then picks inline and does not call pick or issued
     * (sched_timed.c, issue_on_sm). */
    int32_t *(*timed_greedy)(void *state);
} warp_order_ops;

/* A warp order with its parameters: what an issue stream is made of. */
typedef struct warp_order_spec {
    const warp_order_ops *ops; /* NULL: the run's own */
    uint32_t n, p;             /* NAME:N,p (throttling); 0 without */
} warp_order_spec;

int warp_order_spec_equal(const warp_order_spec *a, const warp_order_spec *b);
/* "gto", "swl:8", "pcal:6,2", "tuple:6,2": 0, or -1 with err set. */
int warp_order_spec_parse(const char *text, warp_order_spec *out, ws_error *err);
/* Writes e.g. "pcal:6,2" into buf. */
void warp_order_spec_format(const warp_order_spec *s, char *buf, size_t cap);

const warp_order_ops *warp_order_find(const char *name);
/* Every warp order's name as --schedule and POLICY@ORDER take it, from the
 * table ("gto, lrr, ..., swl:N, pcal:N,p, ..."), so messages cannot drift. */
void warp_order_names(char *buf, size_t cap);
extern const warp_order_ops *const warp_order_all[];
extern const warp_order_ops warp_order_gto, warp_order_lrr, warp_order_recorded, warp_order_swl,
    warp_order_pcal, warp_order_tuple, warp_order_ccws, warp_order_lws;

#endif
