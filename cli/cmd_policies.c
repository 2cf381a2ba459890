/* cli/cmd_policies.c: `warpscope policies`: the replacement policies. */
#include <stdio.h>

#include "analyzer/policy.h"
#include "cli/cli.h"

static const char usage[] =
    "usage: warpscope policies\n\n"
    "Lists the cache replacement policies usable at L1 or L2 (--l1, --l2,\n"
    "compare --policies).\n";

static int run(int argc, char **argv)
{
    (void)argv;
    if (argc > 1)
        return cli_error(NULL, "policies takes no arguments");
    for (int i = 0; policy_all[i]; i++)
        printf("  %-13s %s\n", policy_all[i]->name, policy_all[i]->description);
    return 0;
}

const cli_command cmd_policies = {"policies", "list the cache replacement policies", usage, run};
