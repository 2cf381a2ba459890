/* analyzer/reuse.h: exact LRU stack (reuse) distance and reuse time (docs/metrics.md §3).
 *
 * A reuse_state sees one stream of keys (line or sector ids) and returns, per
 * access, the number of distinct keys touched since the previous access to
 * the same key (REUSE_COLD on a first touch) and the number of accesses in
 * between (reuse time).  Scopes (docs/metrics.md §3) are separate states chosen by the
 * caller: global = one state; per SM = an array indexed by SM id; per warp =
 * one state per live warp, created on its first access and freed when its
 * CTA retires (a retired warp never issues again, so nothing is lost).  An
 * empty state is one ~100-byte struct, so thousands of them are cheap.
 *
 * Memory is O(distinct keys), never O(stream length): the state keeps, per
 * key, the position of its last access on a timeline of live positions, and
 * renumbers that timeline when it fills.  An empty state costs one small
 * struct; tables are allocated on the first access.
 *
 * Distances are attributed to histograms by the caller (reuse_hist), so one
 * access can feed the overall, per-kernel and per-PC histograms cheaply. */
#ifndef WS_REUSE_H
#define WS_REUSE_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* Sentinel results of reuse_access(); every real distance is below them. */
#define REUSE_COLD UINT64_MAX            /* first touch: infinite distance */
#define REUSE_SKIPPED (UINT64_MAX - 1)   /* key not in the SHARDS sample */
#define REUSE_FAILED (UINT64_MAX - 2)    /* out of memory (state unchanged) */

typedef struct reuse_options {
    /* SHARDS (Waldspurger FAST'15) fixed-rate spatial sampling: only keys
     * whose hash falls below rate × 2^24 are tracked, and their distances and
     * reuse times are scaled by 1 / rate.  0 or 1 = exact (docs/metrics.md §3 default). */
    double sample_rate;
    /* Which lines the sample holds: another seed, another sample of the
     * same rate (benchmarks average over seeds; analyze uses 0). */
    uint64_t sample_seed;
    /* Timeline positions allocated on first use (rounded up to 512); 0 = 512.
     * Only tests need this, to force renumbering early. */
    uint32_t initial_positions;
    /* Accesses between the sweeps that keep reuse times exact (reuse.c);
     * 0 = 2^30, the most.  Only tests need this, to make sweeps frequent. */
    uint64_t time_window;
} reuse_options;

typedef struct reuse_state reuse_state;

/* options NULL = exact.  NULL with a message if the options are invalid or
 * memory runs out. */
reuse_state *reuse_state_new(const reuse_options *options, ws_error *err);
void reuse_state_free(reuse_state *state);
/* Forgets every key but keeps the tables, so a state can serve the next
 * stream (the next warp in a slot) without allocating again. */
void reuse_state_reset(reuse_state *state);

/* One access.  Returns the stack distance, REUSE_COLD, REUSE_SKIPPED (not
 * sampled) or REUSE_FAILED.  *reuse_time_out (if not NULL) receives the
 * accesses in between, REUSE_COLD on a first touch and REUSE_SKIPPED when
 * not sampled; it is untouched on REUSE_FAILED. */
uint64_t reuse_access(reuse_state *state, uint64_t key, uint64_t *reuse_time_out);

/* reuse_access() over keys[0..count), in order, prefetching ahead: the fast
 * path for an instruction's requests or any buffered stream.  reuse_times may
 * be NULL. */
void reuse_access_batch(reuse_state *state, const uint64_t *keys, size_t count,
                        uint64_t *distances, uint64_t *reuse_times);

/* Access i goes to states[i] (any mix of states, each seeing its own
 * accesses in order): the batch path for many streams interleaved, such as
 * the per-SM or per-warp scopes. */
void reuse_access_each(reuse_state *const *states, const uint64_t *keys, size_t count,
                       uint64_t *distances, uint64_t *reuse_times);

/* Distinct keys tracked (sampled keys only when sampling). */
uint64_t reuse_state_keys(const reuse_state *state);
/* Accesses seen, including skipped ones. */
uint64_t reuse_state_accesses(const reuse_state *state);
/* Bytes the state holds now (struct plus tables). */
size_t reuse_state_bytes(const reuse_state *state);
/* How often the timeline was renumbered (for tests and benchmarks). */
uint64_t reuse_state_renumberings(const reuse_state *state);
/* 1 when exact; the SHARDS rate otherwise.  Histogram counts of a sampled
 * state stand for count / rate accesses; miss ratios need no scaling. */
double reuse_state_sample_rate(const reuse_state *state);

/* ---- histograms (docs/metrics.md §3) ---------------------------------------------
 * log2 buckets over all finite distances: bucket 0 holds distance 0 and
 * bucket k ≥ 1 holds [2^(k-1), 2^k - 1]; plus exact counts for distances
 * 0..exact_limit-1 (docs/metrics.md §3: exact_limit = 2 × L1 lines) and the cold count.
 * The same type holds reuse times. */
#define REUSE_HIST_BUCKETS 65

typedef struct reuse_hist {
    uint64_t exact_limit;
    uint64_t *exact;                    /* exact_limit counts */
    uint64_t log2[REUSE_HIST_BUCKETS];
    uint64_t cold;
    uint64_t total;                     /* every access added, cold included */
    uint64_t skipped;                   /* accesses outside the SHARDS sample */
} reuse_hist;

int reuse_hist_init(reuse_hist *hist, uint64_t exact_limit, ws_error *err);
void reuse_hist_clear(reuse_hist *hist); /* frees the exact counts */

/* Smallest and largest (inclusive) distance of log2 bucket k; reports state
 * them beside every histogram (docs/report-schema.md). */
static inline uint64_t reuse_bucket_low(unsigned k) { return k ? UINT64_C(1) << (k - 1) : 0; }
static inline uint64_t reuse_bucket_high(unsigned k)
{
    return k == 0 ? 0 : k >= 64 ? UINT64_MAX : (UINT64_C(1) << k) - 1;
}

static inline unsigned reuse_hist_bucket(uint64_t distance)
{
    return distance ? 64u - (unsigned)__builtin_clzll(distance) : 0u;
}

/* Adds one access; REUSE_SKIPPED is only counted (skipped), REUSE_FAILED
 * ignored. */
static inline void reuse_hist_add(reuse_hist *hist, uint64_t distance)
{
    if (distance >= REUSE_FAILED) {
        if (distance == REUSE_COLD) {
            hist->cold++;
            hist->total++;
        } else if (distance == REUSE_SKIPPED) {
            hist->skipped++;
        }
        return;
    }
    hist->total++;
    hist->log2[reuse_hist_bucket(distance)]++;
    if (distance < hist->exact_limit)
        hist->exact[distance]++;
}

/* dst += src.  src must keep exact counts at least as far as dst. */
int reuse_hist_merge(reuse_hist *dst, const reuse_hist *src, ws_error *err);

/* Misses of a fully-associative LRU cache of `capacity` keys, which hits
 * exactly the accesses at distance < capacity (docs/metrics.md §3).  Exact when
 * capacity ≤ exact_limit or capacity is a power of two (a bucket boundary).
 * Otherwise the bucket holding capacity - 1 is split by linear interpolation
 * over the part of it above exact_limit. */
double reuse_hist_misses_at(const reuse_hist *hist, uint64_t capacity);
int reuse_hist_exact_at(const reuse_hist *hist, uint64_t capacity);

/* ---- sampled histograms (docs/metrics.md §3, "Exact and sampled modes") ----
 * A histogram fed by a state sampling at `rate` < 1 counts the sampled
 * accesses (total) and the others (skipped); its distances are scaled by
 * 1 / rate, so they come in steps of about 1 / rate. */

/* Whether the miss ratio at `capacity` can be read off a histogram sampled
 * at `rate`: always when exact; otherwise only from 1 / rate keys up, since
 * every reuse the sample sees within fewer keys scales to distance 0 or to
 * 1 / rate and more, whatever the capacity below. */
int reuse_hist_resolves(double rate, uint64_t capacity);

/* The number of accesses a miss ratio divides by: total when exact; under
 * SHARDS_adj (Waldspurger et al., FAST'15 §4.2) the expected sample size
 * rate × (total + skipped), the difference, mostly a few hot keys that fell
 * in or out of the sample, counted at distance 0 (never below total less
 * the distance-0 count).  Misses at any capacity ≥ 1 are unchanged. */
double reuse_hist_adjusted_total(const reuse_hist *hist, double rate);

/* Misses ÷ adjusted total at capacity: NAN when the histogram is empty or
 * the capacity is not resolved at this rate (rate 1 = exact). */
double reuse_hist_miss_ratio(const reuse_hist *hist, uint64_t capacity, double rate);

#endif
