/* analyzer/policies/opt.c: Belady's OPT (docs/metrics.md §7).
 *
 * A line's word is the position of its next use, from the backward pass
 * over the same schedule (analyzer/nextuse.c): its next access in this
 * cache before a store invalidates it or the kernel ends and flushes the
 * L1s (docs/metrics.md §7).  The victim is the line used farthest in the future.  The
 * incoming line is a candidate too: when it has no next use, or its next
 * use is farther than every resident line's, it is not allocated (Belady's
 * MIN with bypass), even into an empty way.  That makes `opt` an upper bound on hits for
 * every policy on the same schedule, bypassing ones included. */
#include <stdint.h>
#include <stdlib.h>

#include "analyzer/nextuse.h"
#include "analyzer/policy.h"

static int64_t position(uint64_t next_use)
{
    return next_use > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)next_use;
}

static void *opt_create(const policy_geometry *g, ws_error *err)
{
    (void)g;
    void *s = malloc(1);
    if (!s)
        ws_fail(err, "out of memory");
    return s;
}

static void opt_update(void *state, const cache_set *set, uint32_t way, const cache_req *r)
{
    (void)state;
    set->meta[way] = position(r->next_use);
}

static uint32_t opt_victim(void *state, const cache_set *set, uint64_t candidates,
                           const cache_req *r)
{
    (void)state;
    uint32_t farthest = policy_max_meta(set, candidates);
    return position(r->next_use) >= set->meta[farthest] ? POLICY_BYPASS : farthest;
}

static int opt_dead(void *state, const cache_set *set, const cache_req *r)
{
    (void)state, (void)set;
    return r->next_use == NEXTUSE_NEVER;
}

const policy_ops policy_opt = {
    .name = "opt",
    .description = "Belady's OPT, the bound on L1 hits (not on traffic): evict the line used farthest ahead",
    .needs_next_use = 1,
    .create = opt_create,
    .destroy = free,
    .hit = opt_update,
    .fill = opt_update,
    .victim = opt_victim,
    .bypass = opt_dead,
};
