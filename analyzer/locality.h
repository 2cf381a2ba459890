/* analyzer/locality.h: per-PC locality classes by L1 line generation
 * (docs/metrics.md §4, S2 §4.1, S3 Fig. 5.6).
 *
 * Event driven, so it does not care which cache produces the generations:
 * the configured L1s (cache-dependent classes), or a fully-associative LRU of
 * C lines per SM (the cache-independent option of docs/metrics.md §4: a reuse counts
 * only if its per-SM stack distance is below C, which is exactly a hit in
 * such a cache).
 *
 * A generation runs from a fill to the eviction of that line from that SM's
 * L1 (or to kernel end).  Tot counts its accesses, Intra those by the warp
 * that filled it; the class goes to the PC of the filling access:
 *   streaming   Tot = 1
 *   intra-only  Intra = Tot > 1
 *   inter-only  Intra = 1 < Tot
 *   both        1 < Intra < Tot */
#ifndef WS_LOCALITY_H
#define WS_LOCALITY_H

#include <stdint.h>
#include "util/error.h"

typedef enum locality_class {
    LOCALITY_STREAMING = 0,
    LOCALITY_INTRA_ONLY,
    LOCALITY_INTER_ONLY,
    LOCALITY_BOTH,
    LOCALITY_CLASSES
} locality_class;

typedef struct locality_pc {
    uint64_t generations[LOCALITY_CLASSES];           /* all filling warps */
    uint64_t monitored_generations[LOCALITY_CLASSES]; /* S2's detected warp only */
    uint64_t intra_warp_hits; /* L1 hits on a line this PC filled, same warp */
    uint64_t inter_warp_hits; /* ... by another warp */
} locality_pc;

typedef struct locality locality;

locality *locality_new(uint32_t sm_count, ws_error *err);
void locality_free(locality *loc);

/* A generation closed, of the PC (< the kernel's pc_count) that filled
 * it on sm; monitored: the filling warp was the monitored one. */
typedef void (*locality_close_fn)(void *ctx, uint32_t sm, uint32_t pc, locality_class c,
                                  int monitored);
/* S2's monitor (LCM, docs/metrics.md §9): a generation also closes once Tot reaches
 * threshold (0: only on eviction and at kernel end), and on_close (or
 * NULL) hears of every closed generation. */
void locality_watch(locality *loc, uint32_t threshold, locality_close_fn on_close, void *ctx);

/* Starts a kernel with pc_count PCs; per-PC results reset. */
int locality_begin_kernel(locality *loc, uint32_t pc_count, ws_error *err);

/* A line was filled into sm's L1 by (warp, pc).  monitored marks the warp S2
 * would watch; the caller decides which one that is. */
int locality_fill(locality *loc, uint32_t sm, uint64_t line, uint32_t warp, uint32_t pc,
                  int monitored, ws_error *err);
/* An L1 hit on a line of sm by warp. Ignored if no generation is open. */
void locality_hit(locality *loc, uint32_t sm, uint64_t line, uint32_t warp);
/* The line left sm's L1 (eviction or invalidation): its generation closes. */
void locality_evict(locality *loc, uint32_t sm, uint64_t line);
/* Closes every open generation; results of the kernel stay readable. */
void locality_end_kernel(locality *loc);

const locality_pc *locality_pcs(const locality *loc, uint32_t *pc_count);

locality_class locality_classify(uint32_t total, uint32_t intra);
const char *locality_class_name(locality_class c); /* "streaming", "intra", ... */

/* The class holding most generations (ties: the lower enum value). */
locality_class locality_dominant(const uint64_t counts[LOCALITY_CLASSES]);

/* PCs' figures summed: of one kernel, or of every kernel as each ends (the
 * whole trace's, without keeping the kernels: docs/analysis.md, Memory). */
typedef struct locality_totals {
    uint64_t generations[LOCALITY_CLASSES];
    uint64_t intra_warp_hits, inter_warp_hits;
    uint64_t compared, agreed; /* PCs with monitored generations; those that agree */
} locality_totals;

void locality_totals_add(locality_totals *t, const locality_pc *pcs, uint32_t pc_count);
/* Share of PCs with monitored generations whose dominant monitored class
 * equals the dominant class over all warps; -1 when no PC has any. */
double locality_totals_agreement(const locality_totals *t);

#endif
