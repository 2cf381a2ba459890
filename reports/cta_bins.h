/* reports/cta_bins.h: the CTA-distance histogram as the HTML report draws
 * it (docs/metrics.md §5 "Sharing between CTAs", S0 Fig. 3).
 *
 * The report counts CTA pairs at each distance 1..15 exactly, then in
 * power-of-two bins 16-31, 32-63, ...  A bin 64 distances wide collects up
 * to 64 times the pairs of a one-distance bin for the same sharing, so bars
 * of pairs would tower by width alone.  The chart plots a density instead:
 * the pairs of a bin ÷ the distances it spans.  Pairs are counted within a
 * launch, so a bin reaching past the largest distance a launch can have
 * (its grid's CTAs − 1) spans only the distances up to that one. */
#ifndef WS_CTA_BINS_H
#define WS_CTA_BINS_H

#include <jansson.h>

#define CTA_BINS_MAX (16 + 64) /* exact distances, then log2 bins (schema SHARING) */

typedef struct cta_bin {
    double low, high; /* the distances it spans, inclusive */
    double pairs;     /* CTA pairs sharing a block at those distances */
    double density;   /* pairs ÷ (high − low + 1) */
    char label[48];   /* "3", "16-31" */
} cta_bin;

/* The bins of summary.sharing up to the last holding pairs, into bins
 * [CTA_BINS_MAX]; returns how many (0: no pairs).  *present is 0 when the
 * report has no histogram at all.  largest: the largest CTA distance a
 * launch can have (the last bin ends there), or -1 when unknown
 * (reports/kernel_digest.h). */
unsigned cta_bins_read(const json_t *doc, double largest, cta_bin *bins, int *present);

#endif
