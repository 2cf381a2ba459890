/* analyzer/stages/lcm.c: see lcm.h (S2 §4, docs/metrics.md §9). */
#include "analyzer/stages/lcm.h"

#include <stdlib.h>

#include "analyzer/hierarchy.h"
#include "analyzer/l1_rules.h"
#include "analyzer/pc_monitor.h"
#include "formats/trace.h"
#include "util/counts.h"

/* One tag of a coalescing queue: the line, and the coalescer's clock when
 * it was taken. */
typedef struct lcm_tag {
    uint64_t line, born;
    uint64_t ready;   /* timed: when the data of the request that took it is back */
    uint8_t valid;
    uint8_t awaiting; /* timed: that request is not answered yet (ready unknown) */
} lcm_tag;

typedef struct lcm_coalescer {
    lcm_tag tags[LCM_QUEUES][LCM_TAGS];
    uint64_t clock; /* requests that entered it this kernel */
} lcm_coalescer;

struct lcm {
    lcm_options o;
    uint32_t sms, line_shift;
    pc_monitor *monitor; /* the SMs' L1 generations, closed at T, and the PCs' decisions */
    pc_monitor_table acting;
    uint32_t pc_count;
    lcm_coalescer *coalescers; /* [sms] */
    lcm_kernel *kernel;        /* the current one */
    lcm_results res;
    uint64_t merged_back; /* timed: the latest tag data the last instruction merged into */
};

lcm_options lcm_options_default(void)
{
    return (lcm_options){.monitor = LCM_MONITOR_ALL_WARPS, .threshold = 8, .window = 32};
}

int lcm_options_validate(const lcm_options *o, ws_error *err)
{
    /* T = 1 would close every observation at its fill, streaming. */
    if (o->threshold < 2 || o->threshold > 1000000)
        return ws_fail(err, "LCM threshold T %u outside 2..1000000", o->threshold);
    if (o->window < 1 || o->window > 1000000)
        return ws_fail(err, "LCM coalescing window W %u outside 1..1000000", o->window);
    return 0;
}

const char *lcm_monitor_name(lcm_monitor m)
{
    return m == LCM_MONITOR_ONE_WARP ? "one-warp" : "all-warps";
}

void lcm_free(lcm *m)
{
    if (!m)
        return;
    pc_monitor_free(m->monitor);
    free(m->coalescers);
    for (uint32_t k = 0; m->res.kernels && k < m->res.kernel_count; k++)
        free(m->res.kernels[k].pcs);
    free(m->res.kernels);
    free(m);
}

static int is_streaming(uint8_t c) { return c == LOCALITY_STREAMING; }
static int is_inter_warp(uint8_t c) { return c == LOCALITY_INTER_ONLY || c == LOCALITY_BOTH; }

lcm *lcm_new(const lcm_options *o, uint32_t sms, uint32_t line_bytes, uint32_t kernel_count,
             ws_error *err)
{
    if (lcm_options_validate(o, err) != 0)
        return NULL;
    lcm *m = calloc(1, sizeof *m);
    if (!m || !(m->coalescers = calloc(sms ? sms : 1, sizeof *m->coalescers)) ||
        !(m->res.kernels = calloc(kernel_count + 1, sizeof *m->res.kernels))) {
        lcm_free(m);
        return ws_fail(err, "out of memory"), NULL;
    }
    m->o = *o;
    m->sms = sms;
    m->line_shift = (uint32_t)__builtin_ctz(line_bytes);
    m->res.options = *o;
    m->res.kernel_count = kernel_count;
    m->acting = o->monitor == LCM_MONITOR_ONE_WARP ? PC_ONE_WARP : PC_EVERY_WARP;
    if (!(m->monitor = pc_monitor_new(sms, o->threshold, err))) {
        lcm_free(m);
        return NULL;
    }
    return m;
}

const lcm_results *lcm_results_of(const lcm *m) { return &m->res; }

/* ---- the coalescer ---- */

static void flush_tag(lcm_tag *t, uint64_t *cause)
{
    t->valid = 0;
    (*cause)++;
}

/* One request of an inter-warp PC: 1 = merged into a tag (no L1 access),
 * 0 = on to L1 (it took a tag). */
static int coalesce(lcm *m, lcm_coalescer *c, uint64_t line)
{
    lcm_counts *k = &m->kernel->counts;
    lcm_tag *queue = c->tags[line % LCM_QUEUES];
    uint64_t now = ++c->clock;
    k->coalescer_requests++;
    lcm_tag *free_tag = NULL, *oldest = NULL;
    for (uint32_t i = 0; i < LCM_TAGS; i++) {
        lcm_tag *t = &queue[i];
        if (t->valid && now - t->born > m->o.window) /* its window has passed */
            flush_tag(t, &k->flushes_window);
        if (t->valid && t->line == line) {
            k->merged_requests++;
            if (t->ready > m->merged_back) /* it gets its data with the tag's (timed) */
                m->merged_back = t->ready;
            return 1;
        }
        if (!t->valid && !free_tag)
            free_tag = t;
        if (t->valid && (!oldest || t->born < oldest->born))
            oldest = t;
    }
    if (!free_tag) { /* a conflict: the oldest tag goes */
        free_tag = oldest;
        flush_tag(free_tag, &k->flushes_conflict);
    }
    *free_tag = (lcm_tag){.line = line, .born = now, .valid = 1, .awaiting = 1};
    return 0;
}

static void flush_all(lcm *m)
{
    lcm_counts *k = &m->kernel->counts;
    for (uint32_t s = 0; s < m->sms; s++) {
        lcm_coalescer *c = &m->coalescers[s];
        for (uint32_t q = 0; q < LCM_QUEUES; q++)
            for (uint32_t i = 0; i < LCM_TAGS; i++) {
                lcm_tag *t = &c->tags[q][i];
                if (t->valid)
                    flush_tag(t, c->clock - t->born > m->o.window ? &k->flushes_window
                                                                         : &k->flushes_kernel_end);
            }
        c->clock = 0;
    }
}

/* ---- the front end: bypass and coalescing ---- */

/* What a decision makes LCM do: 1 bypass, 2 coalesce, 0 neither. */
static int action_of(const lcm *m, uint8_t c)
{
    if (c == PC_UNDECIDED)
        return 0;
    if (m->o.bypass && is_streaming(c))
        return 1;
    return m->o.coalesce && is_inter_warp(c) ? 2 : 0;
}

static int front_end(void *ctx, const replay_issue *is, ws_request *requests, int n,
                     uint8_t *bypass_l1, ws_error *err)
{
    (void)err;
    lcm *m = ctx;
    m->merged_back = 0;
    /* LCM decides the global loads that would look L1 up; one whose active
     * mask is empty makes no request and looks nothing up
     * (docs/report-schema.md, `lcm.loads`). */
    if (is->kind != WST_LOAD || is->space != WST_GLOBAL || is->pc >= m->pc_count ||
        l1_excluded(is->cache_op) || n == 0)
        return n;
    lcm_kernel *k = m->kernel;
    lcm_pc *pc = &k->pcs[is->pc];
    int every = action_of(m, pc_monitor_decision(m->monitor, PC_EVERY_WARP, is->sm, is->pc));
    int one = action_of(m, pc_monitor_decision(m->monitor, PC_ONE_WARP, is->sm, is->pc));
    int act = m->acting == PC_ONE_WARP ? one : every;
    k->counts.loads++;
    k->counts.agreed += every == one;
    pc->loads++;
    if (act == 1 && is->warp_slot == 0) { /* the monitored warp keeps caching */
        k->counts.monitored_kept++;
        return n;
    }
    if (act == 1) {
        /* The monitor still counts the use of a line L1 holds, though the
         * request goes around it: else a PC found streaming could never
         * show the inter-warp reuse of the monitored warp's lines. */
        for (int i = 0; i < n; i++)
            pc_monitor_use(m->monitor, is->sm, requests[i].line_addr >> m->line_shift, is->warp);
        *bypass_l1 = 1;
        k->counts.bypassed_loads++;
        k->counts.bypassed_requests += (uint64_t)n;
        pc->bypassed_loads++;
        return n;
    }
    if (act != 2)
        return n;
    lcm_coalescer *c = &m->coalescers[is->sm];
    int kept = 0;
    for (int i = 0; i < n; i++) {
        uint64_t line = requests[i].line_addr >> m->line_shift;
        if (coalesce(m, c, line)) {
            /* Served by the line its tag fetched: a use of the line the
             * monitor counts, or merging would hide the very reuse that
             * earned the PC its inter-warp bit. */
            pc_monitor_use(m->monitor, is->sm, line, is->warp);
            pc->merged_requests++;
            continue;
        }
        requests[kept++] = requests[i];
    }
    return kept;
}

/* Timed (docs/metrics.md §12): a request that took a tag was answered; the
 * requests that merge into the tag get their data with it, no sooner. */
static void served(void *ctx, const replay_issue *is, uint64_t line, uint64_t back)
{
    lcm *m = ctx;
    lcm_tag *queue = m->coalescers[is->sm].tags[line % LCM_QUEUES];
    for (uint32_t i = 0; i < LCM_TAGS; i++)
        if (queue[i].valid && queue[i].awaiting && queue[i].line == line) {
            queue[i].ready = back;
            queue[i].awaiting = 0;
        }
}

static uint64_t merged_back(void *ctx) { return ((const lcm *)ctx)->merged_back; }

void lcm_stage(lcm *m, hierarchy_stage *out)
{
    *out = (hierarchy_stage){.ctx = m, .front_end = front_end, .served = served,
                             .merged_back = merged_back};
}

/* ---- the monitor: L1 events ---- */

static int kernel_begin(void *ctx, uint32_t kernel, uint32_t pc_count, ws_error *err)
{
    lcm *m = ctx;
    lcm_kernel *k = &m->res.kernels[kernel < m->res.kernel_count ? kernel : m->res.kernel_count];
    if (!(k->pcs = calloc(pc_count ? pc_count : 1, sizeof *k->pcs)))
        return ws_fail(err, "out of memory");
    m->pc_count = k->pc_count = pc_count;
    m->kernel = k;
    return pc_monitor_begin_kernel(m->monitor, pc_count, err); /* every PC undecided: cached */
}

static int on_fill(void *ctx, const replay_issue *is, uint64_t line, ws_error *err)
{
    lcm *m = ctx;
    return pc_monitor_fill(m->monitor, is->sm, line, is->warp, is->pc, is->warp_slot == 0, err);
}

static int on_hit(void *ctx, const replay_issue *is, uint64_t line, uint32_t owner, ws_error *err)
{
    (void)owner;
    (void)err;
    lcm *m = ctx;
    pc_monitor_use(m->monitor, is->sm, line, is->warp);
    return 0;
}

static int on_depart(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor, evict_cause cause,
                     ws_error *err)
{
    (void)evictor;
    (void)cause;
    (void)err;
    lcm *m = ctx;
    pc_monitor_evict(m->monitor, sm, line);
    return 0;
}

static int kernel_end(void *ctx, ws_error *err)
{
    (void)err;
    lcm *m = ctx;
    lcm_kernel *k = m->kernel;
    flush_all(m);
    /* The monitor's closed observations (those still open are dropped:
     * the kernel's PCs die with it, so they would decide nothing). */
    uint32_t n;
    const locality_pc *observed = pc_monitor_pcs(m->monitor, &n);
    for (uint32_t pc = 0; pc < n && pc < k->pc_count; pc++)
        for (int c = 0; c < LOCALITY_CLASSES; c++) {
            k->pcs[pc].generations[c] = observed[pc].generations[c];
            k->counts.observations += observed[pc].generations[c];
            k->counts.monitored_observations += observed[pc].monitored_generations[c];
        }
    pc_monitor_turns turns = pc_monitor_turns_of(m->monitor, m->acting);
    k->counts.turned_streaming = turns.to_streaming;
    k->counts.turned_back = turns.back;
    counts_add(&m->res.total, &k->counts, sizeof m->res.total);
    return 0;
}

void lcm_observer(lcm *m, l1_observer *out)
{
    *out = (l1_observer){.ctx = m, .kernel_begin = kernel_begin, .hit = on_hit, .fill = on_fill,
                         .depart = on_depart, .kernel_end = kernel_end};
}
