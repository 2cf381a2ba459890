/* analyzer/analysis.h: the single streaming pass of `warpscope analyze`.
 *
 * scheduler -> coalescer -> consumers (docs/analysis.md): the cache-independent
 * metrics (docs/metrics.md §2-3), sharing (docs/metrics.md §5), and an LRU L1 per SM whose line
 * generations give the locality classes (docs/metrics.md §4).  That L1 is also the
 * scheduler's reference L1 for GTO (docs/metrics.md §6), so the issue order and the
 * classes come from one model.  Results are plain data for the reports. */
#ifndef WS_ANALYSIS_H
#define WS_ANALYSIS_H

#include "analyzer/access_map.h"
#include "analyzer/config.h"
#include "analyzer/hierarchy.h"
#include "analyzer/kernel_slots.h"
#include "analyzer/locality.h"
#include "analyzer/memory_workload.h"
#include "analyzer/metrics.h"
#include "analyzer/replay.h"
#include "analyzer/sched.h"
#include "analyzer/sharing.h"
#include "formats/wst.h"
#include "util/progress.h"

struct analysis;

typedef struct analysis_options {
    sched_options schedule;
    int include_stores;
    int half_warp;
    double sample_rate;      /* SHARDS; 0 or 1 = exact */
    /* docs/metrics.md §5 block, in bytes: 0 = the L1 line; a power of two, finer (a
     * sector, a word) or coarser (a page) than the line. */
    uint32_t sharing_block;
    /* docs/metrics.md §4 option: 0 = locality generations of the configured L1; N =
     * of a fully-associative LRU of N lines per SM, so a reuse counts only
     * if its per-SM stack distance is below N (cache-independent classes). */
    uint32_t locality_window;
    /* Optional: called for every issued instruction, in the order the pass
     * consumes them (`dump --order scheduled` prints them). */
    void (*observe)(void *ctx, const sched_event *issue);
    void *observe_ctx;
    /* Replays the config's L1/L2 policies in the same pass (docs/metrics.md §7); off
     * when the policy needs a backward pass (OPT: use `replay`). */
    int replay;
    uint64_t replay_seed;
    /* `--l2-cold`: the L2 starts cold at each kernel, in the replay and in
     * the global reuse streams (the L2 view, docs/metrics.md §3), so no
     * cache state crosses a kernel boundary (docs/analysis.md "Ranks"). */
    int l2_cold;
    /* Optional: called once per kernel, in trace order, when every part of
     * the pass has ended it.  The kernel's results (analysis_kernel_at,
     * metrics_kernel_at(a->metrics, kernel), the replay's kernel and
     * memory_workload_kernel) are its own only during the call: the pass
     * keeps no kernel after it, so memory does not grow with the number of
     * kernels (docs/analysis.md, Memory).  Reports are written from here. */
    int (*kernel_done)(void *ctx, const struct analysis *a, uint32_t kernel, ws_error *err);
    void *kernel_done_ctx;
    /* Where the metrics consumers run (docs/analysis.md "Ranks"):
     *   METRICS_HERE       with the others, as one process runs the pass;
     *   METRICS_ONLY       alone: a rank's share of the kernels (the other
     *                      consumers and the replay do not run);
     *   METRICS_ELSEWHERE  not here: each kernel's metrics come, when every
     *                      other part has ended it, from kernel_metrics,
     *                      which hands them to metrics_kernel_adopt.
     * Split so only under l2_cold, where no metrics state crosses kernels. */
    enum { METRICS_HERE, METRICS_ONLY, METRICS_ELSEWHERE } metrics_where;
    int (*kernel_metrics)(void *ctx, metrics *m, uint32_t kernel, ws_error *err);
    void *kernel_metrics_ctx;
    /* Measures analysis.cpu (thread CPU clocks read per batch). */
    int measure_cpu;
    /* Worker threads for the consumers; 0 = one per consumer, 1 = all on
     * the decoding thread.  The results never depend on it. */
    uint32_t threads;
} analysis_options;

void analysis_options_default(analysis_options *o);

/* Per-kernel results beyond the metrics module's (the latest kernel's). */
typedef struct analysis_kernel {
    locality_pc *locality; /* [pc_count] */
    uint32_t pc_count;
    uint64_t sharing_blocks, sharing_shared, sharing_multi_cta, sharing_pairs, sharing_neighbour_pairs;
    uint64_t l1_hits, l1_misses; /* the LRU L1's, over counted loads */
    uint64_t l1_bypasses;        /* of the misses: cg / cv loads, which skip L1 (docs/metrics.md §7) */
} analysis_kernel;

/* Where the pass's CPU time went, in seconds, with options.measure_cpu:
 * each part runs on its own thread (bench_pipeline's breakdown). */
typedef struct analysis_cpu {
    double schedule;     /* decode, schedule, coalesce, the reference L1 */
    double metrics;      /* U, Req, MPLI, bypass table; reuse of the other 4 streams */
    double sector_reuse; /* exact reuse of sectors, global and per SM */
    double sharing;      /* sharing, the access map, locality generations */
    double replay;       /* the config's L1/L2 and miss classes (0 if not replayed) */
} analysis_cpu;

typedef struct analysis {
    gpu_config config;
    analysis_options options;
    metrics *metrics;
    sharing *sharing;
    /* The last KERNEL_SLOTS kernels (analyzer/kernel_slots.h): one is
     * reported while the next run (options.kernel_done; analysis_kernel_at). */
    analysis_kernel kernels[KERNEL_SLOTS];
    uint32_t kernel_index[KERNEL_SLOTS];
    uint32_t kernel_count; /* kernels reported */
    /* Every ended kernel's: the whole trace's L1 LRU counts and locality. */
    uint64_t l1_hits, l1_misses, l1_bypasses;
    locality_totals locality;
    uint64_t issued;
    uint32_t peak_resident_ctas;
    hierarchy *replay; /* NULL unless options.replay */
    memory_workload *memory; /* the replay's memory workload (docs/metrics.md §7); NULL with no replay */
    access_map *access_map; /* counted requests by address region and time */
    analysis_cpu cpu;       /* zero unless options.measure_cpu */
} analysis;

/* A metrics instance as a consumer of the scheduled stream, fed as the
 * pass feeds its own (bench_sm_split runs some of its streams apart). */
typedef struct metrics_sink {
    metrics *m;
    unsigned line_bytes;
} metrics_sink;
replay_consumer metrics_sink_consumer(metrics_sink *sink);

/* Runs the pass over every kernel of r.  progress may be NULL. */
analysis *analysis_run(wst_reader *r, const gpu_config *config, const analysis_options *options,
                       progress *bar, ws_error *err);
void analysis_free(analysis *a);

/* Kernel k's results while the pass holds them (during options.kernel_done,
 * and the last kernel after the run); NULL otherwise. */
const analysis_kernel *analysis_kernel_at(const analysis *a, uint32_t k);

/* The sharing block in bytes: options.sharing_block, or the L1 line. */
uint32_t analysis_sharing_block(const analysis_options *options, const gpu_config *config);
/* The SHARDS rate the reuse histograms were sampled at: 1 when exact. */
static inline double analysis_sample_rate(const analysis_options *options)
{
    return options->sample_rate > 0 ? options->sample_rate : 1.0;
}

#endif
