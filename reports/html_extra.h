/* reports/html_extra.h: the HTML report's sections beyond the analysis
 * (internal to reports/html*.c): the baseline comparison
 * (html_baseline.c), a section per top kernel (html_top_kernels.c) and the
 * source view (html_source.c). */
#ifndef WS_HTML_EXTRA_H
#define WS_HTML_EXTRA_H

#include <stdio.h>

#include "reports/baseline.h"
#include "reports/kernel_digest.h"

/* Kernel names given a section of their own: the most requests first. */
#define HTML_TOP_KERNELS 5

void html_baseline(FILE *out, const baseline *b, const char *baseline_path);
/* id "top-kernels": an index of anchors, then a section "kernel-N" for
 * each of the HTML_TOP_KERNELS kernel names with most line requests. */
void html_top_kernels(FILE *out, const kernel_digest *d);
/* id "source": the source lines of the PCs with their counters and, where
 * the file is readable (in source_dir, or where the trace says), the text
 * of each line; an emulator port's line also shows its CUDA program's. */
void html_source_view(FILE *out, const kernel_digest *d, const char *source_dir);

#endif
