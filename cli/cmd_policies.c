/* cli/cmd_policies.c: `warpscope policies`: the replacement policies. */
#include <stdio.h>

#include "analyzer/policy.h"
#include "analyzer/systems.h"
#include "cli/cli.h"
#include "reports/term.h"

static const char usage[] =
    "usage: warpscope policies\n\n"
    "Lists the cache replacement policies usable at L1 or L2 (--l1, --l2,\n"
    "compare --policies), then the admission modules, which decide before any\n"
    "lookup whether a request uses the cache at all.  An admission module\n"
    "composes with any replacement policy, REPLACEMENT+ADMISSION (for example\n"
    "srrip+bypass-pc); alone it runs on lru.  Last, the management systems,\n"
    "which set both levels and hierarchy stages at once (compare --policies\n"
    "NAME, or --manage NAME).\n";

static int run(int argc, char **argv)
{
    (void)argv;
    if (argc > 1)
        return cli_error(NULL, "policies takes no arguments");
    for (int i = 0; policy_all[i]; i++)
        term_printf(stdout, 16, "  %-13s %s", policy_all[i]->name, policy_all[i]->description);
    term_printf(stdout, 2, "admission (alone = lru+NAME; or REPLACEMENT+NAME):");
    for (int i = 0; admission_all[i]; i++)
        term_printf(stdout, 16, "  %-13s %s", admission_all[i]->name,
                    admission_all[i]->description);
    term_printf(stdout, 2, "systems (--manage NAME, or NAME and P+NAME in compare --policies):");
    for (int i = 0; managed_systems[i].name; i++)
        term_printf(stdout, 16, "  %-13s %s", managed_systems[i].name,
                    managed_systems[i].description);
    term_printf(stdout, 2, "warp orders (--schedule CTA,ORDER, or P@ORDER in compare --policies):");
    for (int i = 0; warp_order_all[i]; i++)
        term_printf(stdout, 16, "  %-13s %s", warp_order_all[i]->name,
                    warp_order_all[i]->description);
    return 0;
}

const cli_command cmd_policies = {"policies", "list the cache replacement policies", usage, run};
