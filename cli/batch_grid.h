/* cli/batch_grid.h: a batch's grid (docs/batch.md): traces x GPU presets x
 * --set overrides x systems x warp orders x policies, expanded into runs in
 * that order (policies vary fastest). */
#ifndef WS_CLI_BATCH_GRID_H
#define WS_CLI_BATCH_GRID_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* What the grid's axes hold, each a list of strings; "" in gpus, systems or
 * warp_orders means none given (the trace's preset, no system, the
 * schedule's order).  sets[i] is one override list, "F=V F2=V2". */
typedef struct batch_grid {
    void *json; /* owns every string below */
    const char **traces, **gpus, **sets, **systems, **orders, **policies;
    uint32_t trace_count, gpu_count, set_count, system_count, order_count, policy_count;
    const char **args; /* options every run gets, e.g. --l2-cold */
    uint32_t arg_count;
    char args_text[1024]; /* the args joined by spaces: part of every run's identity */
} batch_grid;

typedef struct batch_run {
    uint32_t index; /* its row in the table */
    uint32_t trace, gpu, set, system, order, policy; /* its coordinates */
    char entry[52]; /* as compare --policies names it: POLICY[+SYSTEM][@ORDER] */
    uint64_t id;    /* hash of everything that decides its result: its file's name */
} batch_run;

/* Reads path.  0, or -1 with err set ("'policies': ..."; the caller names
 * the file). */
int batch_grid_load(const char *path, batch_grid *g, ws_error *err);
void batch_grid_free(batch_grid *g);

/* The compare entry of policy p, system y and warp order o into out (size
 * bytes): POLICY[+SYSTEM][@ORDER].  0, or -1 when it does not fit. */
int batch_grid_entry(const batch_grid *g, uint32_t p, uint32_t y, uint32_t o, char *out, size_t size);

/* The grid's runs in order; *count set.  NULL with err set. */
batch_run *batch_grid_runs(const batch_grid *g, uint32_t *count, ws_error *err);

/* Whether two runs replay together: same trace, GPU and overrides (one
 * decode of the trace feeds a compare set of their entries). */
int batch_same_replay(const batch_run *a, const batch_run *b);

#endif
