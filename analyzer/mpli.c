/* analyzer/mpli.c: see mpli.h (docs/metrics.md §8). */
#include "analyzer/mpli.h"

#include "util/counts.h"

const char *mpli_bucket_name(int bucket)
{
    static const char *const names[MPLI_BUCKETS] = {"0", "1", "2", "3-31", "32"};
    return bucket >= 0 && bucket < MPLI_BUCKETS ? names[bucket] : "?";
}

void mpli_merge(mpli_counts *into, const mpli_counts *from)
{
    counts_add(into, from, sizeof *into);
}

double mpli_mean(const mpli_counts *c)
{
    return c->loads ? (double)c->misses / (double)c->loads : 0.0;
}
