/* cli/sweep_out.h: what `sweep` writes: the grid with the best points and
 * Poise's prediction as JSON (docs/report-schema.md, SWEEP), CSV and HTML,
 * and the terminal summary. */
#ifndef WS_SWEEP_OUT_H
#define WS_SWEEP_OUT_H

#include <stdio.h>

#include "analyzer/sweep.h"
#include "cli/replay_args.h"

/* -o, --csv and --html; 0 or an exit status after a one-line complaint. */
int sweep_write(const sweep_result *grid, const replay_args *a);
void sweep_print(FILE *out, const sweep_result *grid, const replay_args *a);

#endif
