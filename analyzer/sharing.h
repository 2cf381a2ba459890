/* analyzer/sharing.h: inter-SM and inter-CTA sharing of blocks (docs/metrics.md §5).
 *
 * Fed one (block, SM, CTA) touch at a time during a kernel; at kernel end the
 * per-block sets are folded into histograms and the SM×SM matrix, and the
 * per-block state is dropped, so memory is O(distinct blocks of one kernel).
 * Results accumulate over kernels (the "overall" view is the sum). */
#ifndef WS_SHARING_H
#define WS_SHARING_H

#include <stdint.h>
#include "util/error.h"

#define SHARING_MAX_SMS 256
/* CTA distances 1..SHARING_EXACT_DISTANCES-1 are counted exactly; larger ones
 * in log2 buckets [2^b, 2^(b+1)). */
#define SHARING_EXACT_DISTANCES 16
#define SHARING_LOG2_BUCKETS 33
/* "Neighbour" CTAs are closer than this (S0 §III: ~70% of pairs). */
#define SHARING_NEIGHBOUR_DISTANCE 5

typedef struct sharing_results {
    uint32_t sm_count;
    uint64_t blocks;               /* distinct blocks of each kernel launch, summed over launches
                                      (sharing is measured within a launch) */
    uint64_t distinct_blocks;      /* distinct blocks of the whole trace */
    uint64_t shared_blocks;        /* touched by >= 2 SMs */
    uint64_t *sharers_hist;        /* [sm_count + 1]: blocks by number of distinct SMs */
    uint64_t *sm_matrix;           /* [sm_count * sm_count]: blocks touched by both x and y;
                                      the diagonal holds blocks touched by x */
    uint64_t multi_cta_blocks;     /* blocks touched by >= 2 CTAs */
    uint64_t cta_pairs;            /* CTA pairs over those blocks */
    uint64_t cta_distance_exact[SHARING_EXACT_DISTANCES]; /* [d] pairs at distance d; [0] unused */
    uint64_t cta_distance_log2[SHARING_LOG2_BUCKETS];     /* pairs by floor(log2 d), d >= 16 */
} sharing_results;

typedef struct sharing sharing;

/* block_bytes: granularity (128 = line; 32 = sector; 4 = word), a power of two. */
sharing *sharing_new(uint32_t sm_count, uint32_t block_bytes, ws_error *err);
void sharing_free(sharing *s);

/* One touch of the byte address addr by a thread of `cta` running on `sm`.
 * Only global-space touches belong here: local space is private by
 * definition (docs/metrics.md §5), and its per-thread addresses are not shared memory. */
/* Starts fetching addr's block entry (an instruction's requests, ahead of
 * their sharing_touch calls). */
void sharing_prefetch(const sharing *s, uint64_t addr);
int sharing_touch(sharing *s, uint64_t addr, uint32_t sm, uint32_t cta, ws_error *err);

/* Folds the current kernel into the results and clears the per-block state. */
void sharing_end_kernel(sharing *s);

const sharing_results *sharing_get(const sharing *s);

/* Derived figures (docs/metrics.md §5). 0 when undefined (no blocks). */
double sharing_shared_fraction(const sharing_results *r);
double sharing_mean_sms_per_block(const sharing_results *r);
double sharing_mean_sms_per_shared_block(const sharing_results *r);
double sharing_multi_cta_fraction(const sharing_results *r);
double sharing_neighbour_pair_share(const sharing_results *r);
uint64_t sharing_neighbour_pairs(const sharing_results *r); /* pairs at distance < 5 */

#endif
