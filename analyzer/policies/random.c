/* analyzer/policies/random.c: a uniformly random victim among the
 * replaceable ways, from a seeded generator so runs repeat (docs/metrics.md §7). */
#include "analyzer/policies/stamp.h"

static uint32_t random_victim(void *state, const cache_set *set, uint64_t candidates,
                              const cache_req *r)
{
    (void)set;
    (void)r;
    stamp_state *s = state;
    uint32_t pick = (uint32_t)(policy_rand(&s->rng) % (uint64_t)__builtin_popcountll(candidates));
    while (pick--)
        candidates &= candidates - 1;
    return (uint32_t)__builtin_ctzll(candidates);
}

const policy_ops policy_random = {
    .name = "random",
    .description = "random victim (seeded, reproducible)",
    .create = stamp_create,
    .destroy = stamp_destroy,
    .hit = stamp_keep,
    .fill = stamp_keep,
    .victim = random_victim,
};
