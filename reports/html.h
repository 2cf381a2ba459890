/* reports/html.h: the self-contained HTML report.
 *
 * One file, readable offline and forever: the charts are inline SVG drawn
 * here, the style is inline, and a Content-Security-Policy forbids every
 * network fetch.  It reads only the report document (docs/report-schema.md),
 * never the analyzer, so `warpscope report` can draw any saved report.
 * docs/html-report.md explains each chart. */
#ifndef WS_HTML_H
#define WS_HTML_H

#include <jansson.h>

#include "reports/kernel_spool.h"
#include "util/error.h"

/* Writes the page for report to out_path ("-" = stdout), atomically
 * (util/outfile.h).  kernels: the report's kernel entries when they were set
 * aside as the pass went (analyze, profile), else NULL: they are in the
 * document (`warpscope report`).  -1 with err set when the document is not
 * a warpscope report or the file cannot be written. */
int html_report_write(const json_t *report, kernel_spool *kernels, const char *out_path,
                      ws_error *err);

/* What `warpscope report` adds to the page. */
typedef struct html_options {
    const json_t *baseline;    /* a report drawn beside this one, or NULL */
    const char *baseline_path; /* its file, as the page names it */
    const char *source_dir;    /* where the source view looks for files first, or NULL */
} html_options;

/* html_report_write with options (NULL: none). */
int html_report_write_with(const json_t *report, kernel_spool *kernels, const char *out_path,
                           const html_options *options, ws_error *err);

#endif
