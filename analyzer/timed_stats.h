/* analyzer/timed_stats.h: what the timed replay's clock measures
 * (docs/metrics.md §12): cycles, instructions and the cycles each warp
 * scheduler could not issue, by cause.  Figures of the model, never of a
 * GPU (docs/metrics.md §11). */
#ifndef WS_TIMED_STATS_H
#define WS_TIMED_STATS_H

#include <stdint.h>

/* Why a scheduler issued nothing in a cycle, the first that holds:
 *   no_warp     it has no warp with instructions left;
 *   throttled   a warp could issue but the warp order held it back
 *               (swl, pcal, tuple, ccws: docs/metrics.md §9);
 *   pipeline    a warp's next memory instruction waits for its SM's LD/ST
 *               unit, which is busy or stalled on a full MSHR table, a merge
 *               cap or a set whose lines are all pending (reservation fail);
 *   memory      every warp waits for loads it depends on. */
typedef enum stall_cause {
    STALL_MEMORY,
    STALL_PIPELINE,
    STALL_THROTTLED,
    STALL_NO_WARP,
    STALL_CAUSES
} stall_cause;

extern const char *const stall_cause_names[STALL_CAUSES];

typedef struct timed_kernel {
    uint64_t start_cycle, end_cycle;   /* end: its last CTA retired */
    uint64_t instructions;             /* warp instructions issued, the gaps' included */
    uint64_t memory_instructions;      /* the trace's records among them */
    uint64_t issue_cycles;             /* scheduler-cycles that issued */
    uint64_t stalls[STALL_CAUSES];     /* scheduler-cycles that did not, by cause */
} timed_kernel;

#endif
