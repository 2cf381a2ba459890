/* collectors/accelsim/accelsim_timing_out.c: see accelsim_timing_out.h. */
#include "collectors/accelsim/accelsim_timing_out.h"

#include <string.h>

#define SCRATCH_FIRST ACCELSIM_LOAD_REGS
#define SCRATCH_REGS (ACCELSIM_REGISTERS - SCRATCH_FIRST)

void accelsim_timing_out_begin(accelsim_timing_out *t) { memset(t, 0, sizeof *t); }

/* The registers of the loads rec waits on, most recent first: at most
 * `room` of them. */
static unsigned wait_registers(const accelsim_timing_out *t, const wst_record *rec, int *regs,
                               unsigned room)
{
    /* A blocking load (no waits) waits on every load it can name. */
    uint32_t bits = rec->has_waits ? rec->waits : UINT32_MAX;
    unsigned n = 0;
    for (unsigned i = 0; i < 32 && n < room; i++) {
        uint32_t back = i + 1; /* bit 31: the load 32 back */
        if (!(bits >> i & 1) || back > t->loads)
            continue;
        uint32_t load = t->loads - back;
        if (t->wrote[load % ACCELSIM_LOAD_REGS])
            regs[n++] = (int)(load % ACCELSIM_LOAD_REGS);
    }
    return n;
}

void accelsim_timing_out_record(accelsim_timing_out *t, FILE *out,
                                const accelsim_line_format *format, uint64_t gap_pc,
                                uint32_t lanes, const wst_record *rec, int returns_data,
                                int has_dest, accelsim_regs *regs)
{
    /* Room: 4 on the record's line, 4 on each gap instruction (a gap past
     * 32 instructions has room for every bit). */
    uint64_t room = ((uint64_t)rec->gap + 1) * ACCELSIM_MAX_SOURCES;
    int waited[32];
    unsigned count = wait_registers(t, rec, waited, room < 32 ? (unsigned)room : 32);
    /* The record's line takes the first 4, the gap's last instructions the
     * rest, 4 each, the latest first. */
    unsigned on_record = count < ACCELSIM_MAX_SOURCES ? count : ACCELSIM_MAX_SOURCES;
    unsigned rest = count - on_record;
    uint32_t carrying = (rest + ACCELSIM_MAX_SOURCES - 1) / ACCELSIM_MAX_SOURCES;
    for (uint32_t g = 0; g < rec->gap; g++) {
        accelsim_regs alu = {.dest = SCRATCH_FIRST + (int)(t->scratch++ % SCRATCH_REGS)};
        uint32_t from_end = rec->gap - g; /* 1 for the last gap instruction */
        if (from_end <= carrying) {
            unsigned first = on_record + (from_end - 1) * ACCELSIM_MAX_SOURCES;
            for (unsigned i = first; i < count && alu.src_count < ACCELSIM_MAX_SOURCES; i++)
                alu.srcs[alu.src_count++] = waited[i];
        }
        accelsim_alu_write(out, format, 0, gap_pc, lanes, &alu);
    }
    *regs = (accelsim_regs){.dest = -1, .src_count = on_record};
    memcpy(regs->srcs, waited, on_record * sizeof *waited);
    if (returns_data) {
        uint32_t slot = t->loads % ACCELSIM_LOAD_REGS;
        t->wrote[slot] = (uint8_t)(has_dest != 0);
        if (has_dest)
            regs->dest = (int)slot;
        t->loads++;
    }
}
