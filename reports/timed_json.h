/* reports/timed_json.h: the timed replay's figures as JSON
 * (docs/report-schema.md, "timed"; docs/metrics.md §12).  Each is the
 * model's, and says so: `model` names it, never a GPU (§11). */
#ifndef WS_TIMED_JSON_H
#define WS_TIMED_JSON_H

#include <jansson.h>

#include "analyzer/hierarchy.h"

/* One kernel's clock: cycles, instructions, IPC, stalls by cause, and its
 * loads' latencies by where they were served. */
json_t *timed_kernel_json(const timed_kernel *k, const latency_counts *latency);
/* The whole run: the above over all kernels, plus each scheduler's stalls
 * and each L2 slice's and DRAM channel's queue. */
json_t *timed_run_json(const replay_results *r);

#endif
