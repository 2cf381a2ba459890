/* tests/test_accelsim_export.c: writing Accel-Sim lines and opcodes reads
 * back to the same record (the per-line half of export-then-import), and
 * exported kernels have the shape Accel-Sim's trace-driven simulator runs:
 * every warp of every CTA of the grid ending with an EXIT, a destination
 * register on every load, and L1 skipped exactly where warpscope skips it. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/accelsim/accelsim.h"
#include "collectors/accelsim/accelsim_lines.h"
#include "collectors/accelsim/accelsim_opcode.h"
#include "tests/accelsim_fixtures.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

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
        accelsim_inst_write(out, &format, 7 + i, 0x10 + 8 * (uint64_t)i, opcode,
                            &(accelsim_regs){.dest = i % 3 ? i % 255 : -1}, &rec);
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
    accelsim_inst_write(out, &format, 0, 0x98, "LDG.E", &(accelsim_regs){.dest = 3}, &rec);  /* base + stride */
    rec.addr[7] = 0x0ff0;
    accelsim_inst_write(out, &format, 0, 0x98, "STG.E", &(accelsim_regs){.dest = -1}, &rec); /* base + deltas */
    rec.mask = 0;
    accelsim_inst_write(out, &format, 0, 0x98, "LDG.E", &(accelsim_regs){.dest = 254}, &rec); /* no lanes */
    accelsim_exit_write(out, &format, 0, 0xa8, 0xffff);
    fclose(out);
    cr_assert_str_eq(text, "0098 000000f0 1 R3 LDG.E 0 4 1 0x1000 4 \n"
                           "0098 000000f0 0 STG.E 0 4 2 0x1000 4 4 -24 \n"
                           "0098 00000000 1 R254 LDG.E 0 4 1 0x0 0 \n"
                           "00a8 0000ffff 0 EXIT 0 0 \n");
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

/* ---- exported kernels, read the way Accel-Sim reads them ----------------- */

/* What check_kernel saw: the opcode written first at each PC. */
typedef struct seen_pcs {
    uint64_t pc[64];
    char opcode[64][ACCELSIM_OPCODE_MAX];
    unsigned count, loads, ctas, empty_warps_filled;
} seen_pcs;

static uint32_t lanes_of(uint64_t threads, uint32_t w)
{
    uint64_t n = threads - (uint64_t)w * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1;
}

/* Asserts the shape Accel-Sim needs (trace_parser.cc and trace_driven.cc):
 * one #BEGIN_TB per CTA of the grid in x, y, z order; in each, warps 0..W-1
 * in order, each with "insts = N", N >= 1, exactly N lines, the last and
 * only EXIT covering the warp's lanes; every load (and ATOM/ATOMG) with a
 * destination register R0..R254, consecutive ones in a warp different. */
static void check_kernel(const char *path, const wst_kernel *k, seen_pcs *seen)
{
    char *text = test_read_file(path, NULL);
    cr_assert_not_null(text, "%s", path);
    memset(seen, 0, sizeof *seen);
    int lineinfo = strstr(text, "-enable lineinfo = 1\n") != NULL;
    uint64_t threads = (uint64_t)k->block.x * k->block.y * k->block.z;
    uint32_t warps = (uint32_t)((threads + 31) / 32);
    uint32_t cta = 0, warp = 0;
    unsigned insts = 0, lines = 0;
    int in_tb = 0, in_warp = 0, exited = 0, last_dest = -1;
    char *save = NULL;
    for (char *line = strtok_r(strchr(text, '#'), "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        unsigned x, y, z, n;
        if (strncmp(line, "#BEGIN_TB", 9) == 0) {
            in_tb = 1;
            warp = 0;
        } else if (strncmp(line, "#END_TB", 7) == 0) {
            cr_assert(in_tb && in_warp && exited && lines == insts, "%s: CTA %u ends early", path, cta);
            cr_assert_eq(warp, warps, "%s: CTA %u lists %u of %u warps", path, cta, warp, warps);
            in_tb = in_warp = 0;
            cta++;
        } else if (sscanf(line, "thread block = %u,%u,%u", &x, &y, &z) == 3) {
            cr_assert_eq(x + y * k->grid.x + z * k->grid.x * k->grid.y, cta, "%s: %s", path, line);
        } else if (sscanf(line, "warp = %u", &n) == 1) {
            cr_assert(!in_warp || (exited && lines == insts), "%s: warp %u ends early", path, warp - 1);
            cr_assert_eq(n, warp, "%s: CTA %u: warp %u where %u was due", path, cta, n, warp);
            warp++;
            in_warp = 1;
            exited = 0;
            lines = 0;
            last_dest = -1;
        } else if (sscanf(line, "insts = %u", &insts) == 1) {
            cr_assert_geq(insts, 1, "%s: CTA %u warp %u has no instructions", path, cta, warp - 1);
            seen->empty_warps_filled += insts == 1;
        } else if (line[0] != '#' && line[0] != '-') {
            cr_assert(in_warp && !exited, "%s: instruction after the EXIT: %s", path, line);
            lines++;
            const char *p = line;
            if (lineinfo)
                p += strcspn(p, " ") + 1;
            unsigned long long pc;
            unsigned mask, dests;
            int used = 0;
            cr_assert_eq(sscanf(p, "%llx %x %u%n", &pc, &mask, &dests, &used), 3, "%s", line);
            p += used;
            int dest = -1;
            cr_assert_leq(dests, 1, "%s", line); /* Accel-Sim's MAX_DST */
            if (dests) {
                cr_assert_eq(sscanf(p, " R%d%n", &dest, &used), 1, "%s", line);
                p += used;
            }
            char opcode[ACCELSIM_OPCODE_MAX];
            cr_assert_eq(sscanf(p, " %63s", opcode), 1, "%s", line);
            if (strcmp(opcode, "EXIT") == 0) {
                exited = 1;
                cr_assert_eq(mask, lanes_of(threads, warp - 1), "%s: EXIT mask", line);
                continue;
            }
            accelsim_opcode op;
            accelsim_opcode_classify(opcode, &op);
            cr_assert_neq(op.space, ACCELSIM_NOT_TRACKED, "%s", line);
            if (op.kind == WST_LOAD || op.dest) {
                seen->loads++;
                cr_assert(dest >= 0 && dest <= 254, "%s: a load without destination", line);
                cr_assert_neq(dest, last_dest, "%s: same register as the load before", line);
                last_dest = dest;
            }
            unsigned i = 0;
            while (i < seen->count && seen->pc[i] != pc)
                i++;
            if (i == seen->count && i < 64) {
                seen->pc[i] = pc;
                strcpy(seen->opcode[i], opcode);
                seen->count++;
            }
        }
    }
    cr_assert(!in_tb, "%s ends inside a CTA", path);
    cr_assert_eq(cta, k->grid.x * k->grid.y * k->grid.z, "%s: %u CTAs for grid (%u,%u,%u)", path,
                 cta, k->grid.x, k->grid.y, k->grid.z);
    seen->ctas = cta;
    free(text);
}

/* Writes m to dir/in.wst and exports it to dir/out. */
static char *export_memtrace(const char *dir, const wst_memtrace *m)
{
    char *wst = test_path(dir, "in.wst"), *out = test_path(dir, "out");
    cr_assert_eq(test_write_memtrace(m, wst, NULL), 0);
    ws_error err = {{0}};
    cr_assert_eq(accelsim_export(wst, out, &err), 0, "%s", err.msg);
    free(wst);
    return out;
}

static char *kernel_file(const char *out, uint32_t k)
{
    char name[32];
    snprintf(name, sizeof name, "kernel-%u.traceg", k + 1);
    return test_path(out, name);
}

Test(accelsim_export, every_warp_of_the_grid_ends_with_exit)
{
    char *dir = test_tmpdir();
    wst_memtrace *m = test_random_trace(11, 3, 300); /* kernel 1 has no records */
    char *out = export_memtrace(dir, m);
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        char *path = kernel_file(out, k);
        seen_pcs seen;
        check_kernel(path, &m->trace.kernels[k], &seen);
        if (k == 1)
            cr_assert_eq(seen.loads, 0);
        free(path);
    }
    wst_memtrace_free(m);
    free(out);
    test_tmpdir_cleanup(dir);
}

/* A small kernel: grid (3,1,1), block of 80 threads (warps of 32, 32, 16). */
static wst_memtrace *small_trace(const wst_pc *pcs, uint32_t pc_count)
{
    wst_origin origin = {.collector = "test", .collector_version = "1"};
    wst_memtrace *m = wst_memtrace_new(&origin);
    wst_sink sink = wst_memtrace_sink(m);
    ws_error err = {{0}};
    wst_kernel kernel = {.name = "hotspot_like", .grid = {3, 1, 1}, .block = {80, 1, 1}};
    cr_assert_eq(wst_sink_add_kernel(&sink, &kernel, &err), 0, "%s", err.msg);
    for (uint32_t i = 0; i < pc_count; i++)
        cr_assert_eq(wst_sink_add_pc(&sink, 0, &pcs[i], &err), (int64_t)i, "%s", err.msg);
    return m;
}

static void add_record(wst_memtrace *m, uint32_t cta, uint32_t warp, uint32_t pc, uint8_t kind,
                       uint8_t space, uint8_t cache_op, uint8_t size)
{
    wst_sink sink = wst_memtrace_sink(m);
    wst_record r = {.cta = cta, .warp = warp, .pc = pc, .kind = kind, .space = space,
                    .cache_op = cache_op, .size = size, .mask = 0xffff};
    for (int lane = 0; lane < 16; lane++)
        r.addr[lane] = 0x10000 + 0x1000 * (uint64_t)pc + (uint64_t)size * (uint64_t)lane;
    ws_error err = {{0}};
    cr_assert_eq(wst_sink_add_record(&sink, 0, &r, &err), 0, "%s", err.msg);
}

Test(accelsim_export, warps_and_ctas_without_records_get_their_exit)
{
    char *dir = test_tmpdir();
    wst_pc pcs[] = {{.offset = 0x40, .sass = "LDG.E"}, {.offset = 0x60, .sass = "STG.E"}};
    wst_memtrace *m = small_trace(pcs, 2);
    add_record(m, 0, 0, 0, WST_LOAD, WST_GLOBAL, WST_OP_DEFAULT, 4);
    add_record(m, 0, 2, 1, WST_STORE, WST_GLOBAL, WST_OP_DEFAULT, 4);
    add_record(m, 2, 1, 0, WST_LOAD, WST_GLOBAL, WST_OP_DEFAULT, 4); /* CTA 1: nothing */
    char *out = export_memtrace(dir, m);
    char *path = kernel_file(out, 0);
    seen_pcs seen;
    check_kernel(path, &m->trace.kernels[0], &seen);
    cr_assert_eq(seen.ctas, 3);
    cr_assert_eq(seen.empty_warps_filled, 9 - 3, "six warps have no records");
    char *text = test_read_file(path, NULL);
    /* The EXIT comes after the kernel's last PC; warp 2 has 16 lanes. */
    cr_assert(strstr(text, "\n#BEGIN_TB\n\nthread block = 1,0,0\n\n"
                           "warp = 0\ninsts = 1\n0070 ffffffff 0 EXIT 0 0 \n\n"
                           "warp = 1\ninsts = 1\n0070 ffffffff 0 EXIT 0 0 \n\n"
                           "warp = 2\ninsts = 1\n0070 0000ffff 0 EXIT 0 0 \n\n#END_TB\n"),
              "%s", text);
    cr_assert(strstr(text, "\nwarp = 0\ninsts = 2\n0040 0000ffff 1 R0 LDG.E 0 4 1 0x10000 4 \n"
                           "0070 ffffffff 0 EXIT 0 0 \n"),
              "%s", text);
    /* Import skips the EXITs, counts them in insts, and gives back the records. */
    char *list = test_path(out, "kernelslist.g");
    ws_error err = {{0}};
    wst_memtrace *back = fixture_import(list, &err);
    cr_assert_not_null(back, "%s", err.msg);
    cr_assert_eq(back->per_kernel[0].count, 3);
    test_untimed_import(back);
    for (size_t i = 0; i < 3; i++)
        cr_assert(test_records_equal(&back->per_kernel[0].records[i], &m->per_kernel[0].records[i]));
    wst_memtrace_free(back);
    free(list);
    free(text);
    free(path);
    free(out);
    wst_memtrace_free(m);
    test_tmpdir_cleanup(dir);
}

static int has_token(const char *opcode, const char *token)
{
    size_t n = strlen(token);
    for (const char *t = opcode; t; t = strchr(t, '.') ? strchr(t, '.') + 1 : NULL)
        if (strncmp(t, token, n) == 0 && (t[n] == '.' || t[n] == '\0'))
            return 1;
    return 0;
}

static const char *opcode_at(const seen_pcs *seen, uint64_t pc)
{
    for (unsigned i = 0; i < seen->count; i++)
        if (seen->pc[i] == pc)
            return seen->opcode[i];
    cr_assert_fail("no line at PC %04llx", (unsigned long long)pc);
    return NULL;
}

/* Accel-Sim skips L1 on a load only for LDG/LDL with .STRONG and .GPU
 * (trace_driven.cc), so that is what a global cg or cv load must say, and
 * what no other load may say; each still imports as its own operator. */
Test(accelsim_export, cache_operator_suffixes_are_the_ones_accelsim_honours)
{
    char *dir = test_tmpdir();
    wst_pc pcs[] = {
        {.offset = 0x00, .sass = "LDG.E.CG"},          /* Pascal's cg: Accel-Sim caches it */
        {.offset = 0x10, .sass = NULL},                /* cv */
        {.offset = 0x20, .sass = "LDG.E.STRONG.SYS"},  /* Volta's cv: Accel-Sim caches it */
        {.offset = 0x30, .sass = "LDG.E.CA"},          /* ca: kept */
        {.offset = 0x40, .sass = "LDG.E.STRONG.GPU"},  /* Volta's cg: kept */
        {.offset = 0x50, .sass = "LDL.STRONG.GPU"},    /* local: warpscope looks L1 up */
        {.offset = 0x60, .sass = "LDGSTS.E.BYPASS.128"}, /* not in Accel-Sim's sm_70 table */
        {.offset = 0x70, .sass = "LDG.E.S16"},         /* Accel-Sim would read 4 bytes */
        {.offset = 0x80, .sass = "LD.E.STRONG.GPU"},   /* generic: Accel-Sim caches it */
        {.offset = 0x90, .sass = "LDG.E.64"},          /* kept */
    };
    wst_memtrace *m = small_trace(pcs, 10);
    add_record(m, 0, 0, 0, WST_LOAD, WST_GLOBAL, WST_OP_CG, 4);
    add_record(m, 0, 0, 1, WST_LOAD, WST_GLOBAL, WST_OP_CV, 4);
    add_record(m, 0, 0, 2, WST_LOAD, WST_GLOBAL, WST_OP_CV, 4);
    add_record(m, 0, 0, 3, WST_LOAD, WST_GLOBAL, WST_OP_CA, 4);
    add_record(m, 0, 0, 4, WST_LOAD, WST_GLOBAL, WST_OP_CG, 4);
    add_record(m, 0, 0, 5, WST_LOAD, WST_LOCAL, WST_OP_CG, 4);
    add_record(m, 0, 0, 6, WST_LOAD, WST_GLOBAL, WST_OP_CG, 16);
    add_record(m, 0, 0, 7, WST_LOAD, WST_GLOBAL, WST_OP_DEFAULT, 2);
    add_record(m, 0, 0, 8, WST_LOAD, WST_GLOBAL, WST_OP_CG, 4);
    add_record(m, 0, 0, 9, WST_LOAD, WST_GLOBAL, WST_OP_DEFAULT, 8);
    char *out = export_memtrace(dir, m);
    char *path = kernel_file(out, 0);
    seen_pcs seen;
    check_kernel(path, &m->trace.kernels[0], &seen);
    static const char *const want[] = {
        "LDG.E.STRONG.GPU", "LDG.E.CV.STRONG.GPU", "LDG.E.CV.STRONG.GPU", "LDG.E.CA",
        "LDG.E.STRONG.GPU", "LDL.CG",              "LDG.E.STRONG.GPU.128", "LDG.E.U16",
        "LDG.E.STRONG.GPU", "LDG.E.64"};
    for (uint32_t i = 0; i < 10; i++) {
        const char *opcode = opcode_at(&seen, pcs[i].offset);
        cr_expect_str_eq(opcode, want[i], "PC %04x", (unsigned)pcs[i].offset);
        int skips = has_token(opcode, "STRONG") && has_token(opcode, "GPU") &&
                    strncmp(opcode, "LD.", 3) != 0;
        const wst_record *rec = &m->per_kernel[0].records[i];
        int bypass = rec->space == WST_GLOBAL &&
                     (rec->cache_op == WST_OP_CG || rec->cache_op == WST_OP_CV);
        cr_expect_eq(skips, bypass, "%s", opcode);
    }
    char *list = test_path(out, "kernelslist.g");
    ws_error err = {{0}};
    wst_memtrace *back = fixture_import(list, &err);
    cr_assert_not_null(back, "%s", err.msg);
    test_untimed_import(back);
    for (size_t i = 0; i < 10; i++)
        cr_expect(test_records_equal(&back->per_kernel[0].records[i], &m->per_kernel[0].records[i]),
                  "record %zu", i);
    wst_memtrace_free(back);
    free(list);
    free(path);
    free(out);
    wst_memtrace_free(m);
    test_tmpdir_cleanup(dir);
}

/* A warp's loads take R0, R1, ... R254 in turn, so no load waits for
 * another's register before 255 of them are in flight. */
Test(accelsim_export, loads_write_registers_in_turn)
{
    char *dir = test_tmpdir();
    wst_pc pcs[] = {{.offset = 0x10, .sass = "LDG.E"}, {.offset = 0x20, .sass = "STG.E"},
                    {.offset = 0x30, .sass = "ATOMG.E.ADD.STRONG.GPU"},
                    {.offset = 0x40, .sass = "RED.E.ADD.STRONG.GPU"}};
    wst_memtrace *m = small_trace(pcs, 4);
    for (int i = 0; i < 600; i++)
        add_record(m, 1, 0, i % 4, i % 4 == 0 ? WST_LOAD : i % 4 == 1 ? WST_STORE : WST_ATOMIC,
                   WST_GLOBAL, i % 4 >= 2 ? WST_OP_CG : WST_OP_DEFAULT, 4);
    char *out = export_memtrace(dir, m);
    char *path = kernel_file(out, 0);
    seen_pcs seen;
    check_kernel(path, &m->trace.kernels[0], &seen);
    cr_assert_eq(seen.loads, 300, "150 loads and 150 ATOMGs have registers");
    char *text = test_read_file(path, NULL);
    cr_assert(strstr(text, "0010 0000ffff 1 R0 LDG.E ") && strstr(text, "0030 0000ffff 1 R1 ATOMG.") &&
              strstr(text, "0040 0000ffff 0 RED.") && strstr(text, "0020 0000ffff 0 STG.E ") &&
              !strstr(text, " R255 "), "%s", text);
    const char *last = strstr(text, " 1 R254 ");
    cr_assert_not_null(last);
    cr_assert(strncmp(strstr(last + 1, " 1 R"), " 1 R0 ", 6) == 0, "after R254 comes R0 again");
    free(text);
    free(path);
    free(out);
    wst_memtrace_free(m);
    test_tmpdir_cleanup(dir);
}
