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

/* Makes dir and writes every table into it.  0, or -1 with err naming the
 * file. */
int report_csv_tables(const analysis *a, const wst_reader *r, const char *dir, ws_error *err);

/* The parts, a file each: pcs.csv (csv_pcs.c), reuse.csv (csv_reuse.c), the
 * sharing tables (csv_sharing.c). */
int csv_write_pcs(const analysis *a, const wst_trace *t, const char *dir, ws_error *err);
int csv_write_reuse(const analysis *a, const wst_trace *t, const char *dir, ws_error *err);
int csv_write_sharing(const analysis *a, const char *dir, ws_error *err);

#endif
