/* analyzer/hierarchy.h: the functional L1/L2/DRAM replay (SPEC §5, §7, §8).
 *
 * One L1 per SM and a sliced L2, each a policy cache (cache.h), fed one
 * issued warp instruction at a time with its coalesced requests.  The rules
 * of SPEC §7:
 *   global loads   allocate in L1 on a miss; `cg` and `cv` bypass L1, and
 *                  so does any request the policy refuses (both fetch 32 B
 *                  sectors from L2);
 *   global stores  and atomics write through: they invalidate the L1 line
 *                  (write-evict) and write their sectors into L2;
 *   local space    is cached in L1, write-back and write-allocate;
 *   L2             write-back, write-allocate (a write miss fetches nothing);
 *   DRAM           bytes read on L2 read misses and written on dirty L2
 *                  evictions, at 32 B sectors when L2 is sectored, else whole
 *                  lines; dirty L2 lines are written back at the end.
 * L1s are flushed between kernels; L2 stays warm unless l2_cold.
 *
 * Alongside: MPLI per global load (SPEC §8), miss classes and the 3C split,
 * per-PC hit rates and locality generations of this L1 (SPEC §4), μRC and
 * the remote-holder matrix and the replication factor (SPEC §5).
 *
 * Memory is the cache models plus maps of the lines held (O(distinct
 * lines of a kernel)); nothing grows with trace length. */
#ifndef WS_HIERARCHY_H
#define WS_HIERARCHY_H

#include <stdint.h>

#include "analyzer/config.h"
#include "analyzer/locality.h"
#include "analyzer/missclass.h"
#include "analyzer/mpli.h"
#include "analyzer/nextuse.h"
#include "analyzer/policy.h"
#include "analyzer/request.h"
#include "util/error.h"

struct replay_issue;

typedef struct hierarchy_options {
    gpu_config config;          /* l1.policy / l2.policy name the policies */
    /* The policies, resolved once; a level left zero is resolved from the
     * config's name when the hierarchy is made. */
    policy_spec l1_spec, l2_spec;
    uint64_t seed;              /* for randomized policies */
    const void *l1_param, *l2_param; /* policy parameters (bypass tables) */
    int l2_cold;                /* flush L2 between kernels too */
    int reserved_lines;         /* SPEC §7 latency model and MSHR limits */
    /* OPT: the next-use streams of this hierarchy's L1 / L2 accesses (from
     * a backward pass), or NULL when the policy is not OPT. */
    nextuse *l1_next, *l2_next;
    /* Recording passes for OPT: append each L1 / L2 lookup's key. */
    nextuse *record_l1, *record_l2;
    /* Optional: every global-load L1 hit (hit = 1) or fill (hit = 0), for
     * the bypass table's reuse times (SPEC §9).  Runs on the replay thread. */
    int (*l1_event)(void *ctx, const struct replay_issue *issue, uint64_t line, int hit,
                    ws_error *err);
    void *l1_event_ctx;
} hierarchy_options;

/* One issued warp instruction. */
typedef struct replay_issue {
    uint32_t kernel, sm, cta, warp, warp_slot, scheduler, pc;
    uint32_t cta_warp; /* the warp's index within its CTA (warp is unique per run) */
    uint64_t step; /* the SM's issue clock */
    uint8_t kind, space, cache_op;
} replay_issue;

typedef struct level_counts {
    uint64_t accesses, hits, misses;
    uint64_t bypasses;          /* misses that did not allocate */
    uint64_t sector_misses;     /* misses on a present line (sectored caches) */
    uint64_t pending_hits;      /* hits on pending lines: MSHR merges (reserved mode) */
    uint64_t reservation_fails; /* no way or MSHR free: serviced without allocating */
    uint64_t write_evicts;      /* L1: lines invalidated by stores */
    uint64_t writes;            /* write requests (L2: from stores and write-backs) */
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
                                    and missed (SPEC §5; bypasses are not candidates) */
    uint64_t intra_warp_hits, inter_warp_hits; /* SPEC §4 per hit */
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
    locality_pc *locality; /* generations of this replay's L1 (SPEC §4) */
    uint32_t pc_count;
    /* Replication at kernel end = end_copies ÷ end_lines, the copies and
     * distinct lines in the L1s; undefined (null) when they end empty. */
    uint64_t end_copies, end_lines;
} replay_kernel;

typedef struct replay_results {
    char l1_policy[24], l2_policy[24];
    uint32_t sms;
    replay_counts total;
    uint64_t *sm_hits, *sm_misses;   /* [sms] L1 load hits / misses */
    uint64_t *sm_load_misses;        /* [sms] μRC candidates: remote_holders' denominators */
    uint64_t *remote_holders;        /* [sms × sms]: SM x's candidates held by SM y */
    replay_kernel *kernels;
    uint32_t kernel_count;
    /* Time average of the replication factor: the sum over issued
     * instructions at which it was defined (the L1s held a line), and how
     * many those were. */
    double replication_sum;
    uint64_t replication_samples;
} replay_results;

typedef struct hierarchy hierarchy;

/* Resolves a level whose spec is left zero from the config's policy name
 * (hierarchy_new does it too): the one place names become policies. */
int hierarchy_resolve_policies(hierarchy_options *o, ws_error *err);
hierarchy *hierarchy_new(const hierarchy_options *o, uint32_t kernel_count, ws_error *err);
void hierarchy_free(hierarchy *h);

int hierarchy_kernel_begin(hierarchy *h, uint32_t kernel, uint32_t pc_count, ws_error *err);
/* One warp instruction and its n requests (coalesce.h order). */
int hierarchy_instruction(hierarchy *h, const replay_issue *issue, const ws_request *requests,
                          int n, ws_error *err);
int hierarchy_kernel_end(hierarchy *h, ws_error *err);
/* Writes back dirty L2 lines; results are then complete. */
int hierarchy_finish(hierarchy *h, ws_error *err);
const replay_results *hierarchy_results(const hierarchy *h);

double level_hit_rate(const level_counts *c); /* hits ÷ accesses, -1 if none */

#endif
