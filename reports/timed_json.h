/* reports/timed_json.h: the timed replay's figures as JSON
 * (docs/report-schema.md, "timed"; docs/metrics.md §12).  Each is the
 * model's, and says so: `model` names it, never a GPU (§11).
 *
 * Written straight to the text (util/json_write.h): a run's per-scheduler
 * stalls alone are 640 objects on an 80-SM GPU with two policies, and a
 * jansson tree of them cost a quarter of a small timed compare.  A
 * document that is only printed takes them as deferred values (`later`);
 * one that is read (the HTML page) passes NULL and gets the tree. */
#ifndef WS_TIMED_JSON_H
#define WS_TIMED_JSON_H

#include <jansson.h>

#include "analyzer/hierarchy.h"
#include "util/json_print.h"

/* One kernel's clock: cycles, instructions, IPC, stalls by cause, and its
 * loads' latencies by where they were served. */
void timed_kernel_write(json_writer *w, const timed_kernel *k, const latency_counts *latency);
json_t *timed_kernel_json(const replay_kernel *rk, json_deferred_set *later);
/* The whole run: the above over all kernels, plus each scheduler's stalls
 * and each L2 slice's and DRAM channel's queue. */
void timed_run_write(json_writer *w, const replay_results *r);
json_t *timed_run_json(const replay_results *r, json_deferred_set *later);

#endif
