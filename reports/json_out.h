/* reports/json_out.h: small pieces every JSON report is made of, and the
 * converters from analyzer results to the objects of docs/report-schema.md.
 * Reports only format: every figure comes computed from the analyzer. */
#ifndef WS_JSON_OUT_H
#define WS_JSON_OUT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "analyzer/config.h"
#include "analyzer/locality.h"
#include "analyzer/missclass.h"
#include "analyzer/mpli.h"
#include "analyzer/sharing.h"
#include "reports/kernel_spool.h"
#include "util/error.h"
#include "util/json_print.h"

/* How reports are printed: compact (report version 3; indentation was
 * most of a large report), ten significant digits.  report_json_write
 * prints them with util/json_print.h, the same bytes as json_dumps with
 * these flags (what the kernel spool's entries are printed with). */
#define REPORT_JSON_PRECISION 10
#define REPORT_JSON_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(REPORT_JSON_PRECISION))

/* Writes doc to path ("-" = stdout) atomically (util/outfile.h). */
int report_json_write(const char *path, const json_t *doc, ws_error *err);
/* The same, with the deferred values of `later` written in their places
 * (util/json_print.h; later may be NULL). */
int report_json_write_deferred(const char *path, const json_t *doc, json_deferred_set *later,
                               ws_error *err);
/* The same, with the spool's entries as doc's "kernels" (which must be an
 * empty array): a report of any number of kernels, one in memory at a time. */
int report_json_write_spooled(const char *path, const json_t *doc, kernel_spool *spool,
                              ws_error *err);

/* num / den, or JSON null when den is 0 (schema convention). */
json_t *report_json_ratio(double num, double den);
json_t *report_json_u64(uint64_t v);
/* The same two, written straight to the text (util/json_write.h). */
void report_write_ratio(json_writer *w, double num, double den);
void report_write_u64(json_writer *w, uint64_t v);
json_t *report_json_u64_array(const uint64_t *values, size_t n);
/* A histogram written sparsely (report version 3): [[bucket, count], ...]
 * of its non-zero buckets only, in bucket order.  Most of a PC's or a
 * kernel's 65 reuse buckets are empty (docs/report-schema.md, Histograms). */
json_t *report_json_u64_sparse(const uint64_t *values, size_t n);
/* A string, or null when s is NULL. */
json_t *report_json_string_or_null(const char *s);
/* Identifiers, as the CSV and HTML reports write them (reports/pc_label.h):
 * a PC offset as hex text ("0x1a0"), a kernel's display name ("Fan1"). */
json_t *report_json_pc_offset(uint64_t offset);
json_t *report_json_kernel_label(const char *kernel);
/* Sets a report's "gpu" (the config as its file says it) and, on one of
 * the papers' presets, "gpu_note": the line the run printed
 * (config_paper_preset_note; docs/report-schema.md). */
void report_json_set_gpu(json_t *doc, const gpu_config *c);

json_t *report_json_sharing(const sharing_results *r, uint32_t block_bytes);
json_t *report_json_mpli(const mpli_counts *c);
json_t *report_json_miss_classes(const miss_counts *c);
/* Summed over the PCs given (a kernel's or the whole trace's). */
json_t *report_json_locality_totals(const locality_totals *t);
/* One PC's fractions and dominant class. */
json_t *report_json_locality_pc(const locality_pc *pc);

#endif
