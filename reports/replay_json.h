/* reports/replay_json.h: replay results as JSON (docs/report-schema.md,
 * REPLAY), for `replay`, `compare` and the replay section of `analyze`. */
#ifndef WS_REPLAY_JSON_H
#define WS_REPLAY_JSON_H

#include <jansson.h>

#include "analyzer/hierarchy.h"
#include "formats/wst.h"

/* REPLAY for one kernel or the whole trace (no per-SM tables). */
json_t *replay_counts_json(const replay_counts *c, const replay_results *r);
/* The whole trace's counts, plus the policies' own figures when they keep
 * any ("l1_policy_figures", "l2_policy_figures"). */
json_t *replay_totals_json(const replay_results *r);
/* REPLAY for the whole trace: the totals plus l1_per_sm, remote_holders and
 * replication. */
json_t *replay_summary_json(const replay_results *r);
/* The per-PC replay figures. */
json_t *replay_pc_json(const replay_pc *pc, const locality_pc *generations);
/* A whole replay document: schema, trace, gpu, options, summary, kernels
 * with their PCs (`warpscope replay -o`). */
json_t *replay_document_json(const replay_results *r, const gpu_config *config,
                             const char *schedule, const wst_trace *t, const char *trace_path);

#endif
