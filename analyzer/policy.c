/* analyzer/policy.c: the registry lookup. */
#include "analyzer/policy.h"

#include <string.h>

const policy_ops *policy_find(const char *name)
{
    for (int i = 0; policy_all[i]; i++)
        if (strcmp(policy_all[i]->name, name) == 0)
            return policy_all[i];
    return NULL;
}
