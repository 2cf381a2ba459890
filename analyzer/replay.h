/* analyzer/replay.h: feeds one scheduled request stream to K hierarchies
 * (`warpscope replay` and `compare`, docs/metrics.md §6-§8).
 *
 * The trace is decoded, scheduled and coalesced once; every hierarchy sees
 * exactly the same issue order (docs/metrics.md §6 decision: GTO's miss signal comes
 * from the scheduler's own reference LRU L1, never from the policy under
 * study).  With more than one hierarchy and more than one core, the
 * hierarchies run on worker threads, fed in batches while the next batch is
 * being decoded.
 *
 * OPT needs next-use positions, which a forward stream cannot give: a
 * hierarchy with `opt` at L1 costs one extra recording pass, with `opt` at
 * L2 one more (its L2 stream depends on the L1 policy). */
#ifndef WS_REPLAY_H
#define WS_REPLAY_H

#include "analyzer/hierarchy.h"
#include "analyzer/ref_l1.h"
#include "analyzer/sched.h"
#include "util/progress.h"

/* Anything that subscribes to the scheduled request stream (DESIGN: one
 * decode, many consumers): a hierarchy, or analyze's metrics. */
typedef struct replay_consumer {
    void *ctx;
    int (*kernel_begin)(void *ctx, uint32_t kernel, uint32_t pc_count, ws_error *err);
    int (*instruction)(void *ctx, const replay_issue *issue, const ws_request *requests,
                       const replay_ref *refs, int n, ws_error *err);
    int (*kernel_end)(void *ctx, ws_error *err);
    /* The consumer's figures do not depend on how the instructions of
     * different SMs interleave within a kernel (hierarchy_sm_order_free):
     * a batch is fed to it SM by SM, so that it works on one SM's state at
     * a time (docs/replay.md, "SM by SM"). */
    int by_sm;
} replay_consumer;

typedef struct replay_stream_stats {
    uint64_t issued;
    uint32_t peak_resident_ctas;
    /* CPU seconds the decoding thread spent decoding, scheduling and
     * coalescing (not feeding consumers inline). */
    double decode_cpu_seconds;
} replay_stream_stats;

/* What happens on the timed replay's clock (docs/metrics.md §12), for a
 * timeline (reports/timeline_json.h): every hook optional, told of the
 * first hierarchy's run only.  Cycles are the run's clock. */
typedef struct timed_observer {
    void *ctx;
    void (*kernel)(void *ctx, uint32_t kernel, uint64_t start, uint64_t end);
    /* A CTA resident on sm in `slot` (its CTA slot) from start to end. */
    void (*cta)(void *ctx, uint32_t kernel, uint32_t sm, uint32_t slot, uint32_t cta,
                uint64_t start, uint64_t end);
    /* A warp instruction issued at is->step whose data was back at `back`
     * (loads and atomics; stores: when acknowledged). */
    void (*instruction)(void *ctx, const replay_issue *is, uint64_t back);
} timed_observer;

typedef struct replay_options {
    sched_options schedule;
    int half_warp;
    uint32_t threads; /* 0 = one per core, capped at the hierarchy count */
    /* Optional: called for every issued instruction with its requests, on
     * the decoding thread, before the hierarchies see it. */
    int (*observe)(void *ctx, const replay_issue *issue, const ws_request *requests, int n,
                   ws_error *err);
    void *observe_ctx;
    /* Optional: every issue event with its record, on the decoding thread
     * (`dump --order scheduled`). */
    void (*observe_event)(void *ctx, const sched_event *issue);
    void *observe_event_ctx;
    /* Optional: called on the decoding thread once every consumer has ended
     * a kernel, in kernel order, and before any consumer begins the kernel
     * that takes its slot: consumers keep their last KERNEL_SLOTS kernels
     * (analyzer/kernel_slots.h), so decoding and the other consumers go on
     * meanwhile.  Only for one stream. */
    int (*kernel_done)(void *ctx, uint32_t kernel, ws_error *err);
    void *kernel_done_ctx;
    /* Optional, `count` entries: each consumer's CPU seconds are added to
     * its entry (bench_pipeline's breakdown of where the pass's work goes). */
    double *consumer_cpu_seconds;
    /* Optional: the timed replay's events (its first hierarchy's). */
    const timed_observer *timeline;
    /* Each stream records the lines its requests ask for and answers the
     * L2 of every hierarchy it feeds (analyzer/l2_touch.h): only for a
     * functional run of hierarchies that hierarchy_l2_by_touch_exact
     * accepts, on a trace that l2_touch_fits accepts (replay_run checks
     * the hierarchies; the caller, the trace). */
    int l2_by_touch;
} replay_options;

void replay_options_default(replay_options *o);

/* One pass of the stream through `count` consumers, on worker threads where
 * there are cores.  stats may be NULL. */
int replay_stream_run(const sched_source *source, const gpu_config *scheduling_config,
                      const replay_options *options, const replay_consumer *consumers,
                      uint32_t count, progress *bar, replay_stream_stats *stats, ws_error *err);

/* The instruction an ISSUE event hands the hierarchies. */
replay_issue replay_issue_of(const sched_event *e);

/* The consumer face of a hierarchy. */
replay_consumer hierarchy_consumer(hierarchy *h);

/* Runs every hierarchy over the source (built with hierarchy_new from
 * options[i]; results in hierarchy_results).  On success *out holds count
 * hierarchies the caller frees with hierarchy_free. */
int replay_run(const sched_source *source, const gpu_config *scheduling_config,
               const replay_options *options, const hierarchy_options *hierarchies,
               uint32_t count, hierarchy **out, progress *bar, ws_error *err);

#endif
