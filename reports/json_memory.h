/* reports/json_memory.h: the replay's memory workload as JSON, the MEMORY
 * object of docs/report-schema.md (docs/metrics.md §7, "Memory workload"). */
#ifndef WS_JSON_MEMORY_H
#define WS_JSON_MEMORY_H

#include <jansson.h>

#include "analyzer/memory_workload.h"

/* MEMORY of a kernel or of the summary (memory_workload_summary); slices is
 * memory_workload_slices(). */
json_t *memory_json(const memory_kernel *k, uint32_t slices);
/* A PC's "memory": its requests, sectors and excess sectors. */
json_t *memory_pc_json(const memory_pc *pc);

#endif
