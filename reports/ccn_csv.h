/* reports/ccn_csv.h: the CCN ring's figures as CSV for pandas (docs/metrics.md §9):
 * DIR/ccn.csv, one row per hierarchy with a ring and scope (the run, each
 * kernel, each SM), and DIR/ccn_hops.csv, the hop histogram per hierarchy
 * and scope (the run, each kernel), long format. */
#ifndef WS_CCN_CSV_H
#define WS_CCN_CSV_H

#include "analyzer/hierarchy.h"

/* Writes both files when any of the r[count] has a ring (named names[i]);
 * nothing otherwise.  0, or -1 with err naming the file. */
int ccn_write_csv(const char *dir, const char *const *names, const replay_results *const *r,
                  uint32_t count, ws_error *err);

#endif
