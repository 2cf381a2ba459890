/* analyzer/policies/registry.c: every replacement policy and admission
 * module, by name.  A new one is one file in this folder plus one line
 * here. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/policy.h"

extern const policy_ops policy_lru, policy_fifo, policy_random, policy_lip, policy_bip,
    policy_dip, policy_srrip, policy_brrip, policy_drrip, policy_opt, policy_dacache,
    policy_dacache_stall, policy_dacache_uncon, policy_dacache_static0, policy_dacache_static1,
    policy_dacache_static2, policy_dacache_static3, policy_sa_l1, policy_sa_l2;
extern const admission_ops admission_bypass_table, admission_bypass_pc;

const policy_ops *const policy_all[] = {
    &policy_lru,   &policy_fifo,  &policy_random, &policy_lip, &policy_bip,
    &policy_dip,   &policy_srrip, &policy_brrip,  &policy_drrip, &policy_opt,
    &policy_dacache, &policy_dacache_stall, &policy_dacache_uncon, &policy_dacache_static0,
    &policy_dacache_static1, &policy_dacache_static2, &policy_dacache_static3, &policy_sa_l1,
    &policy_sa_l2, NULL,
};

const admission_ops *const admission_all[] = {&admission_bypass_table, &admission_bypass_pc, NULL};

const policy_ops *policy_find(const char *name)
{
    for (int i = 0; policy_all[i]; i++)
        if (strcmp(policy_all[i]->name, name) == 0)
            return policy_all[i];
    return NULL;
}

const admission_ops *admission_find(const char *name)
{
    for (int i = 0; admission_all[i]; i++)
        if (strcmp(admission_all[i]->name, name) == 0)
            return admission_all[i];
    return NULL;
}

policy_spec policy_spec_lru(void) { return (policy_spec){.replacement = &policy_lru}; }

int policy_spec_parse(const char *name, policy_spec *out, ws_error *err)
{
    char replacement[64];
    const char *plus = strchr(name, '+');
    size_t len = plus ? (size_t)(plus - name) : strlen(name);
    *out = (policy_spec){0};
    if (len >= sizeof replacement)
        return ws_fail(err, "unknown policy '%s' (see `warpscope policies`)", name);
    memcpy(replacement, name, len);
    replacement[len] = '\0';
    if (!plus && (out->admission = admission_find(name))) {
        out->replacement = policy_find("lru"); /* an admission alone runs on LRU */
        return 0;
    }
    if (!(out->replacement = policy_find(replacement)))
        return ws_fail(err, "unknown policy '%s' (see `warpscope policies`)", name);
    if (plus && !(out->admission = admission_find(plus + 1)))
        return ws_fail(err, "'%s': '%s' is no admission module (%s, %s)", name, plus + 1,
                       admission_all[0]->name, admission_all[1]->name);
    return 0;
}
