/* cli/rank_split.h: how each command runs on many MPI ranks
 * (docs/analysis.md "Ranks"): split exactly, or on rank 0 alone, saying why. */
#ifndef WS_CLI_RANK_SPLIT_H
#define WS_CLI_RANK_SPLIT_H

#include "cli/cli.h"

/* Runs cmd on this rank: the commands that split themselves on every rank,
 * the others on rank 0 with a one-line note (the other ranks idle). */
int cli_rank_run(const cli_command *cmd, int argc, char **argv);

#endif
