/* tests/workload_record.h: run a workload in the emulator into memory. */
#ifndef WS_TEST_WORKLOAD_RECORD_H
#define WS_TEST_WORKLOAD_RECORD_H

#include "collectors/workloads/workloads.h"
#include "formats/memtrace.h"

/* Asserts that the run succeeds (with the workload's own message). */
wst_memtrace *test_record_workload(const char *name, workload_size size, uint64_t seed, int verify);
/* The same, recording the timing the ports state when `timing` (as
 * `warpscope record --timing` does). */
wst_memtrace *test_record_workload_timing(const char *name, workload_size size, uint64_t seed,
                                          int verify, int timing);

#endif
