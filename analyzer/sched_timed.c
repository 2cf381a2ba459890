/* analyzer/sched_timed.c: the timed issue model (docs/metrics.md §12).
 *
 * One clock for the GPU.  Each cycle the SMs are visited in order, and on
 * each SM each warp scheduler offers its warp order the warps that can
 * issue now (warp_view_ready): those whose next instruction's loads are
 * back and, for a memory instruction, whose SM's LD/ST unit is free.  A
 * record's gap of non-memory instructions issues first, one issue slot
 * each; a record issues as an ISSUE event, which the caller answers with
 * sched_timed_issued (when its data is back, when the LD/ST unit is free).
 *
 * Time is skipped, not stepped: an SM that issued nothing sleeps until the
 * first cycle anything on it can change (a warp's loads back, its LD/ST
 * unit free, a CTA's last load back), and its schedulers' idle cycles are
 * charged to the cause that held when it fell asleep, which cannot change
 * while it sleeps.  So the cost follows instructions, not cycles. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/sched_internal.h"
#include "analyzer/warp_orders/gto.h"
#include "util/spare.h"

const char *const stall_cause_names[STALL_CAUSES] = {"memory", "pipeline", "throttled",
                                                     "no_warp"};

static int returns_data(unsigned kind) { return kind == WST_LOAD || kind == WST_ATOMIC; }

/* The bytes of an SM's timing arrays for `slots` warp slots, as taken
 * and given back (util/spare.h: a block goes back to its size's class). */
static size_t head_bytes(uint32_t slots) { return (slots + 1) * sizeof(warp_timing); }
static size_t timed_bytes(uint32_t slots) { return (slots + 1) * sizeof(timed_warp); }

void sched_timed_free(sm_state *sm, uint32_t slots)
{
    ws_spare_release(sm->head, head_bytes(slots));
    ws_spare_release(sm->timed, timed_bytes(slots));
    free(sm->load_back);
    sm->head = NULL;
    sm->timed = NULL;
    sm->load_back = NULL;
}

/* From when a record may issue to the SM's LD/ST unit: once it is free,
 * or, with timing.ldst_queue = Q, once fewer than Q issued memory
 * instructions wait for it (docs/metrics.md §12): the Q-th latest has
 * reached it, when the unit freed after the one before.  Found as the unit's
 * state changes and kept in sm->ldst_open. */
static uint64_t ldst_open_of(const sched *s, const sm_state *sm)
{
    uint32_t q = s->config.timing.ldst_queue;
    if (q == 0)
        return sm->ldst_free;
    return sm->ldst_issued > q ? sm->ldst_ring[sm->ldst_next] : 0;
}

/* The least done_at of the SM's draining CTAs, found again after one
 * retires (sm->drain_at). */
static uint64_t drain_at_of(const sched *s, const sm_state *sm)
{
    uint64_t at = UINT64_MAX;
    for (uint32_t c = 0; c < sm->cta_capacity; c++)
        if (sm->ctas[c].active && sm->ctas[c].draining && sm->ctas[c].done_at < at)
            at = sm->ctas[c].done_at;
    return at;
}

int sched_timed_grow_sm(sm_state *sm, uint32_t old_slots, uint32_t slots, ws_error *err)
{
    /* Not cleared: a slot's timing is set when a warp takes it.  From the
     * caches' huge page where it has room, as the SM's other arrays
     * (sched.c, sm_grow). */
    size_t bytes = head_bytes(slots);
    warp_timing *head = ws_spare_resize(sm->head, head_bytes(old_slots), &bytes);
    if (head)
        sm->head = head;
    bytes = timed_bytes(slots);
    timed_warp *timed = head ? ws_spare_resize(sm->timed, timed_bytes(old_slots), &bytes) : NULL;
    if (timed)
        sm->timed = timed;
    return head && timed ? 0 : ws_fail(err, "out of memory");
}

/* The run's stalled scheduler-cycles so far, by cause. */
static void stall_sums(const sched *s, uint64_t sums[STALL_CAUSES])
{
    size_t n = (size_t)s->config.sms * s->config.schedulers_per_sm;
    memset(sums, 0, STALL_CAUSES * sizeof *sums);
    for (size_t i = 0; i < n; i++)
        for (uint32_t c = 0; c < STALL_CAUSES; c++)
            sums[c] += s->scheduler_stalls[i * STALL_CAUSES + c];
}

int sched_timed_begin_kernel(sched *s, ws_error *err)
{
    uint32_t schedulers = s->config.schedulers_per_sm;
    if (!s->scheduler_stalls &&
        !(s->scheduler_stalls = calloc((size_t)s->config.sms * schedulers * STALL_CAUSES,
                                       sizeof *s->scheduler_stalls)))
        return ws_fail(err, "out of memory");
    uint32_t blocks = (s->config.sms + SCHED_WAKE_BLOCK - 1) / SCHED_WAKE_BLOCK;
    size_t ring = (size_t)s->config.timing.ldst_queue + 1;
    if ((!s->wakes && !(s->wakes = malloc(s->config.sms * sizeof *s->wakes))) ||
        (!s->block_wakes && !(s->block_wakes = malloc(blocks * sizeof *s->block_wakes))) ||
        (!s->ldst_rings &&
         !(s->ldst_rings = malloc(s->config.sms * ring * sizeof *s->ldst_rings))))
        return ws_fail(err, "out of memory");
    for (uint32_t b = 0; b < blocks; b++)
        s->block_wakes[b] = s->cycle;
    stall_sums(s, s->stalls_before);
    for (uint32_t i = 0; i < s->config.sms; i++) {
        sm_state *sm = &s->sms[i];
        sm->ldst_free = s->wakes[i] = s->cycle;
        sm->ldst_ring = s->ldst_rings + i * ring;
        sm->ldst_issued = 0;
        sm->ldst_next = 0;
        sm->ldst_open = ldst_open_of(s, sm);
        sm->drain_at = UINT64_MAX;
        sm->ahead_cycle = UINT64_MAX;
        sm->stalls = s->scheduler_stalls + (size_t)i * schedulers * STALL_CAUSES;
        for (uint32_t t = 0; t < schedulers; t++) {
            sm->accounted[t] = s->cycle;
            sm->cause[t] = STALL_NO_WARP;
            sm->quiet_until[t] = 0;
            sm->gap_warps[t] = 0;
            sm->waiting_until[t] = 0;
        }
    }
    s->kernel_stats = (timed_kernel){.start_cycle = s->cycle, .end_cycle = s->cycle};
    s->pos_sm = s->pos_slot = s->pos_scheduler = 0;
    s->least_wake = s->block_least = UINT64_MAX;
    s->issued_here = 0;
    return 0;
}

/* The timing of the warp's next record, once it is the head: its gap, and
 * the cycle its loads are back (the ones it names, or all of them).  The
 * gap waits too: the instruction that uses a load may be anywhere in it
 * (docs/metrics.md §12). */
static inline __attribute__((always_inline)) void prepare_head(sm_state *sm, uint32_t slot,
                                                               uint32_t scheduler)
{
    const warp_state *w = &sm->warps[slot];
    timed_warp *t = &sm->timed[slot];
    /* Untimed: no gap, and it waits for every load (blocking loads).  A
     * warp keeps a history exactly when its CTA's records carry timing
     * (sched_timed_dispatched), so one that does not reads none. */
    packed_timing head = t->keeps_history
                             ? packed_cta_timing(sm->ctas[w->cta_slot].view, w->next)
                             : (packed_timing){0};
    uint64_t back = t->all_loads;
    if (head.has_waits) {
        /* Bit i names the (i + 1)-th most recent load; bit 31 also every
         * older one than the history keeps (older_back). */
        const uint64_t *history = sm->load_back + (size_t)slot * TIMED_LOAD_HISTORY;
        back = head.waits >> (TIMED_LOAD_HISTORY - 1) ? t->older_back : 0;
        for (uint32_t i = 0; i < TIMED_LOAD_HISTORY && i < t->loads_seen; i++) {
            uint64_t when = history[(t->loads_seen - 1 - i) % TIMED_LOAD_HISTORY];
            if ((head.waits >> i & 1u) && when > back)
                back = when;
        }
    }
    warp_timing *h = &sm->head[slot];
    h->gap_left = head.gap; /* it was 0: a new warp, or one that just issued a record */
    sm->gap_warps[scheduler] += head.gap != 0;
    if (back > h->ready_at)
        h->ready_at = back;
}

int sched_timed_dispatched(sched *s, uint32_t sm_index, uint32_t first_slot, uint32_t warps,
                           ws_error *err)
{
    sm_state *sm = &s->sms[sm_index];
    /* Only a record with timing names loads (has_waits); a CTA has one
     * only if its records carry timing.  (The CTA's slots are first_slot's.) */
    int keeps_history = sm->ctas[sm->warps[first_slot].cta_slot].view->timing != NULL;
    if (keeps_history && !sm->load_back &&
        !(sm->load_back = malloc((size_t)(s->warp_slots + 1) * TIMED_LOAD_HISTORY *
                                 sizeof *sm->load_back)))
        return ws_fail(err, "out of memory");
    for (uint32_t w = first_slot; w < first_slot + warps; w++) {
        sm->head[w] = (warp_timing){.ready_at = s->cycle};
        sm->timed[w] = (timed_warp){.keeps_history = (uint8_t)keeps_history};
        if (sm->warps[w].active)
            prepare_head(sm, w, sched_scheduler_of(s, w));
    }
    if (s->wakes[sm_index] > s->cycle) /* awake now, and the clock's next cycle no later */
        s->wakes[sm_index] = s->block_wakes[sm_index / SCHED_WAKE_BLOCK] = s->least_wake =
            s->cycle;
    memset(sm->quiet_until, 0, sizeof sm->quiet_until); /* new warps: look again */
    sm->ahead_cycle = UINT64_MAX;
    return 0;
}

void sched_timed_issued(sched *s, const sched_outcome *o)
{
    s->awaiting = 0;
    sm_state *sm = &s->sms[s->last_sm];
    timed_warp *t = &sm->timed[s->last_slot];
    /* The issued record (s->issued) and its warp's slot stay as the issue
     * left them until the next call of sched_timed_next. */
    const warp_state *w = &sm->warps[s->last_slot];
    int loads = returns_data(s->issued.kind);
    if (!loads && o->data_back > t->stores_back)
        t->stores_back = o->data_back;
    if (loads) {
        if (t->keeps_history) {
            uint64_t *slot = &sm->load_back[(size_t)s->last_slot * TIMED_LOAD_HISTORY +
                                            t->loads_seen % TIMED_LOAD_HISTORY];
            if (t->loads_seen >= TIMED_LOAD_HISTORY && *slot > t->older_back)
                t->older_back = *slot; /* the load leaving the history */
            *slot = o->data_back;
        }
        t->loads_seen++;
        if (o->data_back > t->all_loads)
            t->all_loads = o->data_back;
    }
    if (o->ldst_free > sm->ldst_free)
        sm->ldst_free = o->ldst_free;
    sm->ldst_ring[sm->ldst_next] = sm->ldst_free; /* stepped, not divided: each issue */
    sm->ldst_next = sm->ldst_next == s->config.timing.ldst_queue ? 0 : sm->ldst_next + 1;
    sm->ldst_issued++;
    sm->ldst_open = ldst_open_of(s, sm);
    /* Its head's ready_at is already the next cycle (issue_on_sm). */
    if (w->active) {
        prepare_head(sm, s->last_slot, s->last_scheduler);
        return;
    }
    /* The warp has issued its last record: it ends when its loads are back
     * and its stores acknowledged (as GPGPU-Sim retires a warp only once
     * its stores are done). */
    cta_state *c = &sm->ctas[w->cta_slot];
    uint64_t end = t->all_loads > t->stores_back ? t->all_loads : t->stores_back;
    if (end < s->cycle + 1)
        end = s->cycle + 1;
    if (end > c->done_at)
        c->done_at = end;
    if (c->draining && c->done_at < sm->drain_at) /* its last warp: done_at is final */
        sm->drain_at = c->done_at;
}

/* Can the warp in `slot` issue now?  And if not, from when might it?
 * `open` is sm->ldst_open, found once for all the SM's warps. */
static int can_issue(const sched *s, const sm_state *sm, uint32_t slot, uint64_t open,
                     uint64_t *from)
{
    *from = warp_timing_issue_from(&sm->head[slot], open);
    return *from <= s->cycle;
}

/* Adds `cycles` (which may wrap to take some back) to scheduler t's
 * current cause, in the run's figures; the kernel's are summed from them
 * when it ends (kernel_over's branch of sched_timed_next), not charged
 * twice. */
static void charge(const sm_state *sm, uint32_t t, uint64_t cycles)
{
    sm->stalls[t * STALL_CAUSES + sm->cause[t]] += cycles;
}

/* Charges scheduler t's cycles before `upto` that were not yet counted to
 * the cause that held through them. */
static void account(sm_state *sm, uint32_t t, uint64_t upto)
{
    if (upto <= sm->accounted[t])
        return;
    charge(sm, t, upto - sm->accounted[t]);
    sm->accounted[t] = upto;
}

/* The kernel's cycles are [start, end): a scheduler visited at `end`, the
 * cycle its last CTA retired, charged that cycle as idle (it had nothing
 * to issue, or the kernel would not be over), and gives it back. */
static void close_account(sm_state *sm, uint32_t t, uint64_t end)
{
    if (sm->accounted[t] > end) {
        charge(sm, t, end - sm->accounted[t]); /* unsigned: takes them back */
        sm->accounted[t] = end;
    }
    account(sm, t, end);
}

/* `wake`, or sooner if a draining CTA's last load is back before it (it
 * retires then), and never before the cycle after `now`, the visit's. */
static uint64_t wake_no_later(const sm_state *sm, uint64_t wake, uint64_t now)
{
    if (sm->drain_at < wake)
        wake = sm->drain_at;
    return wake > now ? wake : now + 1;
}

/* The first cycle after this one at which anything on the SM can change.
 * A warp that can issue but was held back by the order means: look again
 * next cycle, as if stepping every cycle; an order steady when idle
 * (warp_order.h: throttling) picks none again until a warp becomes ready,
 * so the SM sleeps until then, or until a waiting warp's LD/ST-held
 * record turns its scheduler's stall from memory to pipeline (cause_of):
 * the cycles it would have looked again, each of which finds nothing to
 * issue and the same cause. */
static uint64_t next_wake(const sched *s, const sm_state *sm)
{
    uint64_t wake = UINT64_MAX, open = sm->ldst_open;
    int held = 0;
    const uint32_t slots = sched_sm_slots(s, sm);
    for (uint32_t slot = 0; slot < slots; slot++) {
        uint64_t from;
        if (!sm->live[slot])
            continue;
        if (can_issue(s, sm, slot, open, &from)) {
            if (!s->options.warp->steady_when_idle)
                return s->cycle + 1;
            held = 1;
            continue;
        }
        if (from < wake)
            wake = from;
    }
    /* Stepping every cycle, a held SM would see each pipeline stall begin. */
    for (uint32_t slot = 0; held && slot < slots; slot++) {
        const warp_timing *h = &sm->head[slot];
        if (sm->live[slot] && h->gap_left == 0 && h->ready_at > s->cycle && h->ready_at < wake)
            wake = h->ready_at;
    }
    return wake_no_later(sm, wake, s->cycle);
}

/* A CTA of the SM whose last load is back retires (its events queued, a
 * new CTA dispatched in its place): 1, or 0 when none is due. */
static int retire_due(sched *s, uint32_t sm_index, ws_error *err)
{
    sm_state *sm = &s->sms[sm_index];
    if (sm->drain_at > s->cycle)
        return 0;
    for (uint32_t c = 0; c < sm->cta_capacity; c++) {
        cta_state *cta = &sm->ctas[c];
        if (cta->active && cta->draining && cta->done_at <= s->cycle) {
            if (s->cycle > s->kernel_stats.end_cycle)
                s->kernel_stats.end_cycle = s->cycle;
            int rc = sched_retire_slot(s, sm_index, c, err);
            sm->drain_at = drain_at_of(s, sm); /* the fill may have dispatched an empty CTA */
            return rc != 0 ? -1 : 1;
        }
    }
    return 0;
}

/* What a look at one scheduler's live warps finds (look_at_warps). */
typedef struct scheduler_look {
    int ready;    /* a warp can issue now */
    uint32_t first_ready; /* then: the oldest one's position in the age list */
    int pipeline; /* a warp's record waits only for the LD/ST unit */
    /* When none is ready: the first cycle at which a look could find one
     * ready or another cause (a warp's ready_at passing turns a memory
     * stall into a pipeline one).  The LD/ST unit's opening only moves
     * later, so this never comes too late. */
    uint64_t quiet_until;
} scheduler_look;

/* The look at a scheduler none of whose warps can issue while its SM's
 * LD/ST unit is held (open > cycle): each warp waits for its ready_at, or,
 * past it, has a record that waits for the unit (a gap instruction would
 * be ready). */
static scheduler_look held_look(const warp_timing *head, const uint32_t *by_age, uint32_t n,
                                uint64_t cycle, uint64_t open)
{
    uint64_t later = UINT64_MAX;
    unsigned held_by_ldst = 0;
    for (uint32_t k = 0; k < n; k++) {
        uint64_t at = head[by_age[k]].ready_at;
        held_by_ldst |= at <= cycle;
        uint64_t later_here = at > cycle ? at : UINT64_MAX;
        later = later_here < later ? later_here : later;
    }
    /* The look finds something new at the soonest ready_at to come (a warp
     * that may issue, or one whose stall turns from memory to pipeline
     * because the unit is still held), or, with a warp held, when the unit
     * opens. */
    return (scheduler_look){.ready = 0, .pipeline = (int)held_by_ldst,
                            .quiet_until = held_by_ldst && open < later ? open : later};
}

/* The look at scheduler t's live warps at `cycle`: can one of them issue
 * (warp_view_ready's rule)?  The oldest that can ends the look, and its
 * position (first_ready) goes to the order's view: which one issues is
 * the order's to find, from there on, so the warps before it are read
 * once, not once by the look and again by the order.  The look reads the
 * age list itself, so a look that finds none costs no view.  With the
 * LD/ST unit open a warp can issue once its ready_at has come (the warps
 * passed on the way give the soonest ready_at, in case none can; the
 * oldest ones known to wait, sm->waiting, are passed over); with the unit
 * held only a gap instruction can, and with no warp of the scheduler in a
 * gap (gap_warps) none can.  When none can, the rest of a scheduler_look
 * is for a scheduler that waits.  Inline: the visit and the look-ahead
 * make one for nearly every issue, and its result stays in registers. */
static inline __attribute__((always_inline)) scheduler_look
look_at_warps(const sched *s, sm_state *sm, uint32_t t, uint64_t cycle)
{
    const uint64_t open = sm->ldst_open;
    const warp_timing *head = sm->head;
    const uint32_t *by_age = sched_age_list(s, sm, t);
    const uint32_t n = sm->age_count[t];
    uint32_t k = 0;
    if (open <= cycle) {
        uint64_t later = UINT64_MAX;
        if (sm->waiting_until[t] > cycle) { /* the oldest ones still wait */
            k = sm->waiting[t];
            later = sm->waiting_until[t];
        }
        for (; k < n && head[by_age[k]].ready_at > cycle; k++)
            later = head[by_age[k]].ready_at < later ? head[by_age[k]].ready_at : later;
        sm->waiting[t] = k;
        sm->waiting_until[t] = later;
        if (k == n) /* all wait for their ready_at, none for the unit */
            return (scheduler_look){.ready = 0, .quiet_until = later};
    } else {
        if (sm->gap_warps[t] == 0) /* only a gap instruction could issue */
            k = n;
        for (; k < n && !(head[by_age[k]].ready_at <= cycle && head[by_age[k]].gap_left != 0); k++)
            ;
        if (k == n)
            return held_look(head, by_age, n, cycle, open);
    }
    return (scheduler_look){.ready = 1, .first_ready = k, .quiet_until = cycle};
}

/* Why scheduler t issued nothing when its look found no warp that can
 * issue (timed_stats.h's order): no warp, a warp waiting only for the
 * LD/ST unit, or every warp waiting for its loads.  (A ready warp the
 * order held back is STALL_THROTTLED.) */
static uint8_t waiting_cause(const sm_state *sm, uint32_t t, const scheduler_look *look)
{
    return sm->age_count[t] == 0 ? STALL_NO_WARP : look->pipeline ? STALL_PIPELINE : STALL_MEMORY;
}

/* Scheduler t issued nothing at `cycle`, a round-0 look: its cycles not
 * yet counted go to the cause that held through them, and this one to
 * `cause`. */
static void charge_idle(sm_state *sm, uint32_t t, uint64_t cycle, uint8_t cause)
{
    account(sm, t, cycle);
    sm->cause[t] = cause;
    account(sm, t, cycle + 1);
}

/* What issue_on_sm did. */
enum { VISIT_IDLE, VISIT_ISSUED, VISIT_HELD };

/* One issue slot of the SM at pos_sm: VISIT_ISSUED = a record issued
 * (event set); else nothing more on this SM this cycle, and VISIT_HELD
 * when a live warp could issue on the way (the order held it back, or its
 * scheduler issued before), VISIT_IDLE when none could: then each
 * scheduler's quiet_until is where its last look left it (quiet_least).
 * A scheduler whose warps all wait is passed over until its quiet_until
 * (docs/replay.md, "Timed replay"). */
static int issue_on_sm(sched *s, sched_event *e)
{
    uint32_t sm_index = s->pos_sm;
    sm_state *sm = &s->sms[sm_index];
    uint32_t schedulers = s->config.schedulers_per_sm;
    const warp_order_ops *order = s->options.warp;
    /* Plain GTO is told nothing of its issues (warp_order_ops.timed_greedy). */
    void (*const issued)(void *, const warp_view *, uint32_t, int) =
        s->timed_greedy ? NULL : order->issued;
    /* Where the SM's issue slots go on (pos_slot, and its scheduler), in
     * locals: stored back only when an issue returns. */
    const uint32_t slots = schedulers * s->config.timing.issue_per_cycle;
    const uint64_t cycle = s->cycle;
    uint32_t pos = s->pos_slot, next_t = s->pos_scheduler;
    int found = VISIT_IDLE;
    while (pos < slots) {
        uint32_t t = next_t, round = pos >= schedulers;
        pos++;
        next_t = t + 1 == schedulers ? 0 : t + 1;
        /* A look that would find no warp ready and charge its idle cycle to
         * the cause it already holds changes nothing: its cycles are charged
         * when it is next looked at (account) or the kernel ends. */
        if (sm->quiet_until[t] > cycle)
            continue;
        scheduler_look look;
        if (cycle == sm->ahead_cycle && t == sm->ahead_scheduler) { /* made ahead */
            look = (scheduler_look){.ready = 1, .first_ready = sm->ahead_first,
                                    .quiet_until = cycle};
            sm->ahead_cycle = UINT64_MAX; /* the first look only: an issue changes the SM */
        } else {
            look = look_at_warps(s, sm, t, cycle);
        }
        if (round == 0) /* only a round-0 look sets the idle cause */
            sm->quiet_until[t] = look.quiet_until;
        /* With no warp ready every order picks none and changes nothing
         * (warp_order.h), so it is not asked. */
        if (!look.ready) {
            if (round == 0) /* an idle cycle, charged to its cause */
                charge_idle(sm, t, cycle, waiting_cause(sm, t, &look));
            continue;
        }
        found = VISIT_HELD;
        warp_view v;
        int32_t slot;
        if (s->timed_greedy) { /* plain GTO, picked here (warp_order_ops.timed_greedy) */
            slot = (int32_t)gto_timed_pick(s->timed_greedy + (size_t)sm_index * schedulers + t,
                                           sm->live, sm->head, cycle, sm->ldst_open,
                                           sched_age_list(s, sm, t)[look.first_ready]);
        } else {
            v = sched_view(s, sm, sm_index, t);
            v.first_ready_of = v.by_age;
            v.first_ready = look.first_ready;
            slot = order->pick(s->order, &v);
        }
        if (slot < 0) { /* a ready warp the order held back */
            if (round == 0)
                charge_idle(sm, t, cycle, STALL_THROTTLED);
            continue;
        }
        if (round == 0) {
            account(sm, t, cycle);
            sm->accounted[t] = cycle + 1;
            s->kernel_stats.issue_cycles++;
        }
        s->issued_here = 1;
        sm->quiet_until[t] = cycle; /* its warps change: look again */
        s->kernel_stats.instructions++;
        warp_timing *h = &sm->head[slot];
        h->ready_at = cycle + 1; /* one instruction a cycle per warp */
        if (h->gap_left) { /* a non-memory instruction of the gap: no event */
            if (--h->gap_left == 0)
                sm->gap_warps[t]--;
            if (issued)
                issued(s->order, &v, (uint32_t)slot, 0);
            continue;
        }
        s->last_sm = sm_index;
        s->last_slot = (uint32_t)slot;
        s->last_scheduler = t;
        sched_issue(s, sm_index, (uint32_t)slot, t, e);
        s->awaiting = 1;
        s->kernel_stats.memory_instructions++;
        if (issued) {
            v.live_count = sm->age_count[t]; /* the issue may have ended the warp */
            issued(s->order, &v, (uint32_t)slot, 0);
        }
        s->pos_slot = pos;
        s->pos_scheduler = next_t;
        return VISIT_ISSUED;
    }
    return found;
}

/* The first cycle a look at one of the SM's schedulers would find
 * something new (the least of their quiet_until): with no warp ready, the
 * SM sleeps until then, which is every cycle at which stepping would see a
 * warp become ready or a stall change its cause. */
static uint64_t quiet_least(const sched *s, const sm_state *sm)
{
    uint64_t least = UINT64_MAX;
    for (uint32_t t = 0; t < s->config.schedulers_per_sm; t++)
        if (sm->quiet_until[t] < least)
            least = sm->quiet_until[t];
    return least;
}

/* The SM issued this cycle, so stepping would visit it again next cycle.
 * Until then its warps and LD/ST unit change only by its own issues (each
 * answered by now) and by its own retires and dispatches (none before its
 * drain_at), so that visit's looks can be made now, at the next cycle.
 * Its schedulers are looked at in that visit's order; each that finds no
 * warp that can issue charges its idle cycle and sets its quiet_until, as
 * in that visit's round 0 (a later round passes over it).  The first that
 * would find one ends the look-ahead, and the SM wakes next cycle, when
 * that scheduler's look is taken as made (sm->ahead_cycle).  When none
 * would, the SM sleeps until the least quiet_until, as that visit would
 * have left it.
 * Half of the SMs that issue find nothing the cycle after (kmeans; spmv
 * volta 7 in 8); this spares them the visit (docs/replay.md, "Timed
 * replay").  Returns the SM's wake. */
static uint64_t wake_after_issue(sched *s, uint32_t sm_index)
{
    sm_state *sm = &s->sms[sm_index];
    const uint64_t next = s->cycle + 1;
    const uint32_t schedulers = s->config.schedulers_per_sm;
    if (sm->drain_at <= next) /* a CTA retires then: the visit is due */
        return next;
    for (uint32_t t = 0; t < schedulers; t++) {
        if (sm->quiet_until[t] > next)
            continue;
        scheduler_look look = look_at_warps(s, sm, t, next);
        if (look.ready) {
            sm->ahead_cycle = next;
            sm->ahead_scheduler = t;
            sm->ahead_first = look.first_ready;
            return next;
        }
        sm->quiet_until[t] = look.quiet_until;
        charge_idle(sm, t, next, waiting_cause(sm, t, &look));
    }
    return wake_no_later(sm, quiet_least(s, sm), next);
}

/* Whether the kernel has nothing left: no CTA resident, none to come. */
static int kernel_over(const sched *s)
{
    return s->resident == 0 && s->next_cta >= s->cta_count && s->next_id >= s->grid_ctas;
}

/* The bounds of block b of SMs: [*start, *end). */
static void block_bounds(const sched *s, uint32_t b, uint32_t *start, uint32_t *end)
{
    *start = b * SCHED_WAKE_BLOCK;
    *end = *start + SCHED_WAKE_BLOCK < s->config.sms ? *start + SCHED_WAKE_BLOCK : s->config.sms;
}

/* The pass has gone past block b: its least wake (block_least, gathered as
 * the pass went by its SMs, those visited with their new wake) is exact
 * again, and the pass keeps it. */
static void close_block(sched *s, uint32_t b)
{
    s->block_wakes[b] = s->block_least;
    if (s->block_least < s->least_wake)
        s->least_wake = s->block_least;
    s->block_least = UINT64_MAX;
}

/* The next SM due this cycle from pos_sm on, in SM order, or sms when none
 * is left.  A block whose least wake is later is stepped over whole; the
 * SMs of the others are looked at one by one.  At the pass's end,
 * s->least_wake is the least wake of all: the clock's next cycle. */
static uint32_t next_due_sm(sched *s)
{
    const uint32_t sms = s->config.sms;
    const uint64_t cycle = s->cycle, *wakes = s->wakes;
    uint32_t i = s->pos_sm;
    while (i < sms) {
        uint32_t b = i / SCHED_WAKE_BLOCK, start, end;
        block_bounds(s, b, &start, &end);
        if (i == start && s->block_wakes[b] > cycle) { /* every SM of it sleeps */
            if (s->block_wakes[b] < s->least_wake)
                s->least_wake = s->block_wakes[b];
            i = end;
            continue;
        }
        uint64_t least = s->block_least;
        for (; i < end && wakes[i] > cycle; i++)
            least = wakes[i] < least ? wakes[i] : least;
        s->block_least = least;
        if (i < end)
            break; /* due */
        close_block(s, b);
    }
    s->pos_sm = i;
    return i;
}

/* The pass has visited SM i, which sleeps until `wake`, and goes on. */
static void visited(sched *s, uint32_t i, uint64_t wake)
{
    if (wake < s->block_least)
        s->block_least = wake;
    s->pos_sm = i + 1;
    if ((i + 1) % SCHED_WAKE_BLOCK == 0 || i + 1 == s->config.sms) /* its block's last SM */
        close_block(s, i / SCHED_WAKE_BLOCK);
}

int sched_timed_next(sched *s, sched_event *e, ws_error *err)
{
    if (s->awaiting)
        return ws_fail(err, "scheduler: an issue was not answered (sched_timed_issued)");
    uint32_t schedulers = s->config.schedulers_per_sm, sms = s->config.sms;
    for (;;) {
        for (;;) {
            uint32_t i = s->pos_sm; /* due, when an issue or an event returned from it */
            if (i == sms || s->wakes[i] > s->cycle)
                i = next_due_sm(s);
            if (i == sms)
                break;
            uint64_t cycle = s->cycle;
            sm_state *sm = &s->sms[i];
            if (s->pos_slot == 0) {
                int due = retire_due(s, i, err);
                if (due != 0)
                    return due < 0 ? -1 : 2; /* its events first; this SM goes on after */
            }
            int visit = issue_on_sm(s, e);
            if (visit == VISIT_ISSUED)
                return 1;
            uint64_t wake = s->issued_here         ? wake_after_issue(s, i)
                            : visit == VISIT_HELD ? next_wake(s, sm)
                                                  : wake_no_later(sm, quiet_least(s, sm), cycle);
            s->wakes[i] = wake;
            s->issued_here = 0;
            s->pos_slot = s->pos_scheduler = 0;
            visited(s, i, wake);
        }
        if (kernel_over(s)) {
            for (uint32_t i = 0; i < sms; i++)
                for (uint32_t t = 0; t < schedulers; t++)
                    close_account(&s->sms[i], t, s->kernel_stats.end_cycle);
            stall_sums(s, s->kernel_stats.stalls);
            for (uint32_t c = 0; c < STALL_CAUSES; c++)
                s->kernel_stats.stalls[c] -= s->stalls_before[c];
            s->cycle = s->kernel_stats.end_cycle;
            return 0;
        }
        uint64_t next = s->least_wake;
        if (next == UINT64_MAX)
            return ws_fail(err, "scheduler: the timed replay found no warp that can ever issue "
                           "(kernel %u)", s->kernel);
        s->cycle = next > s->cycle ? next : s->cycle + 1;
        s->pos_sm = 0;
        s->least_wake = UINT64_MAX;
    }
}

const timed_kernel *sched_timed_kernel(const sched *s) { return &s->kernel_stats; }

uint64_t sched_timed_cycle(const sched *s) { return s->cycle; }

const uint64_t *sched_timed_scheduler_stalls(const sched *s) { return s->scheduler_stalls; }
