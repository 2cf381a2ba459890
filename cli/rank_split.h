/* cli/rank_split.h: how each command runs on many MPI ranks
 * (docs/analysis.md "Ranks"): split exactly, or on rank 0 alone, saying why. */
#ifndef WS_CLI_RANK_SPLIT_H
#define WS_CLI_RANK_SPLIT_H

#include <stddef.h>

#include "cli/cli.h"
#include "util/ranks.h"

/* Runs cmd on this rank: the commands that split themselves on every rank,
 * the others on rank 0 with a one-line note (the other ranks idle). */
int cli_rank_run(const cli_command *cmd, int argc, char **argv);

/* Collective: every rank's status and bytes to rank 0 (ranks_gather).
 * Returns the status this rank goes on with: elsewhere its own, with
 * *parts NULL; on rank 0 the first failing rank's, with *parts the ranks'
 * parts (free with ranks_parts_free), NULL when the gather itself failed. */
int cli_rank_gather(int status, const void *data, size_t size, ranks_part **parts);

#endif
