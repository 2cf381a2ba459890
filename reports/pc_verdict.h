/* reports/pc_verdict.h: a load PC's bypass verdict, with the reason a
 * reader needs to trust it (docs/metrics.md §9).
 *
 * The verdict is the replay's, not a rule of thumb: `profile` replays the
 * trace with the PC bypassing L1 and recommends it when L1->L2 plus DRAM
 * bytes fall.  Two figures beside it can seem to contradict it: the L1 hit
 * rate (the share of the PC's own requests whose line was in L1, whoever
 * filled it) and the locality class (of the line generations the PC itself
 * filled, §4).  A "streaming" PC that hits 93% is one that fills few lines,
 * never reused, and hits on lines others filled; bypass can still pay when
 * those lines are bypass-worthy by S1's Eq. 1 (U × (1 + R) < 1: little of
 * each 128 B line is used for the reuse it gets).  The reason says which
 * of these holds, so no row reads as a contradiction. */
#ifndef WS_PC_VERDICT_H
#define WS_PC_VERDICT_H

#include "reports/pc_groups.h"

typedef struct pc_verdict {
    const char *word; /* "bypass", "keep", or NULL when the report has no hint */
    char reason[512];
} pc_verdict;

pc_verdict pc_verdict_of(const pc_group *g);

#endif
