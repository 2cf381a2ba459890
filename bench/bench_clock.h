/* bench/bench_clock.h: the benchmarks' clocks, defined once. */
#ifndef WS_BENCH_CLOCK_H
#define WS_BENCH_CLOCK_H

#include <time.h>

/* Wall seconds, monotonic: what a benchmark's own loop took. */
static inline double bench_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The process's CPU time in ms: what the core gave it, whatever else ran
 * (bench_core_speed.c). */
static inline double bench_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

#endif
