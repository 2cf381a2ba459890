/* cli/rank_split.c: see rank_split.h.  Which commands split over ranks and
 * why the others do not (docs/analysis.md "Ranks"). */
#include "cli/rank_split.h"

#include <string.h>

#include "util/ranks.h"

/* reason NULL: the command splits its own work exactly (compare's entries,
 * sweep's points, batch's runs, analyze's kernels) and every rank runs it. */
static const struct {
    const char *command, *reason;
} splits[] = {
    {"compare", NULL},
    {"sweep", NULL},
    {"batch", NULL},
    {"analyze", NULL}, /* under --l2-cold; otherwise on rank 0 (cmd_analyze.c says why) */
    {"replay", "one hierarchy is one issue stream: its policies' state and L2 carry "
               "from kernel to kernel, so kernels do not replay apart exactly"},
    {"profile", "one analysis pass feeds its hints, comparison and report; split the "
                "policies with `compare` or `batch`"},
};

int cli_rank_run(const cli_command *cmd, int argc, char **argv)
{
    const char *reason = "it reads or writes one file in order";
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++)
        if (strcmp(splits[i].command, cmd->name) == 0) {
            if (!splits[i].reason && !ranks_single_reason())
                return cmd->run(argc, argv);
            reason = splits[i].reason;
        }
    /* Rank 0 alone runs it and writes the outputs; the others idle. */
    return ranks_run_alone(cmd->name, reason) ? 0 : cmd->run(argc, argv);
}

int cli_rank_gather(int status, const void *data, size_t size, ranks_part **parts)
{
    ws_error err;
    *parts = NULL;
    if (ranks_gather(status, data, size, parts, &err) != 0)
        return cli_fail(NULL, &err);
    for (uint32_t r = 0; *parts && r < ranks_size() && status == 0; r++)
        status = (*parts)[r].status;
    return status;
}
