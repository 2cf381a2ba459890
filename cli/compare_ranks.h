/* cli/compare_ranks.h: a comparison's entries over MPI ranks
 * (docs/analysis.md "Ranks"): entry i replays on rank i mod R, each rank's
 * results reach rank 0 packed (analyzer/results_pack.h). */
#ifndef WS_CLI_COMPARE_RANKS_H
#define WS_CLI_COMPARE_RANKS_H

#include "analyzer/hierarchy.h"
#include "cli/compare_out.h"

/* The rank that replays entry i. */
uint32_t compare_entry_rank(uint32_t entry);

/* Collective.  status: this rank's so far; hs[i] its hierarchies, of the
 * entries compare_entry_rank gives it, in order.  On rank 0, when every
 * rank succeeded, rs[0..set->count) are every entry's results: rank 0's
 * own point into its hierarchies, the others' into *unpacked (free with
 * compare_unpacked_free).  Returns the first failing rank's status, 1
 * after a one-line error of its own, or 0. */
int compare_gather(const compare_set *set, hierarchy *const *hs, int status,
                   const replay_results **rs, replay_results ***unpacked);
void compare_unpacked_free(replay_results **unpacked, uint32_t count);

#endif
