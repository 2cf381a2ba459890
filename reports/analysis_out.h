/* reports/analysis_out.h: what analyze and profile report of each kernel,
 * taken as the pass ends it (analysis_options.kernel_done) so that nothing
 * per kernel stays in memory (docs/report-schema.md, Kernels):
 *   - its JSON entry, set aside in a spool (reports/kernel_spool.h) when a
 *     JSON or HTML report is wanted;
 *   - its rows of pcs.csv and reuse.csv, when tables are wanted;
 *   - its share of the text summary's rows by kernel name.
 *
 *   analysis_out out;
 *   analysis_out_open(&out, r, SPOOL_PRINTED, csv_dir, &err);
 *   analysis_out_attach(&out, &options);   // then analysis_run(r, ..., &options, ...)
 *   ... report_json_write_spooled(path, doc, out.kernels, &err) ...
 *   analysis_out_close(&out);
 */
#ifndef WS_ANALYSIS_OUT_H
#define WS_ANALYSIS_OUT_H

#include "analyzer/analysis.h"
#include "formats/wst.h"
#include "reports/csv_tables.h"
#include "reports/kernel_spool.h"
#include "reports/text.h"

typedef struct analysis_out {
    const wst_reader *reader;
    kernel_spool *kernels; /* NULL unless a JSON or HTML report is wanted */
    csv_tables csv;        /* open while csv.dir is set (a csv_dir was given) */
    text_groups groups;
} analysis_out;

/* spool: what the kernels' spool keeps (SPOOL_PRINTED for report.json,
 * SPOOL_ENTRIES for the HTML page), 0 for none; csv_dir: NULL for no tables. */
int analysis_out_open(analysis_out *out, const wst_reader *r, unsigned spool, const char *csv_dir,
                      ws_error *err);
/* Points options' kernel_done at out. */
void analysis_out_attach(analysis_out *out, analysis_options *options);
/* After the pass: writes the whole-trace tables and commits them all. */
int analysis_out_commit_csv(analysis_out *out, const analysis *a, ws_error *err);
/* Frees it all; tables not committed are removed. */
void analysis_out_close(analysis_out *out);

#endif
