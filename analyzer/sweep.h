/* analyzer/sweep.h: S3 ch. 5's warp-tuple grid (docs/metrics.md §6, §9): every
 * (N, p) with 1 <= p <= N <= n_max replayed from one decode of the trace.
 *
 * p changes only which warps allocate in L1, never the issue order (the
 * scheduler's reference L1 ignores allocation, docs/metrics.md §6), so the grid is
 * n_max issue streams, one per N under tuple:N,N, each feeding the N
 * hierarchies p = 1..N (hierarchy_options.allocate_p).  The streams share
 * one decode (analyzer/cta_cache.c) and their hierarchies run on worker
 * threads.  Two more hierarchies, on the N_MAX and 1 streams, replay the
 * corner points in the timed replay (docs/metrics.md §12) for Poise's
 * latencies and instruction count. */
#ifndef WS_SWEEP_H
#define WS_SWEEP_H

#include "analyzer/hierarchy.h"
#include "analyzer/replay.h"

typedef struct sweep_point {
    uint32_t n, p;
    replay_counts counts; /* the whole run's */
    uint64_t cycles;      /* a timed grid's (docs/metrics.md §12): the run's cycles; else 0 */
    uint64_t instructions; /* timed: the warp instructions issued, the gaps' included; else 0 */
} sweep_point;

typedef struct sweep_result {
    uint32_t n_max, count;
    int timed;           /* the grid itself was replayed timed (--timed): points have cycles */
    sweep_point *points; /* by N, then p: (1,1), (2,1), (2,2), (3,1) ... */
    /* (n_max, n_max) and (1, 1) replayed once more in the timed replay
     * (docs/metrics.md §12: latencies, queues, MSHRs): what Poise's timing
     * feature and I_n read (poise.h).  The same as the grid's points when
     * the grid itself is timed (--timed). */
    sweep_point timed_base, timed_one;
    /* Over the whole run: warp instructions (the timed (n_max, n_max)
     * corner's, gaps included, docs/metrics.md §12) and global warp-loads. */
    uint64_t warp_instructions, global_loads;
    /* The grid's L2 was answered from its streams (analyzer/l2_touch.h):
     * the same figures; for tests. */
    int l2_by_touch;
} sweep_result;

/* The warps of one scheduler: the largest N worth sweeping. */
uint32_t sweep_default_n_max(const gpu_config *c);

/* Replays the grid with hierarchies like `base` (its warp order and
 * allocate_p are set per point).  0, or -1 with err set. */
int sweep_run(const sched_source *source, const gpu_config *config, const replay_options *ro,
              const hierarchy_options *base, uint32_t n_max, progress *bar, sweep_result *out,
              ws_error *err);
void sweep_result_free(sweep_result *r);

/* On many ranks (docs/analysis.md "Ranks"): each replays its share of the
 * grid, whole issue streams (every p of an N) and the timed corners, and
 * leaves the others' points zero; sweep_owner says whose point `index` is
 * (index count and count + 1: the corners).  The merged grid equals
 * sweep_run's once sweep_result_complete has filled in the run's figures. */
#define SWEEP_MAX_RANKS 4096
uint32_t sweep_owner(uint32_t n_max, uint32_t index, uint32_t ranks);
int sweep_run_share(const sched_source *source, const gpu_config *config, const replay_options *ro,
                    const hierarchy_options *base, uint32_t n_max, uint32_t rank, uint32_t ranks,
                    progress *bar, sweep_result *out, ws_error *err);
void sweep_result_complete(sweep_result *r, const wst_trace *t);

/* The point (n, p), or NULL outside the grid. */
const sweep_point *sweep_at(const sweep_result *r, uint32_t n, uint32_t p);

/* Figures of a point (docs/metrics.md §9): L1 hit rate, of polluting and
 * non-polluting warps, intra-warp hit rate (intra-warp hits ÷ L1
 * accesses), L1->L2 bytes, average memory latency; -1 when undefined. */
double sweep_hit_rate(const sweep_point *p);
double sweep_polluting_hit_rate(const sweep_point *p);
double sweep_non_polluting_hit_rate(const sweep_point *p);
double sweep_intra_warp_hit_rate(const sweep_point *p);
uint64_t sweep_l2_bytes(const sweep_point *p);
double sweep_memory_latency(const sweep_point *p);
/* The cycles of a timed point's run: S3's objective is IPC, and with the
 * instructions the same at every point, fewer cycles is higher IPC. */
double sweep_fewer_cycles(const sweep_point *p);

#endif
