/* reports/report_json.h: the analysis report document (docs/report-schema.md). */
#ifndef WS_REPORT_JSON_H
#define WS_REPORT_JSON_H

#include <jansson.h>

#include "analyzer/analysis.h"
#include "formats/wst.h"

json_t *report_analysis_json(const analysis *a, const wst_reader *r, const char *trace_path);

#endif
