/* analyzer/pc_monitor.h: S2's per-PC locality monitor (S2 §4.1, docs/metrics.md §4,
 * §9), shared by LCM's bypass and coalescing (analyzer/stages/lcm.c) and
 * LWS's warp order (analyzer/warp_orders/lws.c).
 *
 * It follows an L1's line generations per SM (analyzer/locality.h, fed
 * fill, hit and eviction events) and closes an observation on eviction or
 * once Tot reaches T.  A closed observation decides the PC that filled the
 * line on that SM; a PC is decided by its last closed observation, and is
 * undecided until its first.  Two decision tables are kept side by side:
 * every warp's observations, and those of S2's single monitored warp (the
 * fill's `monitored` flag). */
#ifndef WS_PC_MONITOR_H
#define WS_PC_MONITOR_H

#include <stdint.h>

#include "analyzer/locality.h"
#include "util/error.h"

#define PC_UNDECIDED 0xFF

typedef enum pc_monitor_table { PC_EVERY_WARP, PC_ONE_WARP, PC_TABLES } pc_monitor_table;

/* The current kernel's changes of side, per table: a PC turning streaming
 * (from undecided or another class), and back from streaming. */
typedef struct pc_monitor_turns {
    uint64_t to_streaming, back;
} pc_monitor_turns;

typedef struct pc_monitor pc_monitor;

pc_monitor *pc_monitor_new(uint32_t sms, uint32_t threshold, ws_error *err);
void pc_monitor_free(pc_monitor *m);
/* A kernel with PCs 0..pc_count-1 starts: every PC undecided, no line
 * watched, the counts at zero. */
int pc_monitor_begin_kernel(pc_monitor *m, uint32_t pc_count, ws_error *err);

int pc_monitor_fill(pc_monitor *m, uint32_t sm, uint64_t line, uint32_t warp, uint32_t pc,
                    int monitored, ws_error *err);
/* A use of a line (a hit, or a request served by it); ignored unless an
 * observation of it is open. */
void pc_monitor_use(pc_monitor *m, uint32_t sm, uint64_t line, uint32_t warp);
void pc_monitor_evict(pc_monitor *m, uint32_t sm, uint64_t line);

/* The PC's class on sm by that table's last closed observation, or
 * PC_UNDECIDED (a pc outside the kernel's is undecided). */
uint8_t pc_monitor_decision(const pc_monitor *m, pc_monitor_table t, uint32_t sm, uint32_t pc);
pc_monitor_turns pc_monitor_turns_of(const pc_monitor *m, pc_monitor_table t);
/* The current kernel's closed observations per PC: every warp's
 * (generations) and the monitored warp's (monitored_generations). */
const locality_pc *pc_monitor_pcs(const pc_monitor *m, uint32_t *pc_count);

#endif
