/* cli/sweep_out.h: what `sweep` writes: the grid with the best points and
 * Poise's prediction as JSON (docs/report-schema.md, SWEEP), CSV and HTML,
 * and the terminal summary. */
#ifndef WS_SWEEP_OUT_H
#define WS_SWEEP_OUT_H

#include <stdio.h>

#include "analyzer/poise.h"
#include "analyzer/sweep.h"
#include "cli/replay_args.h"

/* What every output shows beside the grid, worked out once: the best points
 * and Poise's prediction and searches. */
typedef struct sweep_summary {
    const sweep_point *best_hits, *best_traffic;
    const sweep_point *best_cycles; /* a timed grid's fewest cycles (S3's IPC); else NULL */
    poise_inputs in;
    double x[POISE_FEATURES];
    poise_prediction predicted;
    poise_search_result by_hits, by_traffic, by_cycles; /* by_cycles: a timed grid's */
    uint32_t stride_n, stride_p;
} sweep_summary;

sweep_summary sweep_summarize(const sweep_result *grid, const replay_args *a);
/* -o, --csv and --html; 0 or an exit status after a one-line complaint. */
int sweep_write(const sweep_result *grid, const sweep_summary *s, const replay_args *a);
void sweep_print(FILE *out, const sweep_result *grid, const sweep_summary *s);

#endif
