/* analyzer/sched_internal.h: the scheduler's state, shared by its two
 * issue models: the functional order (sched.c, docs/metrics.md §6) and the
 * timed one (sched_timed.c, §12).  Nothing outside those files includes it. */
#ifndef WS_SCHED_INTERNAL_H
#define WS_SCHED_INTERNAL_H

#include "analyzer/sched.h"
#include "analyzer/timed_stats.h"
#include "formats/packed_record.h"

typedef struct cta_state {
    int active;
    uint32_t cta;
    packed_cta records; /* packed: resident CTAs are the scheduler's memory */
    const packed_cta *view; /* the records issued from: &records, or borrowed */
    int borrowed;           /* from the source (borrow_cta), given back at retire */
    uint32_t warps_left;
    /* Timed: every warp has issued its last record; the CTA retires when
     * its last load is back, at done_at. */
    uint8_t draining;
    uint64_t done_at;
} cta_state;

typedef struct warp_state {
    int active;        /* has records left */
    uint32_t cta_slot;
    uint32_t next, end; /* range of the CTA's packed records */
    uint64_t id;       /* dispatch order = age */
} warp_state;

/* A warp's timing (docs/metrics.md §12), kept apart from warp_state so the
 * functional order's hot array stays small. */
enum { TIMED_LOAD_HISTORY = 32 }; /* the loads a record's `waits` can name */

/* What the timed scheduler reads of a live warp to know whether it can
 * issue is its warp_timing (warp_order.h, shared with the orders); the
 * rest of a warp's timing is in timed_warp. */
typedef struct timed_warp {
    uint32_t loads_seen; /* loads issued (the history's newest is at loads_seen - 1) */
    /* Its CTA has records that carry timing (packed_cta.timing), so one may
     * name loads: it keeps its history of loads (sm_state.load_back). */
    uint8_t keeps_history;
    uint64_t all_loads; /* when its last outstanding load is back */
    uint64_t stores_back; /* when its last store is acknowledged (it ends no sooner) */
    uint64_t older_back; /* the latest back of the loads older than the history */
} timed_warp;

typedef struct sm_state {
    /* The arrays per CTA slot hold cta_capacity slots (sched.c, sm_grow):
     * one until the SM takes a second CTA at once, then all of cta_slots;
     * its warp slots are [0, cta_capacity × warps_per_cta). */
    uint32_t cta_capacity;
    cta_state *ctas;   /* [cta_capacity] */
    warp_state *warps; /* [cta_capacity × warps_per_cta] */
    /* GTO: each scheduler's active warp slots, oldest first, so the oldest
     * ready warp is the first ready one in its list.  Scheduler t's list
     * is by_age[t × age_stride ..] with age_count[t] entries. */
    uint32_t *by_age;
    uint32_t age_count[8];
    uint8_t *live;     /* [warp slots]: warps[slot].active, as the warp order sees it */
    uint32_t *rank;    /* [warp slots]: the live warp's position in its age list */
    uint32_t free_ctas;
    uint32_t live_warps;
    uint32_t next_scheduler;
    uint64_t steps;
    uint32_t group_next, group_end; /* qN: this SM's group in the CTA list */
    /* Timed (sched_timed.c). */
    warp_timing *head;     /* [the SM's warp slots] (cta_capacity) */
    timed_warp *timed;     /* [the SM's warp slots] */
    /* [warp slots × TIMED_LOAD_HISTORY]: when each warp's recent loads are
     * back, for the warps that keep a history; allocated when the first
     * such warp arrives, so a trace without timing (every record a
     * blocking load) never touches it: 256 bytes a warp, a page fault for
     * every 16 warps dispatched. */
    uint64_t *load_back;
    uint64_t ldst_free;    /* the LD/ST unit takes its next instruction from then */
    /* timing.ldst_queue = Q > 0: when the LD/ST unit frees after each of the
     * last Q + 1 memory instructions (a ring; ldst_issued counts them), so
     * a record may issue once the Q-th latest has reached the unit. */
    uint64_t *ldst_ring; /* [Q + 1], in sched.ldst_rings */
    uint64_t ldst_issued;
    uint32_t ldst_next; /* ldst_issued mod (Q + 1), stepped: the ring's oldest entry */
    /* When a record may next reach the LD/ST unit (sched_timed.c's
     * ldst_open), kept as the two fields above change: every look reads it. */
    uint64_t ldst_open;
    /* The least done_at of the SM's draining CTAs (UINT64_MAX: none), kept
     * exact as CTAs start draining and retire, so a visit does not scan
     * the CTA slots for one due (sched_timed.c, retire_due). */
    uint64_t drain_at;
    uint64_t accounted[8]; /* per scheduler: cycles before this are counted */
    /* Its schedulers' stalled cycles in the run's figures: scheduler t's,
     * by cause, at stalls[t × STALL_CAUSES] (s->scheduler_stalls). */
    uint64_t *stalls;
    uint8_t cause[8];      /* per scheduler: why it issued nothing, last it did not */
    /* Per scheduler: before quiet_until a look at its warps would find none
     * ready and the same stall cause, so it is not looked at (sched_timed.c,
     * issue_on_sm), and the SM with no warp ready sleeps until the least. */
    uint64_t quiet_until[8];
    /* A look made ahead (sched_timed.c, wake_after_issue): at ahead_cycle
     * the first look at scheduler ahead_scheduler finds its oldest warp
     * that can issue at ahead_first in its age list (UINT64_MAX: none). */
    uint64_t ahead_cycle;
    uint32_t ahead_scheduler, ahead_first;
    /* Per scheduler: its `waiting` oldest warps wait until waiting_until
     * at least (set by its last look with the LD/ST unit open).  Only a
     * warp that can issue changes its place or its ready_at, and while
     * they all wait that one is younger, so until then a look starts
     * after them (sched_timed.c, look_at_warps). */
    uint32_t waiting[8];
    uint64_t waiting_until[8];
    /* Per scheduler: its live warps with a gap instruction next; while the
     * LD/ST unit is held and there are none, no warp of it can issue. */
    uint32_t gap_warps[8];
} sm_state;

typedef enum { STATE_NEED_KERNEL, STATE_RUNNING, STATE_DONE } sched_state;

enum { SCHED_WAKE_BLOCK = 8 }; /* SMs whose least wake is kept together */

struct sched {
    gpu_config config;
    sched_options options;
    sched_source source;
    sched_miss_fn miss;
    void *miss_ctx;
    void *order; /* the warp order's state */
    /* Timed, plain GTO: its greedy warps (warp_order_ops.timed_greedy),
     * picked in the scheduler; NULL otherwise. */
    int32_t *timed_greedy;
    sched_state state;
    uint32_t kernel;
    /* The current kernel. */
    const uint32_t *ctas;
    uint32_t cta_count;
    uint32_t next_cta;    /* next undispatched position in ctas[] */
    /* Timed, CTA_RR: the grid's CTAs, those the trace holds no record of
     * too (threads that exit at once), dispatched in linear order as a GPU
     * launches them (docs/metrics.md §12); 0 when every CTA has records or
     * the order is another.  next_id: the next linear id to dispatch. */
    uint32_t grid_ctas, next_id;
    uint32_t group_size;  /* qN / qx */
    uint32_t group_count, groups_handed_out; /* groups holding CTAs of the trace */
    int adaptive_rr;      /* qx_adpt has switched to rr */
    uint32_t cta_slots, warps_per_cta, warp_slots;
    uint32_t age_stride; /* room for one scheduler's warps in by_age */
    sm_state *sms;
    uint8_t *no_live; /* [warp_slots + 1], zero: live[] of an SM without arrays yet */
    uint32_t *no_by_age; /* its by_age, as large as an SM's, never read (every list is empty) */
    uint32_t sm_cursor;
    uint32_t resident, peak_resident;
    uint64_t next_warp_id;
    /* Recorded schedule: CTAs by first timestamp, with their SM. */
    uint32_t *admission;
    uint16_t *recorded_sm;
    uint64_t *first_time;
    uint32_t admitted;
    /* Events produced by dispatch and retire, handed out first. */
    sched_event *queue;
    size_t queue_head, queue_count, queue_capacity;
    int retire_pending;
    uint32_t retire_sm, retire_slot;
    /* Scratch for grouping a dispatched CTA's packed records by warp. */
    packed_cta spare;
    wst_record issued; /* the record of the last ISSUE event, expanded */
    /* Timed (docs/metrics.md §12, sched_timed.c): the one clock. */
    int timed;
    uint64_t cycle;
    uint32_t pos_sm, pos_slot; /* where this cycle's issuing goes on */
    uint32_t pos_scheduler;    /* pos_slot mod schedulers_per_sm, kept as it steps */
    /* [sms]: the next cycle anything on each SM can change, in an array of
     * their own: the pass over the SMs each cycle reads 8 bytes an SM. */
    uint64_t *wakes;
    /* [⌈sms ÷ SCHED_WAKE_BLOCK⌉]: the least wake of each block of SMs, exact
     * between passes (sched_timed.c, next_due_sm), so a pass steps over a
     * block whose SMs all sleep at once. */
    uint64_t *block_wakes;
    uint64_t block_least; /* the least wake of the pass's current block so far */
    uint64_t least_wake; /* the least wake of the SMs this cycle's pass went past */
    int issued_here;           /* the SM at pos_sm issued this cycle */
    int awaiting;              /* an ISSUE awaits sched_timed_issued */
    uint32_t last_sm, last_slot, last_scheduler; /* the ISSUE's warp */
    timed_kernel kernel_stats; /* the kernel running or just ended */
    uint64_t *scheduler_stalls; /* [sms × schedulers × STALL_CAUSES], the whole run */
    /* [sms × (timing.ldst_queue + 1)], the whole run: each SM's LD/ST ring
     * (sm_state.ldst_ring), apart from the sm_state array a kernel
     * allocates and clears, which it would be half of at the largest
     * queue; never cleared (an SM reads only entries written in the
     * kernel, sched_timed.c ldst_open_of). */
    uint64_t *ldst_rings;
    /* Their sums by cause when the kernel began: its own are what they
     * have grown by when it ends (sched_timed.c, sched_timed_next). */
    uint64_t stalls_before[STALL_CAUSES];
};


/* Scheduler t's live warp slots on sm, oldest first (age_count[t] of
 * them; none on an SM that has taken no CTA, whose by_age is the
 * kernel's no_by_age until then: sched.c, sm_arrays). */
static inline uint32_t *sched_age_list(const sched *s, const sm_state *sm, uint32_t t)
{
    return sm->by_age + (size_t)t * s->age_stride;
}

/* sched.c's pieces that the timed issue model shares. */
int sched_push(sched *s, sched_event e, ws_error *err);
int sched_fill(sched *s, int64_t only_sm, ws_error *err);
int sched_retire_slot(sched *s, uint32_t sm, uint32_t slot, ws_error *err);
/* warp_view.next_load: the live slot's next record. */
int sched_next_load(const void *sched_sm, uint32_t slot, uint32_t *pc);
/* Scheduler t of sm as its warp order sees it.  Inline: the timed
 * scheduler builds one for every pick. */
static inline warp_view sched_view(const sched *s, const sm_state *sm, uint32_t sm_index,
                                   uint32_t t)
{
    return (warp_view){.sm = sm_index, .scheduler = t, .by_age = sched_age_list(s, sm, t),
                       .live_count = sm->age_count[t], .live = sm->live,
                       .slot_count = s->warp_slots, .schedulers = s->config.schedulers_per_sm,
                       .next_load = sched_next_load, .sched_sm = sm,
                       .timing = s->timed ? sm->head : NULL, .cycle = s->cycle,
                       .ldst_open = sm->ldst_open};
}
/* A finished warp leaves its scheduler's age list. */
void sched_retire_warp_from_age_list(sched *s, sm_state *sm, uint32_t slot);
/* Issues the chosen warp's next record as an event.  `scheduler` is the
 * slot's (sched_scheduler_of), which the callers know.  Inline: the timed
 * scheduler issues through it every record. */
static inline void sched_issue(sched *s, uint32_t sm_index, uint32_t slot, uint32_t scheduler,
                               sched_event *e)
{
    sm_state *sm = &s->sms[sm_index];
    warp_state *w = &sm->warps[slot];
    cta_state *c = &sm->ctas[w->cta_slot];
    uint32_t rank = sm->rank[slot]; /* its GTO priority (S4 §4.2) */
    const warp_order_ops *order = s->options.warp;
    /* Field by field: an ISSUE sets every field, and a compound literal
     * is built aside and copied (about 15 more instructions an issue). */
    e->kind = SCHED_ISSUE;
    e->kernel = s->kernel;
    e->cta = c->cta;
    e->sm = sm_index;
    e->warp_slot = slot;
    e->scheduler = scheduler;
    e->age_rank = rank;
    e->may_allocate = (uint8_t)(!order->may_allocate || order->may_allocate(s->order, rank));
    e->warp_id = w->id;
    e->step = s->timed ? s->cycle : sm->steps++;
    e->record = &s->issued;
    /* An affine record's lanes stay unwritten (sched_event.affine). */
    e->affine = packed_cta_expand_head(c->view, w->next, c->cta, &s->issued);
    e->stride = c->view->records[w->next].stride;
    /* This SM issues again only after every other SM has: fetch the warp's
     * next record now, so it is in cache by then. */
    __builtin_prefetch(&c->view->records[w->next + 1]);
    if (++w->next == w->end) {
        w->active = 0;
        sm->live[slot] = 0;
        if (order->left)
            order->left(s->order, sm_index, e->scheduler, slot);
        sm->live_warps--;
        sched_retire_warp_from_age_list(s, sm, slot);
        if (--c->warps_left == 0 && s->timed) {
            c->draining = 1; /* it retires when its last load is back (sched_timed.c) */
        } else if (c->warps_left == 0) {
            s->retire_pending = 1; /* at the next call: the record must stay valid */
            s->retire_sm = sm_index;
            s->retire_slot = w->cta_slot;
        }
    }
}
uint32_t sched_scheduler_of(const sched *s, uint32_t warp_slot);

/* sched_timed.c */
/* The warp slots the SM's arrays hold now (cta_capacity). */
static inline uint32_t sched_sm_slots(const sched *s, const sm_state *sm)
{
    return sm->cta_capacity * s->warps_per_cta;
}
/* An SM's timing arrays for `slots` warp slots, the first ones kept (it
 * had old_slots), as its other arrays grow (sched.c, sm_grow). */
int sched_timed_grow_sm(sm_state *sm, uint32_t old_slots, uint32_t slots, ws_error *err);
int sched_timed_begin_kernel(sched *s, ws_error *err);
int sched_timed_dispatched(sched *s, uint32_t sm, uint32_t first_slot, uint32_t warps,
                           ws_error *err);
int sched_timed_next(sched *s, sched_event *e, ws_error *err);
/* Frees an SM's timing arrays of `slots` warp slots. */
void sched_timed_free(sm_state *sm, uint32_t slots);

#endif
