/* collectors/emu/emu_timing.h: the timing a port states (docs/metrics.md
 * §12, docs/emulator.md "Timing"), kept per lane and turned into each warp
 * record's gap and waits when the lanes' logs are merged into warps.
 *
 * A thread says, as it runs, how many non-memory instructions come before
 * its next access (emu_gap) and which earlier loads' values its next access
 * or those instructions use (emu_use, naming the value emu_loaded gave).
 * A value is named by a handle, the thread's access count when it was
 * loaded, so a value loaded before a barrier and used after it (stored to
 * shared memory, say) is still found.  When the warp's records are formed,
 * a record's gap is its lanes' largest, and its waits the union of its
 * lanes' uses, each as how many loads of the warp back it was. */
#ifndef WS_EMU_TIMING_H
#define WS_EMU_TIMING_H

#include <stddef.h>
#include <stdint.h>

/* What one logged access carries. */
typedef struct emu_access_timing {
    uint32_t gap;      /* the lane's non-memory instructions before it */
    uint32_t uses_end; /* its uses are the lane's uses[previous uses_end .. uses_end) */
} emu_access_timing;

typedef struct emu_lane_timing {
    uint32_t base;        /* the handle of the log's first access */
    uint32_t pending_gap; /* stated since the lane's last access */
    uint32_t uses_begin;  /* where the log's first access's uses start */
    uint32_t *uses;       /* handles, in the order stated */
    size_t use_count, use_capacity;
    uint32_t *ordinals;   /* per handle: the warp's load that carried it, or EMU_NO_LOAD */
    size_t ordinal_capacity;
    uint32_t logged;      /* handles logged so far */
} emu_lane_timing;

#define EMU_NO_LOAD UINT32_MAX

/* A thread starts. */
void emu_lane_timing_reset(emu_lane_timing *l);
void emu_lane_timing_free(emu_lane_timing *l);

/* The lane logs its access `handle` (its access count so far): *out takes
 * the gap and uses stated since its last one.  -1 on out of memory. */
int emu_lane_timing_log(emu_lane_timing *l, uint32_t handle, emu_access_timing *out);
/* emu_use and emu_gap, for the lane's next access. */
int emu_lane_timing_use(emu_lane_timing *l, uint32_t handle);
void emu_lane_timing_gap(emu_lane_timing *l, uint32_t instructions);

/* The waits bits of uses [begin, end) of the lane, the warp having issued
 * `warp_loads` loads so far. */
uint32_t emu_lane_timing_waits(const emu_lane_timing *l, uint32_t begin, uint32_t end,
                               uint32_t warp_loads);
/* Access `handle` went out as the warp's load `ordinal` (from 0). */
static inline void emu_lane_timing_loaded(emu_lane_timing *l, uint32_t handle, uint32_t ordinal)
{
    l->ordinals[handle] = ordinal;
}
/* The lane's `logged` accesses were merged, the last one's uses ending at
 * last_uses_end: the next log starts after them. */
void emu_lane_timing_next_log(emu_lane_timing *l, uint32_t logged, uint32_t last_uses_end);

#endif
