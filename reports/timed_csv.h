/* reports/timed_csv.h: the timed replay's CSV columns (docs/metrics.md
 * §12; docs/report-schema.md, "compare.csv" and "timed_kernels.csv"). */
#ifndef WS_TIMED_CSV_H
#define WS_TIMED_CSV_H

#include "analyzer/hierarchy.h"
#include "formats/trace.h"
#include "reports/csv_out.h"

/* compare.csv's last columns in a timed run, and how many they are. */
#define TIMED_CSV_COLUMNS                                                                  \
    "cycles", "ipc", "speedup_vs_first", "stall_memory", "stall_pipeline",                 \
        "stall_throttled", "stall_no_warp", "l2_pending_hits", "mean_load_latency"
#define TIMED_CSV_COUNT 9

/* One row's timed cells; base_cycles: the first row's (the speedup's base). */
void timed_csv_cells(csv_table *t, const replay_results *r, uint64_t base_cycles);

/* DIR/timed_kernels.csv: one row per entry and kernel launch, named as in
 * every table (reports/csv_keys.h). */
int timed_csv_kernels(const char *dir, const char *const *names,
                      const replay_results *const *results, uint32_t count,
                      const wst_trace *trace, ws_error *err);

#endif
