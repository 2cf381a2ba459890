/* collectors/nvbit/host/nvbit_deps.h: a record's timing (docs/metrics.md
 * §12) in the NVBit collector (docs/nvbit.md, "Timing").
 *
 * Two halves:
 * - static, once per instrumented function, over its SASS instructions in
 *   code order: each traced memory instruction's gap (the instructions
 *   since the previous traced one) and the traced loads whose destination
 *   registers it, or an instruction of its gap, reads (per register, the
 *   load that wrote it last; any other write breaks the link);
 * - dynamic, per packet: those static loads become "how many loads of this
 *   warp back", from each one's latest execution by the warp, so a loop
 *   that uses the previous iteration's value gets it right.
 * Registers come from the SASS text (R0..R254; RZ carries nothing), with
 * NVBit's operand types saying whether the first operand is written. */
#ifndef WS_NVBIT_DEPS_H
#define WS_NVBIT_DEPS_H

#include <stdint.h>

#include "formats/trace.h"
#include "util/u64map.h"

/* The traced loads an instruction waits on, by instruction id: at most
 * this many (an instruction reads a few registers; more are dropped). */
#define WS_NVBIT_MAX_WAITS_ON 8
#define WS_NVBIT_REGISTERS 255

typedef struct ws_nvbit_timing {
    uint32_t gap;
    uint32_t waits_on_count;
    uint32_t waits_on[WS_NVBIT_MAX_WAITS_ON];
} ws_nvbit_timing;

/* The static pass over one function. */
typedef struct ws_nvbit_static {
    ws_nvbit_timing next;                 /* of the next traced instruction, so far */
    uint32_t writer[WS_NVBIT_REGISTERS];  /* 1 + the traced load that wrote Rn; 0: none */
} ws_nvbit_static;

void ws_nvbit_static_begin(ws_nvbit_static *s);
/* The function's next instruction: its SASS text, whether its first
 * operand is a register it writes (NVBit: operand 0 of type REG), and
 * whether it is traced (then *out is its timing) and returns data (a load
 * or atomic, id its instruction id, size its bytes per lane). */
void ws_nvbit_static_instr(ws_nvbit_static *s, const char *sass, int writes_first, int traced,
                           int returns_data, uint32_t id, uint32_t size, ws_nvbit_timing *out);

/* The dynamic half, for one kernel launch. */
typedef struct ws_nvbit_deps {
    u64map warp_loads; /* warp -> its loads so far */
    u64map last_load;  /* (warp, instruction id) -> the warp's load it was last */
} ws_nvbit_deps;

int ws_nvbit_deps_init(ws_nvbit_deps *d);
void ws_nvbit_deps_clear(ws_nvbit_deps *d);
void ws_nvbit_deps_free(ws_nvbit_deps *d);
/* Instruction `id` (timing t) ran in (cta, warp) as record r: fills r's
 * gap and waits.  -1 on out of memory. */
int ws_nvbit_deps_record(ws_nvbit_deps *d, uint32_t cta, uint32_t warp, uint32_t id,
                         int returns_data, const ws_nvbit_timing *t, wst_record *r);

#endif
