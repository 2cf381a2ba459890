/* reports/ccn_csv.h: the CCN ring's figures as CSV for pandas
 * (docs/replay.md), one table per entity, every row led by the compared
 * entry (`policy`) it belongs to:
 *   ccn.csv          one row per entry with a ring: the whole run
 *   ccn_kernels.csv  one row per (entry, kernel launch)
 *   ccn_sms.csv      one row per (entry, SM), over the whole run
 *   ccn_hops.csv     one row per (entry, kernel launch, ring distance): the
 *                    hop histogram; the run's is its sum over the launches */
#ifndef WS_CCN_CSV_H
#define WS_CCN_CSV_H

#include "analyzer/hierarchy.h"
#include "formats/trace.h"

#define CCN_CSV_FILES "ccn.csv", "ccn_kernels.csv", "ccn_sms.csv", "ccn_hops.csv"

/* Writes the tables when any of the r[count] has a ring (named names[i]);
 * nothing otherwise.  t names the kernels.  0, or -1 with err naming the
 * file. */
int ccn_write_csv(const char *dir, const char *const *names, const replay_results *const *r,
                  uint32_t count, const wst_trace *t, ws_error *err);

#endif
