/* analyzer/systems.c: see systems.h. */
#include "analyzer/systems.h"

#include <stdio.h>
#include <string.h>

#include "analyzer/stages/sharing_aware.h"

const managed_system managed_systems[] = {
    {"sharing-aware", "S0's management: sa-l1 and sa-l2 replacement, shared fills and local "
                      "misses past L2", "sa-l1", "sa-l2", 1, 1, RING_NONE, 0},
    {"sa-fill", "S0's shared fills alone: a shared L2 hit fills L1 only over an invalid or "
                "shared victim", NULL, NULL, 1, 0, RING_NONE, 0},
    {"sa-local", "S0's local misses alone: to DRAM past L2", NULL, NULL, 0, 1, RING_NONE, 0},
    {"ccn", "S3's Cooperative Caching Network: L1 misses probe the other L1s over a ring "
            "first; a per-SM throttler turns the ring off for epochs of little reuse (CCN-RT)",
     NULL, NULL, 0, 0, RING_THROTTLED, 0},
    {"ccn-b", "the CCN ring without its throttler (S3's CCN-B)", NULL, NULL, 0, 0, RING_ALWAYS, 0},
    {"lcm", "S2's locality-based cache management: streaming PCs bypass L1, inter-warp PCs' "
            "requests are coalesced across warps", NULL, NULL, 0, 0, RING_NONE,
     LCM_BYPASS | LCM_COALESCE},
    {"lcm-bypass", "S2's locality-based bypass alone: PCs whose last observed L1 generation "
                   "saw one access bypass L1", NULL, NULL, 0, 0, RING_NONE, LCM_BYPASS},
    {"lcm-coalesce", "S2's inter-warp coalescing alone: 32 queues of 2 tags merge inter-warp "
                     "PCs' requests to a line", NULL, NULL, 0, 0, RING_NONE, LCM_COALESCE},
    {NULL, NULL, NULL, NULL, 0, 0, RING_NONE, 0},
};

const char *system_names(void)
{
    static char names[192];
    if (!names[0])
        for (const managed_system *s = managed_systems; s->name; s++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     s == managed_systems ? "" : ", ", s->name);
    return names;
}

static int add_stage(hierarchy_options *o, const hierarchy_stage *stage, ws_error *err)
{
    if (o->stage_count == HIERARCHY_MAX_STAGES)
        return ws_fail(err, "too many hierarchy stages");
    o->stages[o->stage_count++] = *stage;
    return 0;
}

static int set_level(cache_config *c, policy_spec *spec, const char *name, ws_error *err)
{
    snprintf(c->policy, sizeof c->policy, "%s", name);
    return policy_spec_parse(name, spec, err);
}

static const managed_system *find(const char *name, size_t len)
{
    for (const managed_system *s = managed_systems; s->name; s++)
        if (strlen(s->name) == len && strncmp(s->name, name, len) == 0)
            return s;
    return NULL;
}

static int apply(const managed_system *s, hierarchy_options *o, ws_error *err)
{
    if (s->ring != RING_NONE) {
        if (o->ccn.epoch_steps == 0) /* options never set: S3's defaults */
            o->ccn = ccn_options_default();
        o->ccn.enabled = 1;
        o->ccn.throttle = s->ring == RING_THROTTLED;
        return 0;
    }
    if (s->lcm) {
        if (o->lcm.threshold == 0) /* options never set: S2's defaults */
            o->lcm = lcm_options_default();
        o->lcm.bypass |= (s->lcm & LCM_BYPASS) != 0;
        o->lcm.coalesce |= (s->lcm & LCM_COALESCE) != 0;
        return 0;
    }
    o->track_sharing = 1; /* S0's parts read the L2 lines' owners */
    if ((s->l1 && set_level(&o->config.l1, &o->l1_spec, s->l1, err) != 0) ||
        (s->l2 && set_level(&o->config.l2, &o->l2_spec, s->l2, err) != 0) ||
        (s->shared_fills && add_stage(o, &sharing_shared_fills, err) != 0) ||
        (s->local_misses && add_stage(o, &sharing_local_misses, err) != 0))
        return -1;
    return 0;
}

int system_apply(const char *name, hierarchy_options *o, ws_error *err)
{
    const managed_system *s = find(name, strlen(name));
    if (!s)
        return 0;
    return apply(s, o, err) == 0 ? 1 : -1;
}

int system_apply_list(const char *list, hierarchy_options *o, ws_error *err)
{
    for (const char *p = list;; p++) {
        size_t len = strcspn(p, "+");
        const managed_system *s = find(p, len);
        if (!s)
            return ws_fail(err, "unknown system '%.*s' (%s)", (int)len, p, system_names());
        if (apply(s, o, err) != 0)
            return -1;
        p += len;
        if (!*p)
            return 0;
    }
}

long system_apply_suffixes(const char *entry, size_t len, hierarchy_options *o, ws_error *err)
{
    for (;;) {
        const char *plus = NULL;
        for (size_t i = len; i-- > 0;)
            if (entry[i] == '+') {
                plus = entry + i;
                break;
            }
        const managed_system *s =
            plus ? find(plus + 1, len - (size_t)(plus + 1 - entry)) : NULL;
        if (!s)
            return (long)len;
        if (apply(s, o, err) != 0)
            return -1;
        len = (size_t)(plus - entry);
    }
}
