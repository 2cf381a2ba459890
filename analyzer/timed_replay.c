/* analyzer/timed_replay.c: see timed_replay.h (docs/metrics.md §12). */
#include "analyzer/timed_replay.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/coalesce.h"
#include "analyzer/cta_cache.h"

/* One closed loop: a hierarchy and the scheduler its answers drive. */
typedef struct loop {
    hierarchy *h;
    hierarchy *driver; /* timed_by_lru: the timed LRU hierarchy whose answers drive the order */
    sched *sched;
    sched_options schedule;
    const wst_trace *trace;
    uint64_t dispatched;
    int state; /* 1 running, 0 done, -1 failed */
    /* The timeline's view (replay_options.timeline), first loop only: each
     * SM's CTA slots, the CTA in each and since when, and the kernel's start. */
    const timed_observer *timeline;
    const replay_options *watch; /* first loop: options.observe and observe_event */
    uint32_t slots_per_sm;
    uint32_t *slot_cta;   /* [sms × slots_per_sm], UINT32_MAX: free */
    uint64_t *slot_since;
    uint64_t kernel_start;
} loop;

/* The timeline hears of a CTA's dispatch (start) or retire (end). */
static void timeline_cta(loop *l, const sched_event *e, int retire)
{
    uint32_t *cta = l->slot_cta + (size_t)e->sm * l->slots_per_sm;
    uint64_t now = sched_timed_cycle(l->sched), *since = l->slot_since + (size_t)e->sm * l->slots_per_sm;
    for (uint32_t s = 0; s < l->slots_per_sm; s++) {
        if (retire && cta[s] == e->cta) {
            if (l->timeline->cta)
                l->timeline->cta(l->timeline->ctx, e->kernel, e->sm, s, e->cta, since[s], now);
            cta[s] = UINT32_MAX;
            return;
        }
        if (!retire && cta[s] == UINT32_MAX) {
            cta[s] = e->cta;
            since[s] = now;
            return;
        }
    }
}

/* The issue through coalescer and hierarchy, and the answer back to the
 * scheduler. */
static int issue(loop *l, const coalesce_config *cc, const sched_event *e, ws_error *err)
{
    ws_request requests[COALESCE_MAX_REQUESTS];
    const wst_record *r = e->record;
    int n = e->affine ? coalesce_record_affine(cc, r, e->stride, e->kernel, requests, NULL, err)
                      : coalesce_record(cc, r, e->kernel, requests, NULL, err);
    if (n < 0)
        return -1;
    replay_issue is = replay_issue_of(e);
    if (l->watch && l->watch->observe &&
        l->watch->observe(l->watch->observe_ctx, &is, requests, n, err) != 0)
        return -1;
    if (hierarchy_instruction(l->h, &is, requests, n, err) != 0 ||
        (l->driver && hierarchy_instruction(l->driver, &is, requests, n, err) != 0))
        return -1;
    /* The orders that watch L1 (CCWS, LWS) see the L1 whose answers drive
     * the order, with its pending lines and measured latencies. */
    const hierarchy *driver = l->driver ? l->driver : l->h;
    if (l->schedule.warp->observed) {
        const ws_request *seen;
        const replay_ref *refs;
        int m = hierarchy_l1_view(driver, &seen, &refs);
        sched_observe(l->sched, e, seen, refs, m);
    }
    sched_outcome o;
    hierarchy_timed_outcome(driver, &o.data_back, &o.ldst_free);
    sched_timed_issued(l->sched, &o);
    if (l->timeline && l->timeline->instruction)
        l->timeline->instruction(l->timeline->ctx, &is, o.data_back);
    return 0;
}

/* The timed LRU replay that drives a timed_by_lru hierarchy's order: the
 * same GPU and warp order, LRU at both levels, nothing else. */
static hierarchy *lru_driver(const hierarchy *passenger, const gpu_config *config, ws_error *err)
{
    hierarchy_options o = {.config = *config, .timed = 1, .collect = COLLECT_NONE,
                           .l1_spec = policy_spec_lru(), .l2_spec = policy_spec_lru(),
                           .l2_cold = hierarchy_l2_cold(passenger)};
    return hierarchy_new(&o, (uint32_t)hierarchy_results(passenger)->kernel_count, err);
}

/* One event of a loop's scheduler: 1 = go on, 0 = done, -1 = error. */
static int step(loop *l, const coalesce_config *cc, progress *bar, uint64_t *issued,
                ws_error *err)
{
    sched_event e;
    int got = sched_next(l->sched, &e, err);
    if (got != 1)
        return got;
    switch (e.kind) {
    case SCHED_KERNEL_BEGIN:
        l->kernel_start = sched_timed_cycle(l->sched);
        return (hierarchy_kernel_begin(l->h, e.kernel, l->trace->kernels[e.kernel].pc_count,
                                       err) != 0 ||
                (l->driver && hierarchy_kernel_begin(l->driver, e.kernel,
                                                     l->trace->kernels[e.kernel].pc_count,
                                                     err) != 0)) ? -1 : 1;
    case SCHED_KERNEL_END:
        if (l->timeline && l->timeline->kernel)
            l->timeline->kernel(l->timeline->ctx, e.kernel, l->kernel_start,
                                sched_timed_cycle(l->sched));
        hierarchy_timed_kernel(l->h, sched_timed_kernel(l->sched));
        return (hierarchy_kernel_end(l->h, err) != 0 ||
                (l->driver && hierarchy_kernel_end(l->driver, err) != 0)) ? -1 : 1;
    case SCHED_CTA_DISPATCH:
        l->dispatched++;
        if (l->timeline)
            timeline_cta(l, &e, 0);
        return 1;
    case SCHED_CTA_RETIRE:
        if (l->timeline)
            timeline_cta(l, &e, 1);
        return 1;
    case SCHED_ISSUE:
        if (bar)
            progress_update(bar, ++*issued);
        if (l->watch && l->watch->observe_event) {
            sched_record_lanes(l->sched, &e);
            l->watch->observe_event(l->watch->observe_event_ctx, &e);
        }
        return issue(l, cc, &e, err) != 0 ? -1 : 1;
    default:
        return 1;
    }
}

int timed_replay_run(const sched_source *source, const gpu_config *config,
                     const replay_options *o, hierarchy **hs, const warp_order_spec *orders,
                     uint32_t count, progress *bar, ws_error *err)
{
    coalesce_config cc = {.line_bytes = config->l1.line_bytes, .half_warp = o->half_warp};
    cta_cache *ctas = count > 1 ? cta_cache_new(source, count, err) : NULL;
    if (count > 1 && !ctas)
        return -1;
    sched_source shared = ctas ? cta_cache_source(ctas) : *source;
    loop *loops = calloc(count ? count : 1, sizeof *loops);
    int rc = -1;
    uint64_t issued = 0;
    if (!loops) {
        ws_fail(err, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < count; i++) {
        loop *l = &loops[i];
        l->h = hs[i];
        l->trace = source->trace;
        l->schedule = o->schedule;
        if (orders && orders[i].ops) {
            l->schedule.warp = orders[i].ops;
            l->schedule.warp_n = orders[i].n;
            l->schedule.warp_p = orders[i].p;
        }
        l->schedule.timed = 1;
        if (hierarchy_is_timed_by_lru(l->h) && !(l->driver = lru_driver(l->h, config, err)))
            goto out;
        /* Only the orders that watch L1 read its view (issue, below). */
        hierarchy_keep_l1_view(l->h, !l->driver && l->schedule.warp->observed != NULL);
        if (l->driver)
            hierarchy_keep_l1_view(l->driver, l->schedule.warp->observed != NULL);
        if (!(l->sched = sched_new(config, &l->schedule, &shared, NULL, NULL, err)))
            goto out;
        if (i == 0)
            l->watch = o;
        if (i == 0 && o->timeline) {
            size_t n = (size_t)config->sms * config->max_ctas_per_sm;
            l->timeline = o->timeline;
            l->slots_per_sm = config->max_ctas_per_sm;
            if (!(l->slot_cta = malloc(n * sizeof *l->slot_cta)) ||
                !(l->slot_since = calloc(n, sizeof *l->slot_since))) {
                ws_fail(err, "out of memory");
                goto out;
            }
            memset(l->slot_cta, 0xff, n * sizeof *l->slot_cta);
        }
        l->state = 1;
    }
    /* In lockstep by CTA dispatch, as replay.c's several streams: the
     * shared CTA copies stay about one residency.  The loop to step is the
     * first running one with the fewest CTAs dispatched, which changes
     * only when it dispatches one or ends: it steps until then, without
     * the choice made again at every event (bench/RESULTS.md, "Branch
     * hier43"). */
    for (;;) {
        int64_t next = -1;
        for (uint32_t i = 0; i < count; i++)
            if (loops[i].state == 1 && (next < 0 || loops[i].dispatched < loops[next].dispatched))
                next = i;
        if (next < 0)
            break;
        loop *l = &loops[next];
        uint64_t dispatched = l->dispatched;
        do
            l->state = step(l, &cc, next == 0 ? bar : NULL, &issued, err);
        while (l->state == 1 && l->dispatched == dispatched);
        if (l->state < 0)
            goto out;
    }
    rc = 0;
    for (uint32_t i = 0; i < count && rc == 0; i++)
        if (sched_timed_scheduler_stalls(loops[i].sched))
            rc = hierarchy_timed_stalls(loops[i].h, sched_timed_scheduler_stalls(loops[i].sched), err);
out:
    for (uint32_t i = 0; loops && i < count; i++) {
        sched_free(loops[i].sched);
        hierarchy_free(loops[i].driver);
        free(loops[i].slot_cta);
        free(loops[i].slot_since);
    }
    free(loops);
    cta_cache_free(ctas);
    return rc;
}
