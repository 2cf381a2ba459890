/* util/env_limit.c: see env_limit.h. */
#include "util/env_limit.h"

#include <stdlib.h>

uint64_t ws_env_limit_bytes(const char *variable, uint64_t default_mib)
{
    const char *env = getenv(variable);
    char *end;
    unsigned long long mib = env && *env ? strtoull(env, &end, 10) : 0;
    if (!env || !*env || *end || mib == 0 || mib > (1ull << 30))
        mib = default_mib;
    return (uint64_t)mib << 20;
}
