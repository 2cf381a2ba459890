/* reports/timed_text.h: the timed replay's figures in the terminal
 * (docs/metrics.md §12), labelled as the model's (§11). */
#ifndef WS_TIMED_TEXT_H
#define WS_TIMED_TEXT_H

#include <stdio.h>

#include "analyzer/hierarchy.h"

void timed_text_summary(FILE *out, const replay_results *r);
/* compare's timed columns, one row per hierarchy: L1 pending hits, cycles,
 * speedup over the first row, IPC, and the schedulers' memory stalls. */
void timed_text_table(FILE *out, const char *const *names, const replay_results *const *r,
                      uint32_t count);
/* The run's cycles: the sum of its kernels' (they run one after another). */
uint64_t timed_cycles(const replay_results *r);

#endif
