/* analyzer/metrics.h: the cache-independent metrics of one streaming pass
 * (docs/metrics.md §2 coalescing and U, docs/metrics.md §3 reuse distance).
 *
 * Fed one issued warp instruction at a time with its coalesced requests.
 * By default only global loads count (docs/metrics.md §3 decision); include_stores adds
 * stores and atomics.  Results are per kernel and per PC, and the summary
 * is the sum of the kernels; only the last KERNEL_SLOTS kernels begun are
 * kept (analyzer/kernel_slots.h), so the caller reads a kernel after
 * metrics_kernel_end and before the kernel that takes its slot begins.
 *
 * Reuse scopes (docs/metrics.md §3) and their lifetimes:
 *   global    one stream for the whole trace (the L2 view; L2 stays warm
 *             across kernels, docs/metrics.md §7), or one per kernel with
 *             global_per_kernel (the L2 cold at each kernel, `--l2-cold`)
 *   per SM    one stream per SM, restarted at each kernel (L1s are flushed
 *             between kernels)
 *   per warp  one stream per warp, kept in the warp's slot on its SM and
 *             restarted when another warp takes the slot, so live state is
 *             bounded by resident warps, not by the warps of the kernel. */
#ifndef WS_METRICS_H
#define WS_METRICS_H

#include <stdint.h>

#include "analyzer/bypass_table.h"
#include "analyzer/coalesce.h"
#include "analyzer/kernel_slots.h"
#include "analyzer/pc_reuse.h"
#include "analyzer/reuse.h"
#include "formats/trace.h"

typedef enum reuse_scope { SCOPE_GLOBAL = 0, SCOPE_PER_SM, SCOPE_PER_WARP, SCOPES } reuse_scope;
typedef enum reuse_granularity { GRAN_LINE = 0, GRAN_SECTOR, GRANULARITIES } reuse_granularity;

#define METRICS_U_BINS 10 /* utilization histograms: [0,10%), ..., [90%,100%] */

const char *reuse_scope_name(reuse_scope scope);             /* "global", "per_sm", "per_warp" */
const char *reuse_granularity_name(reuse_granularity gran);  /* "line", "sector" */

/* Reuse distance and reuse time of one (granularity, scope). */
typedef struct reuse_pair {
    reuse_hist distance;
    reuse_hist time;
} reuse_pair;

/* Counts shared by the summary, a kernel and a PC. */
typedef struct metrics_counts {
    uint64_t executions;        /* warp instructions that count (loads by default) */
    uint64_t requests;          /* their line requests */
    uint64_t bytes_used;        /* distinct bytes asked for */
    uint64_t sectors;           /* 32 B sectors touched */
    uint64_t coherent, divergent;
    uint64_t u_hist[METRICS_U_BINS]; /* instructions by line-granularity U */
} metrics_counts;

typedef struct metrics_pc {
    metrics_counts counts;
    /* Line granularity, log2 buckets only, held sparse (analyzer/pc_reuse.h):
     * read them with metrics_pc_reuse. */
    pc_reuse reuse;
} metrics_pc;

_Static_assert(PC_REUSE_HISTS == SCOPES * 2, "a PC's reuse: distance and time of each scope");

/* A PC's distance and reuse time in one scope, without exact counts
 * (nothing to free). */
void metrics_pc_reuse(const metrics_pc *pc, reuse_scope scope, reuse_pair *out);

typedef struct metrics_totals {
    metrics_counts counts;
    uint64_t loads, stores, atomics; /* every record, counted or not */
    uint64_t req_hist[COALESCE_MAX_REQUESTS + 1];
    reuse_pair reuse[GRANULARITIES][SCOPES];
    /* Distinct lines by their U over the kernel (per-line U, docs/metrics.md §2). */
    uint64_t line_u_hist[GRANULARITIES][METRICS_U_BINS];
} metrics_totals;

typedef struct metrics_kernel {
    metrics_totals totals;
    metrics_pc *pcs;
    uint32_t pc_count;
} metrics_kernel;

typedef struct metrics_options {
    coalesce_config coalesce;
    uint32_t sm_count;
    uint32_t warp_slots_per_sm; /* max resident warps per SM */
    uint64_t exact_distances;   /* E = 2 × L1 lines (docs/metrics.md §3) */
    int include_stores;
    double sample_rate;         /* SHARDS; 0 or 1 = exact */
    /* Which reuse streams to run: bit METRICS_REUSE_BIT(g, s); 0 = all.
     * With reuse_only, nothing else is counted.  Two instances with
     * complementary masks run on two threads; metrics_adopt_reuse() then
     * joins them. */
    uint32_t reuse_mask;
    int reuse_only;
    /* The global streams restart with each kernel, as the L2 does under
     * `--l2-cold` (docs/metrics.md §3): kernels then share no reuse state. */
    int global_per_kernel;
} metrics_options;

#define METRICS_REUSE_BIT(g, s) (1u << ((g) * SCOPES + (s)))
#define METRICS_REUSE_ALL ((1u << (GRANULARITIES * SCOPES)) - 1)

/* One issued instruction: the record fields the metrics read, and where it
 * ran (the scheduler's placement). */
typedef struct metrics_issue {
    uint8_t kind, space; /* wst_kind, wst_space */
    uint32_t pc, cta, warp; /* PC index; CTA; warp within the CTA */
    uint32_t sm;
    uint32_t warp_slot; /* slot of the warp on its SM */
} metrics_issue;

static inline metrics_issue metrics_issue_of(const wst_record *r, uint32_t sm, uint32_t warp_slot)
{
    return (metrics_issue){.kind = r->kind, .space = r->space, .pc = r->pc, .cta = r->cta,
                           .warp = r->warp, .sm = sm, .warp_slot = warp_slot};
}

typedef struct metrics metrics;

metrics *metrics_new(const metrics_options *options, ws_error *err);
void metrics_free(metrics *m);

int metrics_kernel_begin(metrics *m, uint32_t pc_count, ws_error *err);
int metrics_instruction(metrics *m, const metrics_issue *issue, const ws_request *requests,
                        const coalesce_summary *summary, ws_error *err);
int metrics_kernel_end(metrics *m, ws_error *err);
/* The next kernel, ended elsewhere (another rank's pass over it, docs/
 * analysis.md "Ranks"): m takes *k over (k is left empty) and adds it to
 * the summary as metrics_kernel_end would. */
int metrics_kernel_adopt(metrics *m, metrics_kernel *k, ws_error *err);

/* Moves the reuse results of `mask` from `from`, which saw the same
 * instructions, into `into`: of one kernel (after both ended it), or of the
 * summary (at the end). */
int metrics_adopt_kernel_reuse(metrics *into, metrics *from, uint32_t kernel, uint32_t mask,
                               ws_error *err);
int metrics_adopt_reuse(metrics *into, metrics *from, uint32_t mask, ws_error *err);

uint32_t metrics_kernel_count(const metrics *m); /* kernels begun */
/* One of the last KERNEL_SLOTS kernels begun, by its ordinal; NULL for any
 * other. */
const metrics_kernel *metrics_kernel_at(const metrics *m, uint32_t kernel);
const metrics_totals *metrics_summary(const metrics *m);

/* U = bytes used ÷ bytes transferred, at line or sector granularity. */
double metrics_utilization(const metrics_counts *c, uint32_t line_bytes, reuse_granularity gran);

#endif
