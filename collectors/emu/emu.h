/* collectors/emu/emu.h: a CUDA-grid emulator that records per-warp memory
 * traces, so warpscope works without a GPU (see docs/emulator.md).
 *
 * A kernel is a C function run once per thread, with CUDA's built-ins in an
 * emu_thread.  Global memory comes from emu_malloc() and every traced access
 * goes through the EMU_* macros, which record (site, address) for the lane
 * and then perform the access on real memory, so kernels really compute:
 *
 *   static void vec_add(emu_thread *t)
 *   {
 *       const vec_args *a = t->args;
 *       unsigned i = t->blockIdx.x * t->blockDim.x + t->threadIdx.x;
 *       if (i >= a->n)
 *           return;                                   // early exit: a mask
 *       float x = EMU_LD(t, float, &a->x[i]);
 *       float y = EMU_LD(t, float, &a->y[i]);
 *       EMU_ST(t, float, &a->out[i], x + y);
 *   }
 *
 * Warp formation (the lockstep rule).  Threads run one at a time; each lane
 * keeps the list of its accesses since the CTA's last barrier.  A warp's
 * lists are then merged into warp instructions: each access gets a key
 * (epoch, pc), where pc is the site's offset (sites are numbered in source
 * order) and the lane's epoch grows by one at every backward jump (an access
 * whose pc is <= the lane's previous pc: a new loop iteration).  The merge
 * repeatedly issues the smallest key among the lanes' next accesses, as one
 * instruction for every lane whose next access has exactly that key.  This is
 * min-PC ("thread frontier") reconvergence made loop-aware (emu.c has the
 * exact rule): it matches a SIMT stack for if/else, early exit, if-bodies
 * skipped inside loops, loops with divergent trip counts, and nested loops.
 * One approximation remains: when an inner loop's first access is also the
 * first access of its outer loop body, the two loops share a header and are
 * seen as one, so with divergent inner trip counts lanes that finish the
 * inner loop early may issue the rest of the outer body before the others
 * (tests/test_emu.c pins this down).
 *
 * Barriers: a kernel launched with uses_barriers runs each thread as a
 * coroutine that yields at EMU_SYNC(); when every live thread of the CTA has
 * arrived (exited threads count as arrived), the warps' lists are merged and
 * emitted, and the threads resume.  Shared memory (t->shared) is real memory
 * and is not traced. */
#ifndef WS_EMU_H
#define WS_EMU_H

#include <stddef.h>
#include <stdint.h>

#include "formats/sink.h"
#include "util/error.h"

typedef struct emu_dim3 {
    uint32_t x, y, z;
} emu_dim3;

/* One static access site in kernel source (made by the EMU_* macros). */
typedef struct emu_site {
    const char *file;
    uint32_t line;
    uint32_t ordinal; /* __COUNTER__: orders sites on one line */
    uint8_t kind;     /* wst_kind */
    uint8_t space;    /* wst_space */
    uint8_t cache_op; /* wst_cache_op */
    uint8_t size;     /* bytes per lane */
    /* The PC index of this site in the current launch (managed by emu.c). */
    uint32_t launch_serial;
    uint32_t pc_index;
} emu_site;

typedef struct emu emu;
typedef struct emu_cta emu_cta;

/* What a kernel thread sees: CUDA's built-ins plus its arguments. */
typedef struct emu_thread {
    emu_dim3 threadIdx, blockIdx, blockDim, gridDim;
    const void *args;
    void *shared;     /* the CTA's shared memory, shared_bytes long */
    emu_cta *cta;     /* internal */
    uint32_t linear;  /* thread index inside the CTA */
} emu_thread;

typedef void (*emu_kernel_fn)(emu_thread *t);

typedef struct emu_launch {
    const char *name;
    emu_dim3 grid, block;
    uint32_t shared_bytes;
    uint32_t registers;  /* per thread, for occupancy; 0 = unknown */
    int uses_barriers;   /* the kernel calls EMU_SYNC */
    int timed;           /* the kernel states its timing (emu_gap, emu_use): docs/emulator.md;
                          * recorded when emu_set_timing is on */
    emu_kernel_fn kernel;
    const void *args;
} emu_launch;

/* The emulator writes to `sink`; the arena reserves `arena_bytes` of
 * address space (committed lazily by the OS). */
emu *emu_new(const wst_sink *sink, size_t arena_bytes, ws_error *err);
void emu_free(emu *e);

/* Device memory: zeroed, 256-byte aligned, at a deterministic device address
 * (DEVICE_BASE + offset in the arena), and listed in the trace's allocation
 * table.  NULL when the arena is full; when the sink cannot list it, the
 * next launch fails saying why. */
void *emu_malloc(emu *e, size_t bytes);
uint64_t emu_device_address(const emu *e, const void *host);

/* Runs a kernel over the grid, CTA by CTA, recording it as one kernel. */
int emu_launch_kernel(emu *e, const emu_launch *launch, ws_error *err);

/* Whether launches that state their timing (emu_launch's `timed`) record
 * it; off by default, so a trace stays as it was before timing existed
 * (`warpscope record --timing` turns it on). */
void emu_set_timing(emu *e, int on);

/* Records counted so far (all kernels). */
uint64_t emu_records(const emu *e);

/* ---- inside kernels ---- */

/* Records the access of the calling thread and returns ptr. */
void *emu_access(emu_thread *t, emu_site *site, const void *ptr);
/* __syncthreads(): only in kernels launched with uses_barriers. */
void emu_sync(emu_thread *t);

/* Timing (docs/metrics.md §12), in kernels launched with `timed` (and
 * recorded with emu_set_timing on); the
 * numbers come from the SASS of the port's CUDA program
 * (docs/cuda-workloads.md, "Timing").  A kernel without it records
 * blocking loads and no gaps.
 * - emu_gap(t, n): n non-memory instructions come before the thread's
 *   next access (they add up);
 * - emu_loaded(t): the value the thread's latest access loaded;
 * - emu_use(t, v): the thread's next access, or an instruction in its
 *   gap, uses v, so that access's record waits for v's load. */
typedef uint32_t emu_value;
emu_value emu_loaded(emu_thread *t);
void emu_use(emu_thread *t, emu_value value);
void emu_gap(emu_thread *t, uint32_t instructions);

#define EMU_SITE_(kind_, space_, op_, size_)                                               \
    ({                                                                                     \
        static emu_site site_ = {__FILE__, __LINE__, __COUNTER__, (kind_), (space_), (op_), \
                                 (size_), 0, 0};                                           \
        &site_;                                                                            \
    })

#define EMU_LD(t, type, ptr) \
    (*(const type *)emu_access((t), EMU_SITE_(WST_LOAD, WST_GLOBAL, WST_OP_DEFAULT, sizeof(type)), (ptr)))
#define EMU_LD_CG(t, type, ptr) \
    (*(const type *)emu_access((t), EMU_SITE_(WST_LOAD, WST_GLOBAL, WST_OP_CG, sizeof(type)), (ptr)))
#define EMU_ST(t, type, ptr, value) \
    (*(type *)emu_access((t), EMU_SITE_(WST_STORE, WST_GLOBAL, WST_OP_DEFAULT, sizeof(type)), (ptr)) = (value))
/* atomicAdd: returns the old value. */
#define EMU_ATOMIC_ADD(t, type, ptr, value)                                                       \
    ({                                                                                            \
        type *p_ = emu_access((t), EMU_SITE_(WST_ATOMIC, WST_GLOBAL, WST_OP_DEFAULT, sizeof(type)), \
                              (ptr));                                                             \
        type old_ = *p_;                                                                          \
        *p_ = old_ + (value);                                                                     \
        old_;                                                                                     \
    })
/* Local (per-thread) memory: ptr must point into t's EMU_LOCAL area. */
#define EMU_LDL(t, type, ptr) \
    (*(const type *)emu_access((t), EMU_SITE_(WST_LOAD, WST_LOCAL, WST_OP_DEFAULT, sizeof(type)), (ptr)))
#define EMU_STL(t, type, ptr, value) \
    (*(type *)emu_access((t), EMU_SITE_(WST_STORE, WST_LOCAL, WST_OP_DEFAULT, sizeof(type)), (ptr)) = (value))
#define EMU_SYNC(t) emu_sync(t)

/* Per-thread local memory, EMU_LOCAL_BYTES a thread, zeroed at thread start. */
#define EMU_LOCAL_BYTES 1024
void *emu_local(emu_thread *t);

#endif
