/* analyzer/metrics_pack.h: one kernel's metrics (metrics.h) as bytes and
 * back, for the ranks of one job: under `analyze --l2-cold` a kernel's
 * metrics are computed on another rank and reach rank 0 as these
 * (docs/analysis.md "Ranks").  Counters and histograms, never per-record
 * data; only ranks of one build may exchange them (util/pack.h). */
#ifndef WS_METRICS_PACK_H
#define WS_METRICS_PACK_H

#include "analyzer/metrics.h"
#include "util/pack.h"

/* Appends k to out.  0, or -1 with err set (out of memory). */
int metrics_kernel_pack(const metrics_kernel *k, pack_bytes *out, ws_error *err);
/* Reads one packed kernel from data[0..size) into *k (free with
 * metrics_kernel_unpacked_free, or hand it to metrics_kernel_adopt).  -1
 * with err set when the bytes are short or inconsistent. */
int metrics_kernel_unpack(const void *data, size_t size, metrics_kernel *k, ws_error *err);
void metrics_kernel_unpacked_free(metrics_kernel *k);

#endif
