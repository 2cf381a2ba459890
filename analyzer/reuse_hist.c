/* analyzer/reuse_hist.c: reuse-distance histograms and miss-ratio curves
 * (docs/metrics.md §3).  Declared in analyzer/reuse.h. */
#include "analyzer/reuse.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Exact counts beyond this would cost more than the whole reuse state. */
#define REUSE_HIST_EXACT_MAX (UINT64_C(1) << 26)

int reuse_hist_init(reuse_hist *hist, uint64_t exact_limit, ws_error *err)
{
    memset(hist, 0, sizeof *hist);
    if (exact_limit > REUSE_HIST_EXACT_MAX)
        return ws_fail(err, "exact histogram range %llu: at most %llu distances",
                       (unsigned long long)exact_limit, (unsigned long long)REUSE_HIST_EXACT_MAX);
    if (exact_limit) {
        hist->exact = calloc(exact_limit, sizeof *hist->exact);
        if (!hist->exact)
            return ws_fail(err, "out of memory");
    }
    hist->exact_limit = exact_limit;
    return 0;
}

void reuse_hist_clear(reuse_hist *hist)
{
    free(hist->exact);
    memset(hist, 0, sizeof *hist);
}

int reuse_hist_merge(reuse_hist *dst, const reuse_hist *src, ws_error *err)
{
    if (src->exact_limit < dst->exact_limit)
        return ws_fail(err, "cannot merge a histogram exact to %llu into one exact to %llu",
                       (unsigned long long)src->exact_limit,
                       (unsigned long long)dst->exact_limit);
    for (uint64_t d = 0; d < dst->exact_limit; d++)
        dst->exact[d] += src->exact[d];
    for (unsigned k = 0; k < REUSE_HIST_BUCKETS; k++)
        dst->log2[k] += src->log2[k];
    dst->cold += src->cold;
    dst->total += src->total;
    dst->skipped += src->skipped;
    return 0;
}

int reuse_hist_exact_at(const reuse_hist *hist, uint64_t capacity)
{
    return capacity <= hist->exact_limit || !(capacity & (capacity - 1));
}

/* Accesses at distance < capacity. */
static double reuse_hist_hits_below(const reuse_hist *hist, uint64_t capacity)
{
    if (capacity == 0)
        return 0;
    uint64_t exact_hits = 0;
    if (capacity <= hist->exact_limit) {
        for (uint64_t d = 0; d < capacity; d++)
            exact_hits += hist->exact[d];
        return (double)exact_hits;
    }
    /* Whole buckets below capacity, then part of the bucket holding
     * capacity - 1. */
    unsigned k = reuse_hist_bucket(capacity - 1);
    for (unsigned b = 0; b < k; b++)
        exact_hits += hist->log2[b];
    uint64_t low = reuse_bucket_low(k), high = reuse_bucket_high(k);
    if (capacity - 1 == high)
        return (double)(exact_hits + hist->log2[k]);
    /* The bucket's distances below exact_limit are known one by one; the rest
     * are assumed spread evenly over [max(low, exact_limit), high]. */
    uint64_t known = 0, start = low;
    for (uint64_t d = low; d < hist->exact_limit; d++)
        known += hist->exact[d];
    if (hist->exact_limit > low)
        start = hist->exact_limit;
    double spread = (double)(hist->log2[k] - known);
    double share = (double)(capacity - start) / ((double)(high - start) + 1.0);
    return (double)(exact_hits + known) + spread * share;
}

double reuse_hist_misses_at(const reuse_hist *hist, uint64_t capacity)
{
    return (double)hist->total - reuse_hist_hits_below(hist, capacity);
}

int reuse_hist_resolves(double rate, uint64_t capacity)
{
    return rate >= 1.0 || (double)capacity * rate >= 1.0;
}

double reuse_hist_adjusted_total(const reuse_hist *hist, double rate)
{
    if (rate >= 1.0)
        return (double)hist->total;
    double expected = rate * ((double)hist->total + (double)hist->skipped);
    double floor_total = (double)(hist->total - hist->log2[0]);
    return expected > floor_total ? expected : floor_total;
}

double reuse_hist_miss_ratio(const reuse_hist *hist, uint64_t capacity, double rate)
{
    double total = reuse_hist_adjusted_total(hist, rate);
    if (!reuse_hist_resolves(rate, capacity) || !(total > 0))
        return NAN;
    /* A resolved sampled capacity is ≥ 1, where distance 0 is a hit: the
     * adjustment changes the total, not the misses. */
    return reuse_hist_misses_at(hist, capacity) / total;
}
