/* reports/report_json.h: the analysis report document (docs/report-schema.md). */
#ifndef WS_REPORT_JSON_H
#define WS_REPORT_JSON_H

#include <jansson.h>

#include "analyzer/analysis.h"
#include "formats/wst.h"

/* The document without its kernels: "kernels" is an empty array, which
 * report_json_write_spooled fills from the entries set aside as the pass
 * went (reports/kernel_spool.h). */
json_t *report_analysis_json(const analysis *a, const wst_reader *r, const char *trace_path);

/* Kernel k's entry, from the latest kernel of the pass: call it from
 * analysis_options.kernel_done (reports/analysis_out.h does).  Its "pcs"
 * is an empty array: its report_kernel_pc_count elements are made one at
 * a time by report_kernel_pc_json and written as they are made
 * (kernel_spool_add_streamed), so a kernel of many PCs never holds their
 * JSON together (issue 42). */
json_t *report_kernel_json(const analysis *a, const wst_reader *r, uint32_t k);
uint32_t report_kernel_pc_count(const analysis *a, const wst_reader *r, uint32_t k);
json_t *report_kernel_pc_json(const analysis *a, const wst_reader *r, uint32_t k, uint32_t i);

#endif
