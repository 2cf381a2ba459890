/* reports/bypass_out.h: the bypass hints of `warpscope bypass` (docs/metrics.md §9) as
 * CSV, JSON and a human summary with the source lines to change. */
#ifndef WS_BYPASS_OUT_H
#define WS_BYPASS_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "analyzer/bypass_advisor.h"
#include "formats/trace.h"
#include "reports/kernel_spool.h"

/* The two tables, in DIR: one row per load PC (the recommendation), and one
 * per line global loads touched (Eq. 1); line_bytes is the L1's line.  0,
 * or -1 with err naming the file (docs/report-schema.md, CSV tables). */
#define BYPASS_PCS_CSV "hints_pcs.csv"
#define BYPASS_LINES_CSV "hints_lines.csv"
int bypass_write_tables(const char *dir, const bypass_advice *a, const wst_trace *t,
                        uint32_t line_bytes, ws_error *err);
/* {"schema": "warpscope-bypass", "before_after", "pcs", "lines"}; lines lists
 * the bypass-worthy ones, at most max_lines. */
json_t *bypass_json(const bypass_advice *a, const wst_trace *t, size_t max_lines);
void bypass_print_summary(FILE *out, const bypass_advice *a, const wst_trace *t);
/* Adds each PC's "bypass": {"share", "recommend", "traffic_change_bytes"} to
 * an analysis report's kernel entries (kernels[].pcs[]). */
int bypass_annotate_kernels(kernel_spool **kernels, const bypass_advice *a, const wst_trace *t,
                            ws_error *err);

#endif
