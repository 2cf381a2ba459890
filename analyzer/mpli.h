/* analyzer/mpli.h: misses per load instruction and load outcomes (docs/metrics.md §8,
 * S4 §3).
 *
 * One call per dynamic warp-level load, after all its requests have been
 * serviced: Req requests, of which `misses` missed L1 (bypassed requests
 * count as misses).  Coherent loads have Req <= 2 (docs/metrics.md §2). */
#ifndef WS_MPLI_H
#define WS_MPLI_H

#include <stdint.h>

enum { MPLI_BUCKETS = 5 };          /* 0, 1, 2, 3-31, >=32 */
enum { MPLI_MAX_REQUESTS = 64 };    /* 32 lanes, each may straddle two lines */

typedef struct mpli_counts {
    uint64_t loads;
    uint64_t coherent_loads, divergent_loads;
    uint64_t coherent[MPLI_BUCKETS];
    uint64_t divergent[MPLI_BUCKETS];
    uint64_t fully_cached, partially_cached, fully_missed;
    uint64_t requests, misses;
    /* No histogram of loads by Req here: the report's is the metrics'
     * (metrics_totals.req_hist), and one in every PC's counts was 520
     * bytes a PC that nothing read (issue 42). */
} mpli_counts;

const char *mpli_bucket_name(int bucket); /* "0", "1", "2", "3-31", "32" */

/* The rules, inline: the replay counts every warp-load twice (its
 * kernel's and its PC's), and the calls were a sixth of the count's cost
 * (bench/RESULTS.md, "Branch hier42"). */
static inline int mpli_bucket(uint32_t misses)
{
    if (misses <= 2)
        return (int)misses;
    return misses < 32 ? 3 : 4;
}

static inline int mpli_is_coherent(uint32_t requests) { return requests <= 2; }

/* A warp-load with no request (mask 0) is no memory load. */
static inline int mpli_is_memory_load(uint32_t requests) { return requests != 0; }

/* Loads with Req = 0 (mask 0) are not memory loads and are ignored. */
static inline void mpli_add_load(mpli_counts *c, uint32_t requests, uint32_t misses)
{
    if (!mpli_is_memory_load(requests))
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

/* The load alone (c->loads), by mpli_add_load's rule, for counts that
 * report nothing else of MPLI (COLLECT_GRID, analyzer/hierarchy.h). */
static inline void mpli_count_load(mpli_counts *c, uint32_t requests)
{
    c->loads += mpli_is_memory_load(requests);
}
void mpli_merge(mpli_counts *into, const mpli_counts *from);
double mpli_mean(const mpli_counts *c); /* misses per load */

#endif
