/* reports/timed_text.h: the timed replay's figures in the terminal
 * (docs/metrics.md §12), labelled as the model's (§11). */
#ifndef WS_TIMED_TEXT_H
#define WS_TIMED_TEXT_H

#include <stdio.h>

#include "analyzer/hierarchy.h"

void timed_text_summary(FILE *out, const replay_results *r);
/* The run's cycles: the sum of its kernels' (they run one after another). */
uint64_t timed_cycles(const replay_results *r);

#endif
