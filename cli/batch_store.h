/* cli/batch_store.h: a batch's finished runs, one small CSV file each in
 * DIR/runs/ (docs/batch.md "Resuming"): written to a temporary name and
 * renamed, so a file that exists is a whole run; a resumed batch skips it. */
#ifndef WS_CLI_BATCH_STORE_H
#define WS_CLI_BATCH_STORE_H

#include <stddef.h>

#include "analyzer/hierarchy.h"
#include "cli/batch_grid.h"

/* The key columns that lead every row, before compare.csv's. */
#define BATCH_KEY_COLUMNS "trace", "gpu", "set", "system", "warp_order"
#define BATCH_KEY_COUNT 5

/* DIR/runs/ID.csv into path (size 4096). */
void batch_store_path(const char *dir, const batch_run *run, char *path);
int batch_store_done(const char *dir, const batch_run *run);
/* Makes DIR and DIR/runs (kept on failure: they hold what a resume needs). */
int batch_store_prepare(const char *dir, ws_error *err);

/* Writes the run's row: its key cells, then compare.csv's cells of r. */
int batch_store_write(const char *dir, const batch_grid *g, const batch_run *run,
                      const replay_results *r, ws_error *err);

/* A run file read back: its header and row, cells[0..columns) each. */
typedef struct batch_row {
    char **header, **cells;
    size_t columns;
} batch_row;

/* Reads the run's file, checks its key cells are the run's.  0, or -1
 * with err set. */
int batch_store_read(const char *dir, const batch_grid *g, const batch_run *run, batch_row *row,
                     ws_error *err);
void batch_row_free(batch_row *row);

#endif
