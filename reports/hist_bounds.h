/* reports/hist_bounds.h: what each bucket of a log2 histogram holds, so the
 * CSV rows and the JSON arrays state it alike (docs/report-schema.md).
 *
 * Bucket 0 holds 0; bucket k >= 1 holds [2^(k-1), 2^k - 1]: the reuse
 * histograms' 65 buckets (analyzer/reuse.h).  The CTA-distance log2
 * bucket b, [2^b, 2^(b+1) - 1], is bucket b + 1 here. */
#ifndef WS_HIST_BOUNDS_H
#define WS_HIST_BOUNDS_H

#include <stdint.h>

uint64_t hist_log2_low(unsigned k);
uint64_t hist_log2_high(unsigned k); /* inclusive; UINT64_MAX for k = 64 */

#endif
