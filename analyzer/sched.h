/* analyzer/sched.h: the scheduler model that rebuilds issue order (docs/metrics.md §6).
 *
 * A trace stores per-warp streams grouped by CTA; the scheduler places CTAs
 * on SMs (dispatch policy), interleaves the warps of each SM (warp policy),
 * and interleaves SMs one issue per SM per step, round robin.  It streams:
 * only the resident CTAs' records are in memory.  Kernels run one after
 * another.  The stream is a sequence of events, so consumers see kernel and
 * CTA boundaries exactly where they happen. */
#ifndef WS_SCHED_H
#define WS_SCHED_H

#include <stddef.h>
#include <stdint.h>

#include "analyzer/config.h"
#include "formats/packed_record.h"
#include "analyzer/timed_stats.h"
#include "analyzer/warp_order.h"
#include "formats/memtrace.h"
#include "formats/wst.h"

typedef enum cta_policy { CTA_RR, CTA_RECORDED, CTA_QN, CTA_QX, CTA_QX_ADPT, CTA_BCS } cta_policy;

/* The most warps a CTA may have (32 K threads): a kernel with more is
 * refused in one line. */
#define SCHED_MAX_WARPS_PER_CTA 1024

typedef struct sched_options {
    cta_policy cta;
    uint32_t group; /* N of qN */
    const warp_order_ops *warp; /* analyzer/warp_orders/, resolved once */
    uint32_t warp_n, warp_p;    /* its parameters (swl:N, pcal:N,p) */
    /* The timed issue model (docs/metrics.md §12): a clock drives the
     * schedulers and the caller answers each ISSUE (sched_timed_issued). */
    int timed;
} sched_options;

/* "rr,gto" (default), "q4,lrr", "qx_adpt", "bcs,lrr", "rr,swl:4",
 * "qx,pcal:6,2", "recorded" (both). */
int sched_options_parse(const char *text, sched_options *out, ws_error *err);
/* Writes e.g. "rr,gto" into buf. */
void sched_options_format(const sched_options *o, char *buf, size_t cap);

/* Takes the next n (> 0) records of a CTA: 0 = go on, 1 = enough, -1 =
 * error (err set). */
typedef int (*sched_take_fn)(void *take_ctx, const wst_record *records, size_t n, ws_error *err);

/* Where the CTAs come from: a .wst reader or an in-memory trace. */
typedef struct sched_source {
    void *ctx;
    const wst_trace *trace;
    /* Sorted ids of the CTAs of kernel k that have records. */
    const uint32_t *(*ctas)(void *ctx, uint32_t kernel, uint32_t *count);
    /* Hands every record of (kernel, cta), in trace order, to take, in
     * batches, until take has enough; 0 or -1 (err set). */
    int (*load_cta)(void *ctx, uint32_t kernel, uint32_t cta, sched_take_fn take, void *take_ctx,
                    ws_error *err);
    /* Optional, the fast path: packs every record of (kernel, cta) into g
     * (formats/packed_record.h) straight from the trace; 0 or -1.  NULL:
     * load_cta's records are packed one batch at a time. */
    int (*pack_cta)(void *ctx, uint32_t kernel, uint32_t cta, cta_grouping *g, ws_error *err);
    /* Optional (analyzer/cta_cache.h): the CTA's records packed and grouped
     * by warp of `warps` (warp w's are [starts[w], starts[w + 1])), shared
     * by several schedulers instead of each loading its own copy; given
     * back when the CTA retires.  NULL: dispatch loads and packs. */
    const packed_cta *(*borrow_cta)(void *ctx, uint32_t kernel, uint32_t cta, uint32_t warps,
                                    const uint32_t **starts, ws_error *err);
    void (*give_back_cta)(void *ctx, uint32_t kernel, uint32_t cta);
} sched_source;

/* Every record of (kernel, cta) packed into g, by the source's fastest
 * way; 0 or -1.  The caller finishes g (cta_grouping_finish). */
int sched_source_pack(const sched_source *s, uint32_t kernel, uint32_t cta, cta_grouping *g,
                      ws_error *err);

/* The source keeps pointers to r / m: they must outlive it. */
sched_source sched_source_wst(wst_reader *r);
sched_source sched_source_memtrace(const wst_memtrace *m);
void sched_source_free(sched_source *s);

typedef enum sched_event_kind {
    SCHED_KERNEL_BEGIN,
    SCHED_CTA_DISPATCH,
    SCHED_ISSUE,
    SCHED_CTA_RETIRE,
    SCHED_KERNEL_END
} sched_event_kind;

typedef struct sched_event {
    sched_event_kind kind;
    uint32_t kernel;
    uint32_t cta;         /* DISPATCH, ISSUE, RETIRE */
    uint32_t sm;          /* DISPATCH, ISSUE, RETIRE */
    uint32_t warp_slot;   /* ISSUE: the warp's slot on its SM */
    uint32_t scheduler;   /* ISSUE: warp slot mod schedulers */
    uint32_t age_rank;    /* ISSUE: the warp's age among its scheduler's live warps,
                             0 = oldest: its GTO priority (S4 §4.2) */
    uint8_t may_allocate; /* ISSUE: the warp order lets it allocate in L1 */
    uint64_t warp_id;     /* ISSUE: unique per warp over the whole run */
    uint64_t step;        /* ISSUE: issues so far on this SM (a per-SM clock); timed: the
                             cycle (also at KERNEL_BEGIN and KERNEL_END) */
    const wst_record *record; /* ISSUE; valid until the next call */
    /* ISSUE: lane l of the record is at addr[0] + l × stride (mod 2^64), for
     * every lane; lets the coalescer take its affine path.  Then addr[0] is
     * the only address written (coalesce_record_affine reads no other):
     * a reader of the lanes asks sched_record_lanes first. */
    int affine;
    uint64_t stride;
} sched_event;

/* Asked after each GTO issue: did it miss in the reference L1?  (docs/metrics.md §6:
 * a tag-only LRU L1 owned by the caller, so every policy later replays the
 * same order.) */
typedef int (*sched_miss_fn)(void *ctx, const sched_event *issue);

typedef struct sched sched;

/* The reference L1's answer on an issue's requests, for an order that
 * watches it (warp_order_ops.observed); the miss callback calls it. */
void sched_observe(sched *s, const sched_event *issue, const ws_request *requests,
                   const replay_ref *refs, int n);

sched *sched_new(const gpu_config *config, const sched_options *options,
                 const sched_source *source, sched_miss_fn miss, void *miss_ctx, ws_error *err);
void sched_free(sched *s);

/* 1 = *event filled, 0 = the trace is done, -1 = error. */
int sched_next(sched *s, sched_event *event, ws_error *err);
/* Writes every lane of the ISSUE event's record that it has not: what a
 * reader of its addresses other than the coalescer (observe_event) calls
 * first. */
void sched_record_lanes(sched *s, const sched_event *issue);

/* ---- the timed issue model (docs/metrics.md §12, sched_timed.c) ----
 *
 * With options.timed, sched_next advances one clock: each cycle, each
 * scheduler of each SM issues at most issue_per_cycle instructions of its
 * ready warps, chosen by the warp order.  A record's gap of non-memory
 * instructions issues first, one issue slot each, without an event; a
 * record issues as an ISSUE event at event.step = its cycle, and the
 * caller must answer it with sched_timed_issued before calling sched_next
 * again: when the instruction's data is back (a load's or atomic's; a
 * store's is never waited for) and when the SM's LD/ST unit takes its next
 * instruction.  A warp's next record waits for the loads it names
 * (wst_record.waits) or, without them, for all the warp's loads; a CTA
 * retires when its last load is back. */
typedef struct sched_outcome {
    uint64_t data_back; /* loads and atomics: the cycle the last request's data is back;
                           stores: when the last is acknowledged (the warp's end waits) */
    uint64_t ldst_free; /* the cycle the SM's LD/ST unit is free again */
} sched_outcome;

void sched_timed_issued(sched *s, const sched_outcome *outcome);
/* The clock: the cycle of the last event handed out. */
uint64_t sched_timed_cycle(const sched *s);
/* The kernel running, or the last one ended (after its KERNEL_END). */
const timed_kernel *sched_timed_kernel(const sched *s);
/* Stall cycles of the whole run: [sm × schedulers + t][cause]. */
const uint64_t *sched_timed_scheduler_stalls(const sched *s);

/* Max CTAs of kernel k resident on one SM under the config's limits. */
uint32_t sched_residency(const gpu_config *config, const wst_kernel *kernel);
/* Largest number of CTAs ever resident at once (for memory tests). */
uint32_t sched_peak_resident_ctas(const sched *s);

#endif
