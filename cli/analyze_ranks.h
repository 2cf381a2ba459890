/* cli/analyze_ranks.h: `analyze --l2-cold` on R MPI ranks (docs/analysis.md
 * "Ranks").  Rank 0 runs the pass as one process does, but for its metrics
 * consumers: ranks 1..R-1 each run those alone over a contiguous block of
 * the kernels (reading only that block's chunks) and send each kernel's
 * metrics to rank 0, which adopts them in kernel order.  With the L2 cold
 * at each kernel no metrics state crosses a kernel boundary, and the
 * summary is a sum of integer counts, so the bytes are one process's. */
#ifndef WS_CLI_ANALYZE_RANKS_H
#define WS_CLI_ANALYZE_RANKS_H

#include "analyzer/analysis.h"
#include "formats/wst.h"

/* Why analyze runs on rank 0 alone without --l2-cold: not by kernels (state
 * carries), and not by SMs, which would be exact but slow: every rank would
 * repeat the schedule and one keep the global consumers, 2 to 3 times one
 * process's speed at most (docs/analysis.md "Ranks", bench/bench_sm_split.c). */
#define ANALYZE_WARM_REASON                                                                  \
    "without --l2-cold the L2 and the global reuse streams carry from kernel to kernel, so "  \
    "kernels do not go to ranks apart exactly; by SM every rank would repeat the schedule "   \
    "(the CTA dispatch couples the SMs) and one keep the global consumers, at most 2-3x on " \
    "any number of ranks (docs/analysis.md \"Ranks\")"

/* Rank 0's side: call with the trace rank 0 reads, before analysis_run
 * with *options; points options at the kernels' senders. */
typedef struct analyze_ranks analyze_ranks;
analyze_ranks *analyze_ranks_receive(const wst_trace *t, analysis_options *options, ws_error *err);
/* Whether the pass failed because another rank did: that rank's line,
 * printed at the end, says why, and rank 0 adds none. */
int analyze_ranks_peer_failed(const analyze_ranks *s);
/* After the pass (status: rank 0's so far): takes what the other ranks
 * still send, ends the share and returns the job's status (a failing
 * rank's line printed once); frees s.  NULL s: rank 0 failed before. */
int analyze_ranks_end(analyze_ranks *s, int status);

/* A rank other than 0: its share of the kernels of `trace`, sent to rank 0;
 * the job's status (0 unless this rank failed). */
int analyze_ranks_send(const char *trace, int ignore_cache_ops, const gpu_config *config,
                       analysis_options options);

#endif
