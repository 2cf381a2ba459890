/* reports/bypass_out.h: the bypass hints of `warpscope bypass` (docs/metrics.md §9) as
 * CSV, JSON and a human summary with the source lines to change. */
#ifndef WS_BYPASS_OUT_H
#define WS_BYPASS_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "analyzer/bypass_advisor.h"
#include "formats/trace.h"

/* One CSV: `scope` pc rows (the recommendation) then line rows (Eq. 1). */
int bypass_write_csv(const char *path, const bypass_advice *a, const wst_trace *t, ws_error *err);
/* {"schema": "warpscope-bypass", "before_after", "pcs", "lines"}; lines lists
 * the bypass-worthy ones, at most max_lines. */
json_t *bypass_json(const bypass_advice *a, const wst_trace *t, size_t max_lines);
void bypass_print_summary(FILE *out, const bypass_advice *a, const wst_trace *t);
/* Adds each PC's "bypass": {"share", "recommend", "traffic_change_bytes"} to an
 * analysis report (kernels[].pcs[]). */
void bypass_annotate_report(json_t *report, const bypass_advice *a, const wst_trace *t);

#endif
