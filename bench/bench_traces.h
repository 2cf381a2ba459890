/* bench/bench_traces.h: the emulated traces the benchmarks share.
 *
 * Large traces take tens of seconds to record, so a benchmark that only
 * reads one takes it from build/bench-traces if an earlier benchmark of the
 * same `make bench` left it there (scripts/bench.sh empties the directory
 * first), and records it otherwise. */
#ifndef WS_BENCH_TRACES_H
#define WS_BENCH_TRACES_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collectors/workloads/workloads.h"

#define BENCH_TRACE_DIR "build/bench-traces"

static inline void bench_trace_path(const char *name, workload_size size, char *path,
                                    size_t cap)
{
    snprintf(path, cap, BENCH_TRACE_DIR "/%s-%s.wst", name, workload_size_name(size));
}

/* Records the trace into the shared directory (replacing any there). */
static inline void bench_trace_record(const char *name, workload_size size, char *path,
                                      size_t cap)
{
    mkdir("build", 0777);
    mkdir(BENCH_TRACE_DIR, 0777);
    bench_trace_path(name, size, path, cap);
    char partial[512];
    snprintf(partial, sizeof partial, "%s.%d.partial", path, (int)getpid());
    ws_error err;
    if (record_workload(name, size, 1, 0, partial, NULL, &err) != 0 || rename(partial, path) != 0) {
        fprintf(stderr, "bench: recording %s: %s\n", name, err.msg);
        unlink(partial);
        exit(1);
    }
}

/* The shared trace, recorded now if no earlier benchmark left it. */
static inline void bench_trace(const char *name, workload_size size, char *path, size_t cap)
{
    struct stat st;
    bench_trace_path(name, size, path, cap);
    if (stat(path, &st) != 0)
        bench_trace_record(name, size, path, cap);
}

#endif
