/* collectors/accelsim/accelsim_deps.h: a record's timing (docs/metrics.md
 * §12) from an Accel-Sim trace's instructions and registers.
 *
 * An Accel-Sim trace lists every instruction of a warp with its registers,
 * so the import knows both halves exactly:
 * - gap: the warp's instructions between two of its records that are not
 *   records themselves (arithmetic, branches, shared-memory and constant
 *   accesses, ...);
 * - waits: the earlier loads (loads and atomics: the records that return
 *   data) whose destination registers the record, or an instruction in its
 *   gap, reads.  Per warp and register, the tracker keeps which load wrote
 *   the register last; any other write of it breaks the link, since what
 *   the register then holds no longer waits on memory.
 * A load of 8 or 16 bytes a lane writes 2 or 4 consecutive registers (the
 * trace names the first); RZ carries nothing.  docs/accelsim.md, "Timing". */
#ifndef WS_ACCELSIM_DEPS_H
#define WS_ACCELSIM_DEPS_H

#include <stdint.h>

#include "collectors/accelsim/accelsim_lines.h"
#include "formats/trace.h"
#include "util/u64map.h"

typedef struct accelsim_warp_deps {
    uint32_t gap;     /* non-record instructions since the warp's last record */
    uint32_t pending; /* waits read by those instructions */
    uint32_t loads;   /* the warp's loads and atomics so far */
    uint32_t writer[ACCELSIM_REGISTERS]; /* 1 + the load that last wrote Rn; 0: none */
} accelsim_warp_deps;

/* Every warp a kernel has running, by CTA and warp: a .traceg has one at a
 * time, a raw .trace interleaves them. */
typedef struct accelsim_deps {
    u64map index; /* cta << 32 | warp -> states[] */
    accelsim_warp_deps *states;
    uint32_t count, capacity;
    uint32_t *free_slots; /* released states, reused first */
    uint32_t free_count;
} accelsim_deps;

/* The state of (cta, warp), new and empty if it had none; NULL on out of
 * memory. */
accelsim_warp_deps *accelsim_deps_of(accelsim_deps *d, uint32_t cta, uint32_t warp);
/* Forgets (cta, warp): its warp has ended. */
void accelsim_deps_release(accelsim_deps *d, uint32_t cta, uint32_t warp);
void accelsim_deps_free(accelsim_deps *d);

/* An instruction that makes no record: one more of the gap. */
void accelsim_deps_other(accelsim_warp_deps *w, const accelsim_inst *inst);
/* inst makes record rec (its kind and size set): fills rec's gap and
 * waits, and starts the next gap. */
void accelsim_deps_record(accelsim_warp_deps *w, const accelsim_inst *inst, wst_record *rec);

#endif
