/* analyzer/policy.c: the registry lookup and helpers several policies share. */
#include "analyzer/policy.h"

#include <string.h>

const policy_ops *policy_find(const char *name)
{
    for (int i = 0; policy_all[i]; i++)
        if (strcmp(policy_all[i]->name, name) == 0)
            return policy_all[i];
    return NULL;
}

/* Lowest way wins ties, so every policy is deterministic. */
uint32_t policy_min_meta(const cache_set *set, uint64_t candidates)
{
    if ((candidates & (candidates + 1)) == 0) { /* every way: the common case, a plain scan */
        uint32_t n = candidates == ~0ull ? 64 : (uint32_t)__builtin_ctzll(~candidates), best = 0;
        for (uint32_t w = 1; w < n; w++)
            if (set->meta[w] < set->meta[best])
                best = w;
        return best;
    }
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t m = candidates & (candidates - 1); m; m &= m - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(m);
        if (set->meta[w] < set->meta[best])
            best = w;
    }
    return best;
}

uint32_t policy_max_meta(const cache_set *set, uint64_t candidates)
{
    uint32_t best = (uint32_t)__builtin_ctzll(candidates);
    for (uint64_t m = candidates & (candidates - 1); m; m &= m - 1) {
        uint32_t w = (uint32_t)__builtin_ctzll(m);
        if (set->meta[w] > set->meta[best])
            best = w;
    }
    return best;
}
