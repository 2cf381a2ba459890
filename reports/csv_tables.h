/* reports/csv_tables.h: the analysis as CSV tables for pandas, one table per
 * entity (docs/report-schema.md, CSV tables): `analyze --csv DIR` and
 * `profile` write them. */
#ifndef WS_CSV_TABLES_H
#define WS_CSV_TABLES_H

#include "analyzer/analysis.h"
#include "formats/wst.h"

#define CSV_PCS "pcs.csv"
#define CSV_REUSE "reuse.csv"
#define CSV_SHARER_COUNTS "sharing_sharer_counts.csv"
#define CSV_SM_PAIRS "sharing_sm_pairs.csv"
#define CSV_CTA_DISTANCES "sharing_cta_distances.csv"
#define CSV_TABLE_FILES CSV_PCS, CSV_REUSE, CSV_SHARER_COUNTS, CSV_SM_PAIRS, CSV_CTA_DISTANCES

#include "reports/csv_out.h"

/* The tables being written: the per-kernel ones take each kernel's rows as
 * it ends (analysis_options.kernel_done), so no kernel is kept. */
typedef struct csv_tables {
    csv_table *pcs, *reuse;
    char *dir;
} csv_tables;

/* Makes dir and opens the per-kernel tables.  0, or -1 with err naming the
 * file. */
int report_csv_open(csv_tables *t, const char *dir, ws_error *err);
/* Kernel k's rows: the pass's latest kernel. */
void report_csv_add_kernel(csv_tables *t, const analysis *a, const wst_trace *trace, uint32_t k);
/* Writes the whole-trace tables and commits them all; frees t's parts. */
int report_csv_commit(csv_tables *t, const analysis *a, ws_error *err);
/* Removes what open made; NULL parts are fine. */
void report_csv_abort(csv_tables *t);

/* The parts, a file each: pcs.csv (csv_pcs.c), reuse.csv (csv_reuse.c), the
 * sharing tables (csv_sharing.c). */
csv_table *csv_pcs_open(const char *dir, ws_error *err);
void csv_pcs_add(csv_table *t, const analysis *a, const wst_trace *trace, uint32_t k);
csv_table *csv_reuse_open(const char *dir, ws_error *err);
void csv_reuse_add(csv_table *t, const analysis *a, const wst_trace *trace, uint32_t k);
int csv_write_sharing(const analysis *a, const char *dir, ws_error *err);

#endif
