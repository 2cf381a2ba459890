/* reports/text.h: the human summary `analyze` prints: aligned tables. */
#ifndef WS_REPORT_TEXT_H
#define WS_REPORT_TEXT_H

#include <stdio.h>

#include "analyzer/analysis.h"
#include "formats/wst.h"

/* Kernels launched many times (gaussian's Fan1 and Fan2, bfs per level)
 * are one row per name, the first TEXT_GROUPS names; summed as each kernel
 * ends (analysis_options.kernel_done), so nothing per launch is kept. */
#define TEXT_GROUPS 64

typedef struct text_group {
    const char *name; /* the trace's */
    uint32_t launches;
    metrics_counts counts;
    uint64_t l1_hits, l1_misses, generations[LOCALITY_CLASSES];
} text_group;

typedef struct text_groups {
    text_group items[TEXT_GROUPS];
    uint32_t count;
} text_groups;

/* Adds kernel k, the pass's latest. */
void report_text_add_kernel(text_groups *g, const analysis *a, const wst_reader *r, uint32_t k);
void report_text_summary(FILE *out, const analysis *a, const text_groups *g);

#endif
