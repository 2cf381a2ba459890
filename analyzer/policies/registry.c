/* analyzer/policies/registry.c: every replacement policy, by name.  A new
 * policy is one file in this folder plus one line here. */
#include <stddef.h>
#include <string.h>

#include "analyzer/policy.h"

extern const policy_ops policy_lru, policy_fifo, policy_random, policy_lip, policy_bip,
    policy_dip, policy_srrip, policy_brrip, policy_drrip, policy_opt, policy_bypass_table,
    policy_bypass_pc;

const policy_ops *const policy_all[] = {
    &policy_lru,   &policy_fifo,  &policy_random, &policy_lip, &policy_bip,
    &policy_dip,   &policy_srrip, &policy_brrip,  &policy_drrip, &policy_opt,
    &policy_bypass_table, &policy_bypass_pc, NULL,
};

const policy_ops *policy_find(const char *name)
{
    for (int i = 0; policy_all[i]; i++)
        if (strcmp(policy_all[i]->name, name) == 0)
            return policy_all[i];
    return NULL;
}
