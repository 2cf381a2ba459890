/* cli/sweep_ranks.h: a sweep's grid over MPI ranks (docs/analysis.md
 * "Ranks"): each rank's points, counters only, gathered on rank 0. */
#ifndef WS_CLI_SWEEP_RANKS_H
#define WS_CLI_SWEEP_RANKS_H

#include "analyzer/sweep.h"

/* Collective.  status: this rank's so far (grid holds its share when 0).
 * On rank 0 the other ranks' points join grid's; returns the first failing
 * rank's status (it has said why), or 1 after a one-line error when the
 * gather itself fails; 0 when the grid is whole. */
int sweep_gather(sweep_result *grid, int status);

#endif
