/* analyzer/systems.c: see systems.h. */
#include "analyzer/systems.h"

#include <stdio.h>
#include <string.h>

#include "analyzer/stages/sharing_aware.h"

const managed_system managed_systems[] = {
    {"sharing-aware", "S0's management: sa-l1 and sa-l2 replacement, shared fills and local "
                      "misses past L2", "sa-l1", "sa-l2", 1, 1},
    {"sa-fill", "S0's shared fills alone: a shared L2 hit fills L1 only over an invalid or "
                "shared victim", NULL, NULL, 1, 0},
    {"sa-local", "S0's local misses alone: to DRAM past L2", NULL, NULL, 0, 1},
    {NULL, NULL, NULL, NULL, 0, 0},
};

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

int system_apply(const char *name, hierarchy_options *o, ws_error *err)
{
    const managed_system *s = managed_systems;
    while (s->name && strcmp(s->name, name) != 0)
        s++;
    if (!s->name)
        return 0;
    o->track_sharing = 1;
    if ((s->l1 && set_level(&o->config.l1, &o->l1_spec, s->l1, err) != 0) ||
        (s->l2 && set_level(&o->config.l2, &o->l2_spec, s->l2, err) != 0) ||
        (s->shared_fills && add_stage(o, &sharing_shared_fills, err) != 0) ||
        (s->local_misses && add_stage(o, &sharing_local_misses, err) != 0))
        return -1;
    return 1;
}
