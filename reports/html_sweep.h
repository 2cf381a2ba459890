/* reports/html_sweep.h: the (N, p) sweep as one self-contained page: the
 * grid's L1 hit rate, polluting warps' hit rate and L1->L2 traffic as
 * heatmaps over N and p, with the best points and Poise's prediction.
 * It reads only the sweep document (docs/report-schema.md, SWEEP). */
#ifndef WS_HTML_SWEEP_H
#define WS_HTML_SWEEP_H

#include <jansson.h>

#include "util/error.h"

int html_sweep_write(const json_t *sweep, const char *out_path, ws_error *err);

#endif
