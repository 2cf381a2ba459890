/* reports/json_bounds.h: what each bucket of a histogram in the JSON reports
 * holds.  Beside an array of counts KEY, its bounds are two arrays of the
 * same length, KEY_low and KEY_high: bucket i counts values from KEY_low[i]
 * to KEY_high[i], both inclusive for whole numbers; for the utilization
 * bins low is inclusive and high exclusive, except the last bin's 1
 * (docs/report-schema.md, conventions). */
#ifndef WS_JSON_BOUNDS_H
#define WS_JSON_BOUNDS_H

#include <jansson.h>
#include <stddef.h>

/* The 65 log2 buckets of a reuse histogram (analyzer/reuse.h) as prefix_low
 * and prefix_high.  A bound beyond a JSON integer (2^63 and up: only the
 * last bucket, which no trace reaches) is null. */
void report_json_add_log2_bounds(json_t *o, const char *prefix);
/* The CTA-distance log2 buckets b = 0 .. n-1, [2^b, 2^(b+1) - 1]. */
void report_json_add_pow2_bounds(json_t *o, const char *prefix, size_t n);
/* Bucket i counts the value i itself, for i < n. */
void report_json_add_index_bounds(json_t *o, const char *prefix, size_t n);
/* n utilization bins of 1/n each: [i/n, (i+1)/n), the last one closed. */
void report_json_add_fraction_bounds(json_t *o, const char *prefix, size_t n);
/* MPLI's buckets, by the misses per load each takes (analyzer/mpli.h). */
void report_json_add_mpli_bounds(json_t *o, const char *prefix);

#endif
