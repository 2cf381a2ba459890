/* reports/run_docs.h: `warpscope report` of any JSON warpscope writes:
 * the analysis report (report.json), and the documents of `replay -o`,
 * `compare -o` and `sweep -o` (docs/report-schema.md), each told by its
 * "schema" and drawn as fits it: terminal tables, and an HTML page (the
 * replay's figures and kernels, the comparison's table and charts, the
 * sweep's heatmaps). */
#ifndef WS_RUN_DOCS_H
#define WS_RUN_DOCS_H

#include <jansson.h>
#include <stdio.h>

#include "reports/kernel_spool.h"
#include "util/error.h"

typedef enum run_doc_kind { RUN_DOC_REPORT, RUN_DOC_REPLAY, RUN_DOC_COMPARE, RUN_DOC_SWEEP } run_doc_kind;

/* Loads path and checks its shape; NULL with err saying what it is not.
 * An analysis report's kernels are read one at a time into *kernels (its
 * "kernels" left empty: reports/kernel_spool.h), so that memory follows
 * its largest kernel, not its size; the other documents are whole and
 * *kernels is NULL.  The caller frees both. */
json_t *run_doc_load(const char *path, run_doc_kind *kind, kernel_spool **kernels, ws_error *err);
/* "warpscope-replay", ... */
const char *run_doc_schema(run_doc_kind kind);

/* The terminal tables of a replay, compare or sweep document. */
void run_doc_print(FILE *out, const json_t *doc, run_doc_kind kind);
/* Its HTML page, atomically; -1 with err. */
int run_doc_html_write(const json_t *doc, run_doc_kind kind, const char *out_path, ws_error *err);

#endif
