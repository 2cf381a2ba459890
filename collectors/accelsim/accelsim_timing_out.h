/* collectors/accelsim/accelsim_timing_out.h: a record's timing
 * (docs/metrics.md §12) written as Accel-Sim instructions and registers,
 * so that Accel-Sim runs the program the trace describes and importing the
 * export gives the same gaps and waits back (accelsim_deps.h).
 *
 * - Loads (and atomics with a result) write R0..R63 in turn: the warp's
 *   n-th load writes R(n mod 64).  The 32 most recent loads, all a waits
 *   mask can name, therefore each hold a register of their own, and a load
 *   waits behind another (Accel-Sim's scoreboard: a destination still
 *   reserved) only 64 loads later.
 * - A record that waits on load i reads i's register: bit i (i < 31) the
 *   load i + 1 back, bit 31 the one 32 back.
 * - The gap is that many integer adds (IADD3) before the record, each
 *   writing a scratch register of its own (R64..R254 in turn, so none
 *   waits on another's write) at a PC past the kernel's code.
 * - Accel-Sim keeps at most 4 source registers an instruction, so the
 *   registers a record waits on go on its own line first and then on the
 *   last instructions of its gap, 4 each.  A record that waits on more
 *   loads than 4 × (gap + 1) has the rest dropped (no trace an import
 *   made does: each of its instructions read at most 4 registers).  A
 *   record without waits (a blocking load) waits on as many of the most
 *   recent loads as fit. */
#ifndef WS_ACCELSIM_TIMING_OUT_H
#define WS_ACCELSIM_TIMING_OUT_H

#include <stdint.h>
#include <stdio.h>

#include "collectors/accelsim/accelsim_lines.h"

#define ACCELSIM_LOAD_REGS 64

typedef struct accelsim_timing_out {
    uint32_t loads;                       /* the warp's loads and atomics so far */
    uint8_t wrote[ACCELSIM_LOAD_REGS];    /* load n (mod 64) has a destination register */
    uint32_t scratch;                     /* the next scratch register, from 0 */
} accelsim_timing_out;

/* A warp starts: no loads yet. */
void accelsim_timing_out_begin(accelsim_timing_out *t);

/* Writes rec's gap instructions (at gap_pc, lanes as the mask) and sets
 * *regs for rec's own line; returns_data and has_dest say whether rec is
 * a load or atomic and whether it names a destination register (a RED
 * does not). */
void accelsim_timing_out_record(accelsim_timing_out *t, FILE *out,
                                const accelsim_line_format *format, uint64_t gap_pc,
                                uint32_t lanes, const wst_record *rec, int returns_data,
                                int has_dest, accelsim_regs *regs);

#endif
