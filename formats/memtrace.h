/* formats/memtrace.h: a whole trace held in memory.
 *
 * For tests and small inputs only (memory grows with the trace).  It is a
 * sink, so any collector can record into it, and records keep arrival order
 * per kernel, which tests use to compare a written-then-read trace. */
#ifndef WS_MEMTRACE_H
#define WS_MEMTRACE_H

#include "formats/sink.h"
#include "formats/trace.h"

typedef struct wst_memkernel_records {
    wst_record *records;
    size_t count, capacity;
} wst_memkernel_records;

typedef struct wst_memtrace {
    wst_trace trace;                  /* kernels with their PC tables */
    wst_memkernel_records *per_kernel; /* [trace.kernel_count] */
} wst_memtrace;

wst_memtrace *wst_memtrace_new(const wst_origin *origin);
void wst_memtrace_free(wst_memtrace *m);
wst_sink wst_memtrace_sink(wst_memtrace *m);

#endif
