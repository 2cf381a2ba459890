/* analyzer/stages/ccn.h: the Cooperative Caching Network (S3 ch. 4, docs/metrics.md §9).
 *
 * The SMs' L1s sit on a ring, in SM order (SM i next to i + 1, the last
 * next to SM 0).  A global-load miss that fills its L1 is first sent round
 * the ring: the request hops forward, SM i + 1, i + 2, ..., and at each SM
 * looks the line up in that L1's shadow tags (cache_peek: no promotion by
 * default; `promote` lets the hit update the remote line as a local hit
 * would).  The first SM holding the line valid, and not pending, at ring
 * distance d answers: a remote hit, 2d hops (the response channel runs the
 * other way, S3 §4.5.1), the line fills the local L1 and no request goes to
 * L2.  A request that finds no copy has gone n hops round the ring and goes
 * on to L2.  `cg`/`cv` loads, bypasses and local data never enter the ring
 * (S3 §4.4.2: CCN does not intercept ld.cg).
 *
 * The request throttler (CCN-RT, S3 §4.4.4) works per SM in epochs of
 * `epoch_steps` steps of the SM's issue clock: the first `sample_steps` of an
 * epoch always use the ring and measure its hit rate h = hits ÷ requests;
 * at the first miss after the sample, the SM decides for the rest of the
 * epoch: ring off if h < min_hit_rate (a sample with no requests keeps it
 * on).  The SM's shadow tags still answer others' requests. */
#ifndef WS_STAGES_CCN_H
#define WS_STAGES_CCN_H

#include <stdint.h>

#include "analyzer/cache.h"
#include "util/error.h"

typedef struct ccn_options {
    int enabled;
    int throttle;          /* the request throttler (CCN-RT); 0: the ring always (CCN-B) */
    int promote;           /* a remote hit promotes the line it finds */
    uint64_t sample_steps; /* t_S, per-SM issue steps */
    uint64_t epoch_steps;  /* t_P, per-SM issue steps */
    double min_hit_rate;   /* H_min */
    uint32_t hop_cycles;   /* reserved-line mode: cycles per ring hop */
} ccn_options;

/* Off, with S3's parameters scaled to the per-SM issue clock (docs/replay.md):
 * t_S = 1,000 and t_P = 10,000 steps, H_min = 0.05, 4 cycles a hop. */
ccn_options ccn_options_default(void);
int ccn_options_validate(const ccn_options *o, ws_error *err);

typedef struct ccn_counts {
    uint64_t misses;      /* L1 load misses on their way down: the L1->L2 read
                             requests there would be without the ring */
    uint64_t candidates;  /* of them, global loads that fill L1: what the ring may serve */
    uint64_t requests;    /* candidates sent round the ring */
    uint64_t remote_hits; /* requests a remote L1 served */
    uint64_t throttled;   /* candidates sent straight to L2: the SM's ring was off */
    uint64_t hit_hops;    /* hops of the remote hits (2d each) */
    uint64_t probe_hops;  /* hops of the requests that found no copy (n each) */
    uint64_t epochs, ring_off_epochs; /* throttler decisions, and how many turned the ring off */
} ccn_counts;

/* One SM's throttler decisions in order, per epoch while they fit and then
 * in buckets of 2, 4, 8 ... epochs: bounded memory however long the run.
 * Bucket b holds decisions [b × width, (b + 1) × width) of the SM's run. */
#define CCN_TIMELINE 64
typedef struct ccn_timeline {
    uint32_t width, buckets; /* epochs per bucket; buckets in use */
    uint32_t decided[CCN_TIMELINE], ring_off[CCN_TIMELINE];
    uint64_t count;          /* decisions so far */
} ccn_timeline;

/* Adds the SM's next decision (exposed for tests). */
void ccn_timeline_add(ccn_timeline *t, int ring_off);

typedef struct ccn_results {
    uint32_t sms, kernel_count;
    ccn_options options;
    ccn_counts total;
    ccn_counts *kernels; /* [kernel_count] */
    ccn_counts *per_sm;  /* [sms], the whole run */
    ccn_timeline *timelines; /* [sms]: the throttler's decisions in order */
    /* [(kernel_count + 1) × sms]: remote hits at ring distance d (2d hops)
     * in row k's kernel; the last row is the whole run's. */
    uint64_t *distance_hits;
} ccn_results;

typedef struct ccn ccn;
struct hierarchy_stage;

/* A ring over the hierarchy's L1s (l1[sms], not owned). */
ccn *ccn_new(const ccn_options *o, uint32_t sms, cache *const *l1, uint32_t kernel_count,
             ws_error *err);
void ccn_free(ccn *r);
/* The ring as a hierarchy stage (a miss route), to put first. */
void ccn_stage(ccn *r, struct hierarchy_stage *out);
const ccn_results *ccn_results_of(const ccn *r);

#endif
