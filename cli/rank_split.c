/* cli/rank_split.c: see rank_split.h.  Which commands split over ranks and
 * why the others do not (docs/analysis.md "Ranks"). */
#include "cli/rank_split.h"

#include <stdio.h>
#include <string.h>

#include "util/ranks.h"

/* reason NULL: the command splits its own work exactly (compare's entries,
 * sweep's points, batch's runs) and every rank runs it. */
static const struct {
    const char *command, *reason;
} splits[] = {
    {"compare", NULL},
    {"sweep", NULL},
    {"batch", NULL},
    {"analyze", "its consumers carry state from kernel to kernel (the global reuse "
                "stacks, the warm L2, the policies' own state) and its floating-point "
                "sums would change with the order of a merge"},
    {"replay", "one hierarchy is one issue stream: its policies' state and L2 carry "
               "from kernel to kernel, so kernels do not replay apart exactly"},
    {"profile", "one analysis pass feeds its hints, comparison and report; split the "
                "policies with `compare` or `batch`"},
};

int cli_rank_run(const cli_command *cmd, int argc, char **argv)
{
    const char *single = ranks_single_reason();
    if (single) { /* mpirun started copies that cannot talk */
        if (ranks_rank() != 0)
            return 0;
        fprintf(stderr, "warpscope: %s: not split over ranks: %s; runs on rank 0\n", cmd->name,
                single);
        return cmd->run(argc, argv);
    }
    if (ranks_size() == 1)
        return cmd->run(argc, argv);
    const char *reason = "it reads or writes one file in order";
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++)
        if (strcmp(splits[i].command, cmd->name) == 0) {
            if (!splits[i].reason)
                return cmd->run(argc, argv);
            reason = splits[i].reason;
        }
    if (ranks_rank() != 0)
        return 0; /* idles: rank 0 alone runs and writes the outputs */
    fprintf(stderr, "warpscope: %s: not split over %u ranks: %s; runs on rank 0\n", cmd->name,
            ranks_size(), reason);
    return cmd->run(argc, argv);
}
