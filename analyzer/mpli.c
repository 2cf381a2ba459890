/* analyzer/mpli.c: see mpli.h (docs/metrics.md §8). */
#include "analyzer/mpli.h"

#include "util/counts.h"

int mpli_bucket(uint32_t misses)
{
    if (misses <= 2)
        return (int)misses;
    return misses < 32 ? 3 : 4;
}

const char *mpli_bucket_name(int bucket)
{
    static const char *const names[MPLI_BUCKETS] = {"0", "1", "2", "3-31", "32"};
    return bucket >= 0 && bucket < MPLI_BUCKETS ? names[bucket] : "?";
}

int mpli_is_coherent(uint32_t requests) { return requests <= 2; }

/* A warp-load with no request (mask 0) is no memory load. */
static int is_memory_load(uint32_t requests) { return requests != 0; }

void mpli_count_load(mpli_counts *c, uint32_t requests) { c->loads += is_memory_load(requests); }

void mpli_add_load(mpli_counts *c, uint32_t requests, uint32_t misses)
{
    if (!is_memory_load(requests))
        return;
    if (requests > MPLI_MAX_REQUESTS)
        requests = MPLI_MAX_REQUESTS;
    if (misses > requests)
        misses = requests;
    c->loads++;
    c->requests += requests;
    c->misses += misses;
    int bucket = mpli_bucket(misses);
    if (mpli_is_coherent(requests)) {
        c->coherent_loads++;
        c->coherent[bucket]++;
    } else {
        c->divergent_loads++;
        c->divergent[bucket]++;
    }
    if (misses == 0)
        c->fully_cached++;
    else if (misses == requests)
        c->fully_missed++;
    else
        c->partially_cached++;
}

void mpli_merge(mpli_counts *into, const mpli_counts *from)
{
    counts_add(into, from, sizeof *into);
}

double mpli_mean(const mpli_counts *c)
{
    return c->loads ? (double)c->misses / (double)c->loads : 0.0;
}
