/* reports/json_metrics.h: analyzer/metrics.h results as the HIST, MRC and
 * METRICS/PC pieces of docs/report-schema.md. */
#ifndef WS_JSON_METRICS_H
#define WS_JSON_METRICS_H

#include <jansson.h>

#include "analyzer/metrics.h"

/* `rate` below is the SHARDS sampling rate of the histograms (1 = exact;
 * docs/metrics.md §3). */

/* HIST: distance and reuse-time histograms; with_exact adds `exact`, a
 * sampled rate adds `unsampled`. */
json_t *report_json_hist(const reuse_pair *pair, int with_exact, double rate);

/* MRC of a fully-associative LRU at capacities 2^k lines up to 4 × the
 * configured capacity, plus the configured capacity itself; sampled
 * capacities below 1 / rate lines are unresolved (miss_ratio null). */
json_t *report_json_mrc(const reuse_hist *hist, uint32_t line_bytes, uint64_t capacity_lines,
                        double rate);

/* The cache-independent part of METRICS (instructions, utilization,
 * req_hist, coherent/divergent, reuse, mrc). */
json_t *report_json_metrics_totals(const metrics_totals *t, uint32_t line_bytes,
                                   uint64_t l1_lines, uint64_t l2_lines, double rate);

/* The cache-independent part of a PC object. */
json_t *report_json_metrics_pc(const metrics_pc *pc, uint32_t line_bytes, double rate);

#endif
