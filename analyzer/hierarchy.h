/* analyzer/hierarchy.h: the functional L1/L2/DRAM replay (docs/metrics.md §5, §7, §8).
 *
 * One L1 per SM and a sliced L2, each a policy cache (cache.h), fed one
 * issued warp instruction at a time with its coalesced requests.  The rules
 * of docs/metrics.md §7:
 *   global loads   allocate in L1 on a miss; `cg` and `cv` bypass L1, and
 *                  so does any request the policy refuses (both fetch 32 B
 *                  sectors from L2);
 *   global stores  and atomics write through: they invalidate the L1 line
 *                  (write-evict) and write their sectors into L2; under the
 *                  L1 write policy `allocate` a store (not an atomic, `cg`
 *                  or `cv`) allocates the line instead, its wholly written
 *                  sectors valid;
 *   local space    is cached in L1, write-back and write-allocate;
 *   L2             write-back, write-allocate (a write miss fetches nothing);
 *   DRAM           bytes read on L2 read misses and written on dirty L2
 *                  evictions, at 32 B sectors when L2 is sectored, else whole
 *                  lines; dirty L2 lines are written back at the end.
 * L1s are flushed between kernels; L2 stays warm unless l2_cold.  The L1
 * rules are analyzer/l1_rules.h's, shared with the scheduler's reference L1.
 *
 * An L1 load runs in the cache's steps (probe, choose, fill), with stages
 * at fixed places (below) and L1 events raised to the metric collectors:
 * MPLI per global load (docs/metrics.md §8) in the core; miss classes and the 3C
 * split, locality generations (docs/metrics.md §4), μRC, the remote-holder matrix and
 * the replication factor (docs/metrics.md §5) in analyzer/l1_collectors.h; and any
 * collector the caller subscribes.
 *
 * Memory is the cache models plus maps of the lines held (O(distinct
 * lines of a kernel)); nothing grows with trace length. */
#ifndef WS_HIERARCHY_H
#define WS_HIERARCHY_H

#include <stdint.h>

#include "analyzer/config.h"
#include "analyzer/locality.h"
#include "analyzer/mem_timing.h"
#include "analyzer/missclass.h"
#include "analyzer/mpli.h"
#include "analyzer/nextuse.h"
#include "analyzer/policy.h"
#include "analyzer/request.h"
#include "analyzer/stages/ccn.h"
#include "analyzer/stages/lcm.h"
#include "analyzer/timed_stats.h"
#include "analyzer/warp_order.h"
#include "util/error.h"

struct replay_issue;
struct cache_result;

/* ---- extension points (DESIGN: hierarchy stages) ----
 *
 * A stage is a few optional hooks at fixed places of an L1 load:
 *   front_end    before L1: may rewrite the instruction's requests (merge
 *                or drop them: LCM's inter-warp coalescing) and returns the
 *                new count (at most n), or -1 with err set; may send the
 *                instruction around L1 as `cg` (*bypass_l1 = 1: LCM's
 *                streaming PCs);
 *   miss_route   after an L1 miss, before L2, with the miss (l1_miss): 1 =
 *                the stage served the line (a remote L1 over the CCN ring:
 *                no L1->L2 request), 2 = on to L2 without taking an L2
 *                line: a hit is served there, a miss from DRAM (S0's
 *                local misses), 0 = on to L2; it may set the fill's hint
 *                and a latency, which the timed replay charges;
 *   fill_filter  after the level below answered, before the L1 fill: 0 =
 *                do not fill (the chosen victim stays; sharing-aware fills).
 *                fill_hint is the level below's word on the line (L2's
 *                LINE_SHARED), victim_line the line the fill would evict
 *                (UINT64_MAX for an empty way) and victim_flags its flags.
 * Timed only (docs/metrics.md §12; never called in the functional replay):
 *   served       a request the front end passed on was answered: its line's
 *                data is back at `back` (LCM: the cycle a coalescing tag's
 *                merged requests get their data);
 *   merged_back  after front_end: the cycle the data of the requests it
 *                merged away is back (0: none merged), which the
 *                instruction then waits for as for its own requests. */
typedef struct l1_miss {
    uint64_t line;
    const struct cache_req *req; /* the request as L1 saw it; NULL if it bypassed L1 */
    uint8_t sectors;   /* the 32 B sectors to fetch */
    uint8_t fills;     /* L1 takes the data: a way was chosen, or sectors of a present line */
    uint8_t fill_hint; /* out: the hint the L1 fill's request carries */
    /* out, timed: served (1), the cycles until the line arrives; routed on
     * (0), cycles spent before the level below (the CCN ring's round),
     * which delay its arrival at L2 but do not hold the LD/ST unit. */
    uint32_t latency;
    uint64_t at; /* the cycle the miss leaves L1 (timed; the issue step otherwise) */
} l1_miss;

typedef struct hierarchy_stage {
    void *ctx;
    int (*front_end)(void *ctx, const struct replay_issue *is, ws_request *requests, int n,
                     uint8_t *bypass_l1, ws_error *err);
    int (*miss_route)(void *ctx, const struct replay_issue *is, l1_miss *miss);
    int (*fill_filter)(void *ctx, const struct replay_issue *is, uint64_t line, uint8_t fill_hint,
                       uint64_t victim_line, uint8_t victim_flags);
    void (*served)(void *ctx, const struct replay_issue *is, uint64_t line, uint64_t back);
    uint64_t (*merged_back)(void *ctx);
} hierarchy_stage;

/* ---- memory events: what crosses below L1 ----
 *
 * For collectors of the memory side (docs/metrics.md §7, "Memory workload";
 * analyzer/memory_workload.h), raised where the core counts requests and
 * traffic, so their sums are the core's counts.  requests: an instruction's
 * requests as L1 receives them, after the front-end stages.  transfer: one
 * request crossing a link below L1, or looking L2 up; `is` is the
 * instruction that caused it, NULL for the dirty L2 lines written back when
 * L2 is flushed (between kernels with l2_cold, and at the end). */
typedef enum memory_link {
    LINK_L1_TO_L2,  /* a request L1 sends down: a load's read, a store's or a write-back's write */
    LINK_L2_LOOKUP, /* a request looked an L2 slice up */
    LINK_L2_TO_DRAM /* bytes read from DRAM (an L2 miss, or a stage's route past L2) or written */
} memory_link;

typedef struct memory_transfer {
    uint8_t link;       /* memory_link */
    uint8_t write_back; /* a dirty line evicted from the level above, not the instruction's data */
    uint8_t hit;        /* LINK_L2_LOOKUP: it hit */
    uint32_t slice;     /* LINK_L2_LOOKUP: the slice */
    uint64_t bytes;     /* LINK_L1_TO_L2, LINK_L2_TO_DRAM: the bytes moved */
} memory_transfer;

/* ---- L1 events: what the metric collectors subscribe to ----
 *
 * Every hook is optional.  lookup: a request looked its SM's L1 up (a load
 * that was not bypassed, or a local store); hit / miss: its outcome (a miss
 * here looked up: bypasses are not misses of this kind); fill: a line was
 * put in; depart: a line left (replaced by `evictor`'s fill, or
 * invalidated); store: a global store or atomic wrote the line through
 * (present: it was in L1 and is now invalidated); instruction_end: after
 * each warp instruction; requests, transfer: the memory events above.
 * Collectors run in subscription order, the built-in ones (miss classes,
 * locality generations, inter-core reuse) first. */
typedef struct l1_observer {
    void *ctx;
    int (*kernel_begin)(void *ctx, uint32_t kernel, uint32_t pc_count, ws_error *err);
    int (*lookup)(void *ctx, const struct replay_issue *is, uint64_t line, ws_error *err);
    int (*hit)(void *ctx, const struct replay_issue *is, uint64_t line, uint32_t owner_warp,
               ws_error *err);
    int (*miss)(void *ctx, const struct replay_issue *is, uint64_t line, int present,
                ws_error *err);
    int (*fill)(void *ctx, const struct replay_issue *is, uint64_t line, ws_error *err);
    int (*depart)(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor, evict_cause cause,
                  ws_error *err);
    int (*store)(void *ctx, const struct replay_issue *is, uint64_t line, int present,
                 ws_error *err);
    void (*instruction_end)(void *ctx, const struct replay_issue *is);
    int (*kernel_end)(void *ctx, ws_error *err);
    /* The memory events (above). */
    void (*requests)(void *ctx, const struct replay_issue *is, const ws_request *requests, int n);
    void (*transfer)(void *ctx, const struct replay_issue *is, const memory_transfer *t);
} l1_observer;

#define HIERARCHY_MAX_STAGES 4
#define HIERARCHY_MAX_OBSERVERS 8

/* Which built-in metric collectors a hierarchy runs (docs/replay.md). */
typedef enum hierarchy_collect {
    COLLECT_ALL = 0,
    /* All but the locality generations per PC (the kernels' `locality`
     * stays NULL): for hierarchies whose reports read totals only
     * (`compare`, `profile`'s comparison, the bypass trials).  The
     * generations are a tenth of `profile`'s time. */
    COLLECT_TOTALS,
    /* None (miss classes and the 3C split, locality generations, μRC and
     * the remote holders, replication): those figures stay 0.  For
     * hierarchies that report hit rates and traffic only (the sweep's
     * timed corners, COLLECT_GRID below for its grid); about 40% faster. */
    COLLECT_NONE,
    /* As COLLECT_NONE, and of what stays only the figures a sweep point
     * reports (analyzer/sweep.h): no per-PC counts (the kernels' `pcs`
     * stay zero) and of MPLI the global warp-loads alone (mpli.loads);
     * every other total as COLLECT_NONE keeps it.  For the sweep's grid. */
    COLLECT_GRID
} hierarchy_collect;

typedef struct hierarchy_options {
    gpu_config config;          /* l1.policy / l2.policy name the policies */
    /* The policies, resolved once; a level left zero is resolved from the
     * config's name when the hierarchy is made. */
    policy_spec l1_spec, l2_spec;
    /* L2 lines keep their owner SM and shared flag (S0 §VI), whatever the
     * policies: set by sharing-aware management; on too whenever a policy
     * reads LINE_SHARED. */
    int track_sharing;
    /* The warp order this hierarchy is replayed under, when the order is
     * itself under study (docs/metrics.md §6: its own issue stream); ops NULL: the
     * run's. */
    warp_order_spec warp_order;
    /* S3's p for this hierarchy alone: a warp of GTO age rank >= allocate_p
     * in its scheduler may hit but never allocates in L1 (0: the warp
     * order's rule).  Hierarchies that differ only in p share one stream. */
    uint32_t allocate_p;
    uint64_t seed;              /* for randomized policies */
    const void *l1_param, *l2_param; /* policy parameters (bypass tables) */
    int l2_cold;                /* flush L2 between kernels too */
    hierarchy_collect collect;  /* which built-in collectors run */
    /* The Cooperative Caching Network over the L1s (analyzer/stages/ccn.h):
     * when enabled, its ring is the first miss route. */
    ccn_options ccn;
    /* Locality-based cache management (analyzer/stages/lcm.h): on when it
     * bypasses or coalesces; its front end comes after the caller's. */
    lcm_options lcm;
    /* The timed replay (docs/metrics.md §12): each instruction's requests
     * go through the LD/ST unit, MSHRs, the L2 slices' queues and DRAM at
     * the issue cycle (replay_issue.step) and the hierarchy says when the
     * data is back (hierarchy_timed_outcome). */
    int timed;
    /* Timed, for OPT (docs/metrics.md §12): a functional hierarchy fed the
     * issue order of a timed LRU replay of the same GPU, whose clock it
     * reports; its own hits cannot change that order, so next uses hold. */
    int timed_by_lru;
    /* OPT: the next-use streams of this hierarchy's L1 / L2 accesses (from
     * a backward pass), or NULL when the policy is not OPT. */
    nextuse *l1_next, *l2_next;
    /* Recording passes for OPT: append each L1 / L2 lookup's key. */
    nextuse *record_l1, *record_l2;
    /* The L2 answered from the issue stream (analyzer/l2_touch.h): each
     * access hits unless the stream says it is its line's first
     * (replay_ref.l2_touch, hierarchy_instruction_refs).  Exact only where
     * no L2 line is ever evicted: replay_run sets it from
     * replay_options.l2_by_touch, for hierarchies that
     * hierarchy_l2_by_touch_exact accepts, on traces l2_touch_fits
     * accepts. */
    int l2_by_touch;
    /* Stages, in order, and collectors beyond the built-in ones (the
     * bypass table's profile, docs/metrics.md §9); they run on the replay's thread. */
    hierarchy_stage stages[HIERARCHY_MAX_STAGES];
    uint32_t stage_count;
    l1_observer observers[HIERARCHY_MAX_OBSERVERS];
    uint32_t observer_count;
} hierarchy_options;

/* One issued warp instruction. */
typedef struct replay_issue {
    uint32_t kernel, sm, cta, warp, warp_slot, scheduler, pc;
    uint32_t cta_warp; /* the warp's index within its CTA (warp is unique per run) */
    uint64_t step; /* the SM's issue clock */
    uint8_t kind, space, cache_op;
    uint8_t no_allocate; /* the warp order forbids it to allocate in L1 (it may hit) */
    uint16_t age_rank;   /* the warp's GTO age rank in its scheduler, 0 = oldest
                            (< max_warps_per_sm <= 128: 16 bits keep batches small) */
} replay_issue;

typedef struct level_counts {
    uint64_t accesses, hits, misses;
    uint64_t bypasses;          /* L1: misses that never looked it up (docs/metrics.md §9);
                                   L2: misses that took no line */
    uint64_t misses_not_allocated; /* L1: misses that looked it up, kept their miss class,
                                      and took no line (a throttled warp's, S3 ch. 5) */
    uint64_t sector_misses;     /* misses on a present line (sectored caches) */
    uint64_t pending_hits;      /* hits on pending lines: MSHR merges (reserved mode),
                                   apart from `hits`: accesses = hits + pending_hits + misses */
    uint64_t reservation_fails; /* no way or MSHR free: serviced without allocating */
    uint64_t write_evicts;      /* L1: lines invalidated by stores */
    uint64_t writes;            /* write requests (L1: those that looked it up, local
                                   stores and, under `allocate`, global stores; L2: from
                                   stores and write-backs) */
    /* Sector accounting of a sectored level (docs/metrics.md §7), over the
     * requests counted in `accesses`: the 32 B sectors they asked for, those
     * found valid on lines not pending, and those found valid on pending
     * lines (MSHR merges, reserved mode).  The rest are sector misses. */
    uint64_t sector_requests, sector_hits, sector_pending_hits;
} level_counts;

typedef struct traffic_counts {
    uint64_t l1_to_l2_requests, l1_to_l2_read_bytes, l1_to_l2_write_bytes;
    uint64_t dram_read_bytes, dram_write_bytes;
} traffic_counts;

typedef struct replay_counts {
    level_counts l1, l2;
    traffic_counts traffic;
    mpli_counts mpli;
    miss_counts miss_classes;
    uint64_t remote_held_misses; /* μRC numerator (global load misses) */
    uint64_t l1_load_misses;     /* μRC denominator: global loads that looked L1 up
                                    and missed (docs/metrics.md §5; bypasses are not candidates) */
    uint64_t intra_warp_hits, inter_warp_hits; /* docs/metrics.md §4 per hit */
    /* S3 ch. 5: L1 load requests (and their hits) of the warps that may
     * allocate ("polluting") and of those the warp order or allocate_p
     * bars from allocating, which may only hit. */
    uint64_t polluting_accesses, polluting_hits;
    uint64_t non_polluting_accesses, non_polluting_hits;
    /* The latency model (docs/metrics.md §7) over L1 load misses: the config's L2 or
     * DRAM latency by where the line was found (a CCN ring's own), plus
     * the wait for a way with --timed; timed (§12), the cycles
     * from issue to data back.  ÷ misses = the average memory latency
     * (S3 ch. 5's L). */
    uint64_t load_miss_latency;
    /* Timed (§12): the load requests' latencies by where they were served. */
    latency_counts latency;
} replay_counts;

typedef struct replay_pc {
    uint64_t accesses, hits, misses, bypasses;
    uint64_t intra_warp_hits, inter_warp_hits;
    uint64_t traffic_bytes; /* L1->L2 read bytes its loads caused */
    mpli_counts mpli;
} replay_pc;

typedef struct replay_kernel {
    replay_counts counts;
    replay_pc *pcs;
    locality_pc *locality; /* generations of this replay's L1 (docs/metrics.md §4) */
    uint32_t pc_count;
    /* Replication at kernel end = end_copies ÷ end_lines, the copies and
     * distinct lines in the L1s; undefined (null) when they end empty. */
    uint64_t end_copies, end_lines;
    /* With L2 sharing tracked: lines filled into L2 (each starts private)
     * and how many of them turned shared, a second SM hitting them. */
    uint64_t l2_fills, l2_became_shared;
    /* S0 §VI-C, with --timed: L1 load requests to shared lines that
     * merged into a pending miss (MSHR hits) or missed, and re-references
     * (L2 hits) of shared lines, those at least SHARING_LONG_INTERVAL steps
     * of the per-SM issue clock after the line's L2 fill. */
    uint64_t shared_mshr_hits, shared_misses;
    uint64_t shared_rereferences, shared_rereferences_late;
    timed_kernel timed; /* the timed replay's clock over this kernel (§12) */
} replay_kernel;

typedef struct replay_results {
    char l1_policy[24], l2_policy[24];
    uint32_t sms;
    uint8_t l1_sectored, l2_sectored; /* the levels' sector counts are defined */
    replay_counts total;
    uint64_t *sm_hits, *sm_misses;   /* [sms] L1 load hits / misses */
    uint64_t *sm_load_misses;        /* [sms] μRC candidates: remote_holders' denominators */
    uint64_t *remote_holders;        /* [sms × sms]: SM x's candidates held by SM y */
    replay_kernel *kernels;
    uint32_t kernel_count;
    /* The policies' own figures (policy.h stats), summed over each level's
     * caches; none for most policies. */
    policy_stat l1_policy_stats[POLICY_MAX_STATS], l2_policy_stats[POLICY_MAX_STATS];
    uint32_t l1_policy_stat_count, l2_policy_stat_count;
    int sharing_tracked; /* L2 owners were tracked: the kernels' l2_fills are set */
    /* Time average of the replication factor: the sum over issued
     * instructions at which it was defined (the L1s held a line), and how
     * many those were. */
    double replication_sum;
    uint64_t replication_samples;
    const ccn_results *ccn; /* the ring's figures, or NULL without one */
    const lcm_results *lcm; /* LCM's figures, or NULL without it */
    /* The timed replay (docs/metrics.md §12), when `timed`: the clock over
     * the whole run, the stall cycles of each scheduler ([sm × schedulers +
     * t][cause]) and the queues of each L2 slice and DRAM channel. */
    int timed;
    int timed_by_lru;     /* OPT: replayed in a timed LRU run's order, whose clock this is;
                             its queues are that run's (l2_queues, dram_queues NULL) */
    timing_config timing; /* the model's parameters */
    timed_kernel timed_total;
    uint32_t schedulers;
    uint64_t *scheduler_stalls;
    uint32_t slices;
    const queue_counts *l2_queues, *dram_queues;
} replay_results;

/* S0's "long" re-reference interval: 1000 cycles, here 1000 steps of the
 * per-SM issue clock (one issue per SM per step). */
#define SHARING_LONG_INTERVAL 1000

typedef struct hierarchy hierarchy;

/* Resolves a level whose spec is left zero from the config's policy name
 * (hierarchy_new does it too): the one place names become policies. */
int hierarchy_resolve_policies(hierarchy_options *o, ws_error *err);
hierarchy *hierarchy_new(const hierarchy_options *o, uint32_t kernel_count, ws_error *err);
void hierarchy_free(hierarchy *h);

/* Whether an L2 answered from the stream (l2_by_touch) gives o's figures
 * on a trace that l2_touch_fits accepts: a functional replay, no stage
 * (they route misses or keep fills out), no sharing, and a plain LRU L2 of
 * whole lines, never flushed between kernels, so that nothing but an
 * eviction could make a line that reached it miss. */
int hierarchy_l2_by_touch_exact(const hierarchy_options *o);

/* Whether h runs on the direct path (analyzer/hierarchy.c): functional,
 * with no built-in collector, subscriber, stage, sharing or OPT stream, so
 * that its requests raise no event (docs/replay.md, "The direct path"). */
int hierarchy_direct(const hierarchy *h);
/* Whether h runs on the timed path (analyzer/hierarchy.c): timed, with no
 * subscriber, stage, sharing, OPT stream or grid, so that only the
 * built-in collectors hear of its requests (docs/replay.md, "The timed
 * path"). */
int hierarchy_timed_path(const hierarchy *h);
/* Whether h's figures are the same however the instructions of different
 * SMs interleave within a kernel: a hierarchy on the direct path
 * (hierarchy.c) with an L2 answered from the stream, whose SMs share no
 * state (each L1 and its policy are its own, the L2's answers come with
 * the requests) and whose every other figure is a sum.  The sweep's grid
 * is fed so, SM by SM (replay_consumer.by_sm). */
int hierarchy_sm_order_free(const hierarchy *h);

int hierarchy_kernel_begin(hierarchy *h, uint32_t kernel, uint32_t pc_count, ws_error *err);
/* One warp instruction and its n requests (coalesce.h order). */
int hierarchy_instruction(hierarchy *h, const replay_issue *issue, const ws_request *requests,
                          int n, ws_error *err);
/* The same with the stream's answers on each request (refs[i] for
 * requests[i]; NULL: none), which an l2_by_touch hierarchy needs. */
int hierarchy_instruction_refs(hierarchy *h, const replay_issue *issue,
                               const ws_request *requests, const replay_ref *refs, int n,
                               ws_error *err);
int hierarchy_kernel_end(hierarchy *h, ws_error *err);
/* Writes back dirty L2 lines; results are then complete. */
int hierarchy_finish(hierarchy *h, ws_error *err);
const replay_results *hierarchy_results(const hierarchy *h);
/* A timed run's cycles: its kernels' (docs/metrics.md §12); 0 for a
 * functional one.  The one definition (reports/timed_text.h's
 * timed_cycles, the sweep's points, the bypass advice). */
uint64_t replay_results_cycles(const replay_results *r);

/* Timed (docs/metrics.md §12): after hierarchy_instruction, when its data
 * is back and when its SM's LD/ST unit takes the next instruction. */
void hierarchy_timed_outcome(const hierarchy *h, uint64_t *data_back, uint64_t *ldst_free);
/* Timed: after hierarchy_instruction, its requests as L1 received them
 * (after the front-end stages: LCM's merged requests made no L1 access) and
 * L1's answer on each, with its measured latency; returns their count (0
 * for a functional hierarchy).  What CCWS and LWS watch in the timed
 * replay (docs/metrics.md §12), valid until the next instruction. */
int hierarchy_l1_view(const hierarchy *h, const ws_request **requests, const replay_ref **refs);
/* Timed: whether hierarchy_l1_view is read (1, as a hierarchy starts) or
 * not (0: its answers are not written, and it returns 0).  The timed
 * replay keeps it only for the hierarchy whose L1 drives an order that
 * watches L1. */
void hierarchy_keep_l1_view(hierarchy *h, int kept);
/* Timed: the clock's figures for the kernel just ended (before
 * hierarchy_kernel_end) and the schedulers' stalls of the whole run (at
 * the end, before hierarchy_finish). */
void hierarchy_timed_kernel(hierarchy *h, const timed_kernel *k);
int hierarchy_is_timed_by_lru(const hierarchy *h);
int hierarchy_l2_cold(const hierarchy *h);
int hierarchy_timed_stalls(hierarchy *h, const uint64_t *scheduler_stalls, ws_error *err);

double level_hit_rate(const level_counts *c); /* hits ÷ accesses, -1 if none */

#endif
