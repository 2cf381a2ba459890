/* reports/csv_tables.h: `analyze --csv DIR`: pcs.csv, reuse.csv, sharing.csv. */
#ifndef WS_CSV_TABLES_H
#define WS_CSV_TABLES_H

#include "analyzer/analysis.h"
#include "formats/wst.h"

int report_csv_tables(const analysis *a, const wst_reader *r, const char *dir, ws_error *err);

#endif
