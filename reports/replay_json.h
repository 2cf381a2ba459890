/* reports/replay_json.h: replay results as JSON (docs/report-schema.md,
 * REPLAY), for `replay`, `compare` and the replay section of `analyze`. */
#ifndef WS_REPLAY_JSON_H
#define WS_REPLAY_JSON_H

#include <jansson.h>

#include "analyzer/hierarchy.h"
#include "formats/wst.h"
#include "util/json_print.h"

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
/* Adds a replay document's body to doc, whose head (schema, trace, gpu,
 * options) the command wrote: summary, and kernels with their PCs
 * (`warpscope replay -o`).  With `later`, the timed figures are deferred
 * values of it, for printing only (reports/timed_json.h); NULL gives the
 * whole tree. */
void replay_document_body(json_t *doc, const replay_results *r, const wst_trace *t,
                          json_deferred_set *later);

#endif
