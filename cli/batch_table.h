/* cli/batch_table.h: a finished batch's table, assembled on rank 0 from the
 * run files (docs/batch.md "The table"): DIR/batch.csv and DIR/batch.json,
 * one row per run in grid order. */
#ifndef WS_CLI_BATCH_TABLE_H
#define WS_CLI_BATCH_TABLE_H

#include "cli/batch_grid.h"

/* 0, or an exit status after a one-line error. */
int batch_table_write(const char *dir, const char *grid_path, const batch_grid *g,
                      const batch_run *runs, uint32_t count);

#endif
