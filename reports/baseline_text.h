/* reports/baseline_text.h: `warpscope report NEW.json --baseline OLD.json`
 * in the terminal: each figure of both runs with its change, then the
 * kernels matched by name, then those of one run only. */
#ifndef WS_BASELINE_TEXT_H
#define WS_BASELINE_TEXT_H

#include <stdio.h>

#include "reports/baseline.h"

void baseline_print(FILE *out, const baseline *b, const char *now_path, const char *then_path);

#endif
