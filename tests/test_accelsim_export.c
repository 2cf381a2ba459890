/* tests/test_accelsim_export.c: writing Accel-Sim lines and opcodes reads
 * back to the same record (the per-line half of export-then-import). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/accelsim/accelsim_lines.h"
#include "collectors/accelsim/accelsim_opcode.h"

/* Small deterministic generator (xorshift64*), so failures reproduce. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    return *state * 2685821657736338717ull;
}

/* Masks and addresses that exercise every address mode: contiguous runs
 * with a constant stride, broadcasts, scattered lanes, negative deltas,
 * strides too wide for 32 bits, and mask 0. */
static void random_record(uint64_t *s, wst_record *rec)
{
    static const unsigned sizes[] = {1, 2, 4, 8, 16};
    memset(rec, 0, sizeof *rec);
    rec->kind = next_random(s) % 3;
    rec->space = rec->kind == WST_ATOMIC ? WST_GLOBAL : next_random(s) % 2;
    rec->cache_op = next_random(s) % WST_OP_COUNT;
    rec->size = sizes[next_random(s) % 5];
    switch (next_random(s) % 4) {
    case 0: rec->mask = 0xffffffffu; break;
    case 1: rec->mask = 0xffffu << (next_random(s) % 17); break;
    case 2: rec->mask = (uint32_t)next_random(s); break;
    default: rec->mask = next_random(s) % 8 == 0 ? 0 : 1u << (next_random(s) % 32); break;
    }
    uint64_t base = next_random(s) >> (next_random(s) % 2 ? 16 : 0);
    int64_t stride = next_random(s) % 3 == 0 ? (int64_t)(next_random(s) >> 20) : rec->size;
    int regular = next_random(s) % 2;
    for (int lane = 0; lane < WST_WARP_SIZE; lane++)
        if (rec->mask >> lane & 1)
            rec->addr[lane] = regular ? base + (uint64_t)stride * (uint64_t)lane
                                      : next_random(s);
}

Test(accelsim_export, written_lines_parse_back_identically)
{
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 5000; i++) {
        wst_record rec;
        random_record(&state, &rec);
        char opcode[ACCELSIM_OPCODE_MAX];
        accelsim_opcode_synthesize(&rec, opcode, sizeof opcode);
        accelsim_line_format format = {.lineinfo = i % 2};
        char *text = NULL;
        size_t len = 0;
        FILE *out = open_memstream(&text, &len);
        accelsim_inst_write(out, &format, 7 + i, 0x10 + 8 * (uint64_t)i, opcode, &rec);
        fclose(out);
        text[strcspn(text, "\n")] = '\0';

        accelsim_inst inst;
        ws_error err = {{0}};
        cr_assert_eq(accelsim_inst_parse(text, &format, &inst, &err), 0, "%s: %s", text,
                     err.msg);
        cr_assert_eq(inst.pc, 0x10 + 8 * (uint64_t)i);
        cr_assert_eq(inst.line, format.lineinfo ? 7u + i : 0u);
        cr_assert_eq(inst.mask, rec.mask);
        cr_assert_eq(inst.mem_width, rec.size);
        cr_assert_str_eq(inst.opcode, opcode);
        for (int lane = 0; lane < WST_WARP_SIZE; lane++)
            if (rec.mask >> lane & 1)
                cr_assert_eq(inst.addr[lane], rec.addr[lane], "%s lane %d", text, lane);

        accelsim_opcode op;
        accelsim_opcode_classify(opcode, &op);
        cr_assert_eq(op.kind, rec.kind, "%s", opcode);
        cr_assert_eq(op.cache_op, rec.cache_op, "%s", opcode);
        cr_assert_eq(op.space == ACCELSIM_LOCAL ? WST_LOCAL : WST_GLOBAL, rec.space, "%s", opcode);
        accelsim_windows none = {0};
        cr_assert(accelsim_opcode_fits(opcode, &rec, &none), "%s does not fit its record", opcode);
        free(text);
    }
}

Test(accelsim_export, address_mode_follows_the_tracer)
{
    wst_record rec = {.mask = 0xf0, .size = 4};
    for (int lane = 4; lane < 8; lane++)
        rec.addr[lane] = 0x1000 + 4 * (uint64_t)(lane - 4);
    accelsim_line_format format = {0};
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    accelsim_inst_write(out, &format, 0, 0x98, "LDG.E", &rec);  /* base + stride */
    rec.addr[7] = 0x0ff0;
    accelsim_inst_write(out, &format, 0, 0x98, "LDG.E", &rec);  /* base + deltas */
    rec.mask = 0;
    accelsim_inst_write(out, &format, 0, 0x98, "LDG.E", &rec);  /* no lanes */
    fclose(out);
    cr_assert_str_eq(text, "0098 000000f0 0 LDG.E 0 4 1 0x1000 4 \n"
                           "0098 000000f0 0 LDG.E 0 4 2 0x1000 4 4 -24 \n"
                           "0098 00000000 0 LDG.E 0 4 1 0x0 0 \n");
    free(text);
}

/* An opcode is kept only where Accel-Sim (trace_driven.cc, trace_parser.cc)
 * runs it as the record says: an sm_70 opcode, the width it reads from the
 * opcode, and L1 skipped (.STRONG.GPU on LDG/LDL) exactly for global cg/cv
 * loads. */
Test(accelsim_export, opcodes_are_kept_where_accelsim_runs_them_as_recorded)
{
    accelsim_windows none = {0};
    wst_record rec = {.kind = WST_LOAD, .space = WST_GLOBAL, .size = 4, .mask = 1};
    cr_assert(accelsim_opcode_fits("LDG.E", &rec, &none));
    cr_assert(accelsim_opcode_fits("LD.E", &rec, &none));
    cr_assert_not(accelsim_opcode_fits("LDG.E.64", &rec, &none), "Accel-Sim reads 8 bytes");
    cr_assert_not(accelsim_opcode_fits("LDG.E.U8", &rec, &none), "Accel-Sim reads 1 byte");
    cr_assert_not(accelsim_opcode_fits("STG.E", &rec, &none));
    rec.size = 2;
    cr_assert_not(accelsim_opcode_fits("LDG.E.S16", &rec, &none), "Accel-Sim reads 4 bytes");
    cr_assert(accelsim_opcode_fits("LDG.E.U16", &rec, &none));
    rec.size = 16;
    rec.cache_op = WST_OP_CG;
    cr_assert(accelsim_opcode_fits("LDG.E.128.STRONG.GPU", &rec, &none));
    cr_assert_not(accelsim_opcode_fits("LDG.E.CG.128", &rec, &none), "Accel-Sim caches it");
    cr_assert_not(accelsim_opcode_fits("LDGSTS.E.BYPASS.128", &rec, &none), "not in sm_70");
    cr_assert_not(accelsim_opcode_fits("LD.E.128.STRONG.GPU", &rec, &none), "generic: cached");
    rec.size = 4;
    rec.cache_op = WST_OP_CV;
    cr_assert_not(accelsim_opcode_fits("LDG.E.STRONG.SYS", &rec, &none), "Accel-Sim caches it");
    cr_assert(accelsim_opcode_fits("LDG.E.CV.STRONG.GPU", &rec, &none));
    rec.space = WST_LOCAL;
    cr_assert(accelsim_opcode_fits("LDL.CV", &rec, &none));
    cr_assert_not(accelsim_opcode_fits("LDL.CV.STRONG.GPU", &rec, &none), "warpscope looks L1 up");
    rec.cache_op = WST_OP_CG;
    cr_assert_not(accelsim_opcode_fits("LDL.STRONG.GPU", &rec, &none), "warpscope looks L1 up");
    rec = (wst_record){.kind = WST_STORE, .space = WST_GLOBAL, .cache_op = WST_OP_CG, .size = 4};
    cr_assert(accelsim_opcode_fits("STG.E.STRONG.GPU", &rec, &none), "stores: suffix unused");
    cr_assert(accelsim_opcode_fits("STG.E.CG", &rec, &none));
    rec = (wst_record){.kind = WST_ATOMIC, .space = WST_GLOBAL, .size = 4};
    cr_assert(accelsim_opcode_fits("RED.E.ADD", &rec, &none));
    cr_assert_not(accelsim_opcode_fits("REDG.E.ADD", &rec, &none), "not in sm_70");
    rec.size = 8;
    cr_assert(accelsim_opcode_fits("ATOMG.E.EXCH.64", &rec, &none));

    accelsim_opcode op;
    accelsim_opcode_classify("LDG.E.U16.STRONG.GPU", &op);
    cr_assert(op.dest && op.skips_l1 && op.sm70 && op.width == 2 && op.cache_op == WST_OP_CG);
    accelsim_opcode_classify("RED.E.ADD.F32.FTZ.RN.STRONG.GPU", &op);
    cr_assert(!op.dest && op.skips_l1 && op.width == 4);
    accelsim_opcode_classify("STG.E.64", &op);
    cr_assert(!op.dest && !op.skips_l1 && op.width == 8);
}

Test(accelsim_export, generic_windows_resolve)
{
    accelsim_windows w = {.shared_base = 0x7f0001000000ull, .local_base = 0x7f0000000000ull};
    cr_assert_eq(accelsim_resolve_generic(&w, 0x7f0000000000ull), WST_LOCAL);
    cr_assert_eq(accelsim_resolve_generic(&w, 0x7f0000ffffffull), WST_LOCAL);
    cr_assert_eq(accelsim_resolve_generic(&w, 0x7f0001000000ull), -1);
    cr_assert_eq(accelsim_resolve_generic(&w, 0x7f0001ffffffull), -1);
    cr_assert_eq(accelsim_resolve_generic(&w, 0x7f0002000000ull), WST_GLOBAL);
    cr_assert_eq(accelsim_resolve_generic(&w, 0x1000), WST_GLOBAL);
    accelsim_windows none = {0};
    cr_assert_eq(accelsim_resolve_generic(&none, 0x40), WST_GLOBAL);
}
