/* reports/report_doc.h: reading a report.json back (docs/report-schema.md).
 *
 * The renderers read nothing but this document.  Sections written by newer
 * analyses are optional and ratios may be null, so every getter answers
 * "absent" (NULL, NaN) instead of failing; only the outer shape is checked
 * up front. */
#ifndef WS_REPORT_DOC_H
#define WS_REPORT_DOC_H

#include <jansson.h>
#include <stddef.h>

#include "util/error.h"

#define REPORT_SCHEMA "warpscope-report"
/* 2: "accesses" counts renamed "requests"; 3: compact, reuse histograms
 * sparse with their bounds once in "reuse_buckets".  Both are read. */
#define REPORT_VERSION 3
#define REPORT_VERSION_OLDEST_READ 2

/* Loads and checks path; NULL with err naming the problem (not the file). */
json_t *report_doc_load(const char *path, ws_error *err);

/* The schema name and version, and the objects every report has. */
int report_doc_check(const json_t *doc, ws_error *err);

/* The value at a dotted path such as "summary.replay.l1.hit_rate" (a
 * numeric part indexes an array), or NULL. */
json_t *report_at(const json_t *doc, const char *path);
/* A number at path (integer or real), or NaN when absent, null or not one. */
double report_num(const json_t *doc, const char *path);
/* The same, 0 when absent: for counts that are summed. */
double report_count(const json_t *doc, const char *path);
/* A string at path, or NULL. */
const char *report_str(const json_t *doc, const char *path);
/* Up to max numbers of the array at path into out (NaN for non-numbers);
 * returns the array's length capped at max, 0 when there is no array.  A
 * sparse histogram ([[bucket, count], ...], report version 3) reads as its
 * dense form up to its last bucket. */
size_t report_nums(const json_t *doc, const char *path, double *out, size_t max);

#endif
