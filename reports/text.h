/* reports/text.h: the human summary `analyze` prints: aligned tables. */
#ifndef WS_REPORT_TEXT_H
#define WS_REPORT_TEXT_H

#include <stdio.h>

#include "analyzer/analysis.h"
#include "formats/wst.h"

void report_text_summary(FILE *out, const analysis *a, const wst_reader *r);

#endif
