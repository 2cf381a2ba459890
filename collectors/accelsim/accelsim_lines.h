/* collectors/accelsim/accelsim_lines.h: one Accel-Sim instruction line.
 *
 * The tracer (tracer_tool.cu) writes, separated by spaces:
 *   [cta_x cta_y cta_z warp]  only in raw .trace files (and .traceg < v3)
 *   [line]                    decimal, only with "-enable lineinfo = 1"
 *   pc mask                   hex (%04x, %08x)
 *   dest_num [Rn...] opcode src_num [Rn...]
 *   mem_width                 decimal bytes; 0 = not a memory instruction
 *   mode addresses            0: one hex address per active lane
 *                             1: hex base, decimal stride (contiguous mask)
 *                             2: hex base, popcount(mask)-1 decimal deltas,
 *                                each from the previous active lane
 *   [imm]                     tracer v5 and later
 * Lanes outside the mask get address 0. */
#ifndef WS_ACCELSIM_LINES_H
#define WS_ACCELSIM_LINES_H

#include <stdint.h>
#include <stdio.h>

#include "formats/trace.h"
#include "util/error.h"

#define ACCELSIM_OPCODE_MAX 64
/* R0 .. R254 are registers; R255 is RZ, which reads 0 and is never
 * written, so it carries no dependency. */
#define ACCELSIM_REGISTERS 255
/* Accel-Sim's parser keeps at most 4 source registers an instruction
 * (trace_parser.h, MAX_SRC): what export writes on one line. */
#define ACCELSIM_MAX_SOURCES 4

enum { ACCELSIM_LIST = 0, ACCELSIM_BASE_STRIDE = 1, ACCELSIM_BASE_DELTA = 2 };

typedef struct accelsim_line_format {
    uint8_t leading_ids;     /* cta x y z and warp come first */
    uint8_t lineinfo;        /* a source line number precedes the PC */
    uint8_t trailing_fields; /* fields allowed after the addresses */
} accelsim_line_format;

typedef struct accelsim_inst {
    uint32_t cta[3], warp; /* when leading_ids */
    uint32_t line;
    uint64_t pc;
    uint32_t mask;
    char opcode[ACCELSIM_OPCODE_MAX];
    /* Register operands, -1 for one that carries no dependency (RZ, or not
     * an R register); the import reads them for docs/metrics.md §12. */
    uint8_t dest_count, src_count;
    int16_t dests[WST_WARP_SIZE], srcs[WST_WARP_SIZE];
    unsigned mem_width;
    uint64_t addr[WST_WARP_SIZE];
} accelsim_inst;

/* Parses text (one line, no newline); -1 with a message naming what is
 * wrong (without file or line: the caller adds them). */
int accelsim_inst_parse(const char *text, const accelsim_line_format *format,
                        accelsim_inst *out, ws_error *err);

/* An instruction's registers as export writes them: dest >= 0 is the one
 * destination register "1 R<dest>", dest < 0 none; then the sources. */
typedef struct accelsim_regs {
    int dest;
    unsigned src_count; /* at most ACCELSIM_MAX_SOURCES */
    int srcs[ACCELSIM_MAX_SOURCES];
} accelsim_regs;

/* Writes rec as one line the way the tracer compresses addresses: base +
 * stride for a contiguous mask of 2+ lanes with a constant 32-bit stride,
 * else base + deltas; mask 0 as "1 0x0 0". */
void accelsim_inst_write(FILE *out, const accelsim_line_format *format, uint32_t line,
                         uint64_t pc, const char *opcode, const accelsim_regs *regs,
                         const wst_record *rec);

/* Writes a non-memory instruction of the lanes in mask: an integer add
 * (IADD3) with regs. */
void accelsim_alu_write(FILE *out, const accelsim_line_format *format, uint32_t line,
                        uint64_t pc, uint32_t mask, const accelsim_regs *regs);

/* Writes an EXIT of the lanes in mask: no registers, no memory. */
void accelsim_exit_write(FILE *out, const accelsim_line_format *format, uint32_t line,
                         uint64_t pc, uint32_t mask);

#endif
