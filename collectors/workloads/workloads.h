/* collectors/workloads/workloads.h: the embedded benchmark kernels.
 *
 * Each workload is one file, a port of a kernel from the suites the source
 * papers evaluate (PolyBench/GPU, Rodinia, SHOC), keeping the original CUDA
 * indexing.  Inputs are generated from the seed, every launch of a
 * multi-kernel application is recorded in order, and `verify` compares the
 * output with a plain CPU reference (the tests use it). */
#ifndef WS_WORKLOADS_H
#define WS_WORKLOADS_H

#include <stdint.h>

#include "collectors/emu/emu.h"
#include "util/progress.h"

typedef enum workload_size { SIZE_SMALL = 0, SIZE_MEDIUM, SIZE_LARGE, SIZE_COUNT } workload_size;

typedef struct workload {
    const char *name;
    const char *suite;       /* "polybench", "rodinia", "shoc" */
    const char *kernels;     /* kernel names, comma separated */
    const char *description; /* one line */
    const char *sizes[SIZE_COUNT]; /* what each size means, e.g. "N=64" */
    /* Runs the application on e; with verify, checks the output against the
     * CPU reference and fails with a message on a mismatch. */
    int (*run)(emu *e, workload_size size, uint64_t seed, int verify, ws_error *err);
} workload;

const workload *workload_find(const char *name);
/* Same, failing with a message that lists the workloads. */
const workload *workload_lookup(const char *name, ws_error *err);
const workload *workload_at(unsigned index); /* NULL past the end */
const char *workload_size_name(workload_size size);
int workload_size_parse(const char *text); /* -1 if unknown */

/* Helpers shared by the ports. */
uint64_t workload_rand(uint64_t *state);       /* splitmix64 */
float workload_rand_float(uint64_t *state);    /* uniform in [0, 1) */
/* |got - want| <= tolerance × max(1, |want|) for n floats; the first
 * mismatch is reported as "<what>[i]: got x, expected y". */
int workload_check_floats(const char *what, const float *got, const float *want, uint64_t n,
                          float tolerance, ws_error *err);

/* PolyBench/GPU launch shapes: 1-D blocks of 256 threads over n, and 2-D
 * blocks of 32×8 over nx × ny (x = columns). */
int workload_launch_1d(emu *e, const char *name, unsigned n, emu_kernel_fn kernel,
                       const void *args, ws_error *err);
int workload_launch_2d(emu *e, const char *name, unsigned nx, unsigned ny, emu_kernel_fn kernel,
                       const void *args, ws_error *err);
/* workload_launch_1d for a kernel that states its timing (emu_launch's
 * `timed`). */
int workload_launch_timed_1d(emu *e, const char *name, unsigned n, emu_kernel_fn kernel,
                             const void *args, ws_error *err);
/* workload_launch_2d for a kernel that states its timing. */
int workload_launch_timed_2d(emu *e, const char *name, unsigned nx, unsigned ny,
                             emu_kernel_fn kernel, const void *args, ws_error *err);
/* n floats of device memory filled from the seed state, or NULL when full;
 * *copy (if not NULL) gets a host copy for the CPU reference. */
float *workload_random_floats(emu *e, size_t n, uint64_t *state, float **copy);

/* record_workload's flags: check the kernels' output; record the timing
 * the ports state (docs/cuda-workloads.md, "Timing"). */
enum { RECORD_VERIFY = 1, RECORD_TIMING = 2 };

/* Runs workload `name` in the emulator and writes its trace to out_path
 * (streaming, through the .wst writer), counting the records written on bar
 * (NULL: none).  Unknown names are reported with the list of workloads. */
int record_workload(const char *name, workload_size size, uint64_t seed, int flags,
                    const char *out_path, progress *bar, ws_error *err);

/* What `record --verify` checked of the trace it wrote, read back whole:
 * the records and a checksum of their contents on both sides. */
typedef struct record_check {
    uint32_t kernels;
    uint64_t ctas;
    uint64_t records_written, records_read;
    uint64_t digest_written, digest_read;
} record_check;

/* record_workload, then (check not NULL) the trace read back and compared
 * with what was written: -1 with err set when they differ. */
int record_workload_checked(const char *name, workload_size size, uint64_t seed, int flags,
                            const char *out_path, progress *bar, record_check *check,
                            ws_error *err);

/* Default workload for the demo and `profile`. */
#define WORKLOAD_DEFAULT "gaussian"

/* Timing (docs/cuda-workloads.md, "Timing"): the thread's next access
 * follows `gap` non-memory instructions, which use the value the thread
 * loaded last.  A port states its timing on the lines of its accesses, so
 * that their line numbers, which make the PCs, stay as they were. */
static inline void workload_used(emu_thread *t, uint32_t gap)
{
    emu_use(t, emu_loaded(t));
    emu_gap(t, gap);
}

/* workload_used inside an expression: returns the value an `if` tests. */
static inline int workload_tested(emu_thread *t, uint32_t gap, int value)
{
    workload_used(t, gap);
    return value;
}

/* The same, the instructions using `first` too (the two operands of an
 * fma, a product, a bounds check). */
static inline void workload_use_loaded(emu_thread *t, emu_value first, uint32_t gap)
{
    emu_use(t, first);
    workload_used(t, gap);
}

/* Loads whose values an unrolled loop's arithmetic uses later, in their
 * order: the port keeps them in `loaded` and states the first `upto` of them
 * used (those it has not stated yet), where the SASS uses them. */
static inline void workload_use_upto(emu_thread *t, const emu_value *loaded, unsigned *used,
                                     unsigned upto)
{
    for (; *used < upto; (*used)++)
        emu_use(t, loaded[*used]);
}

#endif
