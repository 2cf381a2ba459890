/* tests/test_accelsim_timing.c: the timing of docs/metrics.md §12 through
 * Accel-Sim traces: the import's gaps and waits on a hand-written kernel
 * (each expected value worked out from the lines, in the comments), and
 * export then import gives every record's gap and waits back. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/accelsim/accelsim.h"
#include "tests/accelsim_fixtures.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

/* Warp 0 of CTA 0; the comments give each line's effect. */
static const char warp0[] =
    "warp = 0\n"
    "insts = 9\n"
    "0000 ffffffff 1 R2 LDG.E 1 R10 4 1 0x1000 4\n"     /* record 0: load 1 writes R2 */
    "0010 ffffffff 1 R4 LDG.E.64 1 R10 8 1 0x2000 8\n"  /* record 1: load 2 writes R4, R5 */
    "0020 ffffffff 1 R6 IADD3 2 R5 R255 0\n"           /* gap: reads R5 = load 2; R6 holds no load */
    "0030 ffffffff 1 R2 MOV 0 0\n"                     /* gap: R2 overwritten, load 1's link gone */
    "0040 ffffffff 0 STG.E 2 R6 R2 4 1 0x3000 4\n"     /* record 2: gap 2, waits load 2 (bit 0) */
    "0050 ffffffff 1 R7 LDS 1 R4 4 1 0x10 4\n"         /* gap (shared memory): reads load 2 */
    "0060 ffffffff 1 R8 LDG.E 1 R7 4 1 0x4000 4\n"     /* record 3: gap 1, bit 0; load 3 writes R8 */
    "0070 ffffffff 0 STG.E 2 R8 R4 4 1 0x5000 4\n"     /* record 4: load 3 (bit 0), load 2 (bit 1) */
    "0080 ffffffff 0 EXIT 0 0\n";

/* Warp 1: 33 loads into R0..R32, then a store reading R0 (33 back), R1
 * (32 back: bit 31 holds both) and R32 (the latest: bit 0). */
static char *warp1(void)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fprintf(out, "warp = 1\ninsts = 35\n");
    for (int i = 0; i < 33; i++)
        fprintf(out, "%04x ffffffff 1 R%d LDG.E 0 4 1 0x%x 4\n", 0x100 + 16 * i, i, 0x10000 + 128 * i);
    fprintf(out, "0400 ffffffff 0 STG.E 3 R0 R1 R32 4 1 0x9000 4\n0410 ffffffff 0 EXIT 0 0\n");
    fclose(out);
    return text;
}

static const wst_record *record_at(const wst_memtrace *m, uint32_t warp, uint64_t pc)
{
    const wst_memkernel_records *per = &m->per_kernel[0];
    for (size_t i = 0; i < per->count; i++)
        if (per->records[i].warp == warp &&
            m->trace.kernels[0].pcs[per->records[i].pc].offset == pc)
            return &per->records[i];
    cr_assert_fail("no record of warp %u at PC %#lx", warp, (unsigned long)pc);
    return NULL;
}

Test(accelsim_timing, import_reads_gaps_and_registers)
{
    char *dir = test_tmpdir(), *second = warp1(), *text = NULL;
    cr_assert_geq(asprintf(&text, "%s%s\n#BEGIN_TB\n\nthread block = 0,0,0\n\n%s\n%s\n#END_TB\n",
                           FIXTURE_HEADER("4", "0"), FIXTURE_FORMAT, warp0, second), 0);
    char *path = fixture_write(dir, "kernel-1.traceg", text);
    ws_error err;
    wst_memtrace *m = fixture_import(path, &err);
    cr_assert_not_null(m, "%s", err.msg);
    cr_assert(m->trace.kernels[0].has_timing);
    static const struct {
        uint64_t pc;
        uint32_t gap, waits;
    } want[] = {{0x00, 0, 0}, {0x10, 0, 0}, {0x40, 2, 0x1}, {0x60, 1, 0x1}, {0x70, 0, 0x3}};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const wst_record *r = record_at(m, 0, want[i].pc);
        cr_assert(r->has_waits);
        cr_assert_eq(r->gap, want[i].gap, "PC %#lx gap %u", (unsigned long)want[i].pc, r->gap);
        cr_assert_eq(r->waits, want[i].waits, "PC %#lx waits %#x", (unsigned long)want[i].pc,
                     r->waits);
    }
    const wst_record *store = record_at(m, 1, 0x400);
    cr_assert_eq(store->waits, 0x80000001u);
    cr_assert_eq(store->gap, 0);
    wst_memtrace_free(m);
    free(path);
    free(text);
    free(second);
    test_tmpdir_cleanup(dir);
}

/* Timing that Accel-Sim's registers can carry: waits only on earlier
 * loads of the warp, at most 4 × (gap + 1) of them, small gaps. */
static void add_carriable_timing(wst_memtrace *m, uint64_t seed)
{
    uint64_t s = seed;
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        m->trace.kernels[k].has_timing = 1;
        static uint32_t loads[1 << 12]; /* per CTA and warp: the grids here are small */
        memset(loads, 0, sizeof loads);
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            wst_record *r = &m->per_kernel[k].records[i];
            uint32_t *n = &loads[(r->cta * 8 + r->warp) % (1 << 12)];
            r->gap = (uint32_t)(test_rand(&s) % 4);
            r->has_waits = 1;
            r->waits = 0;
            unsigned room = 4 * (r->gap + 1), wanted = (unsigned)(test_rand(&s) % 6);
            for (unsigned j = 0; j < wanted && j < room; j++) {
                unsigned bit = test_rand(&s) % 4 == 0 ? 31 : (unsigned)(test_rand(&s) % 8);
                if ((bit == 31 ? 32u : bit + 1) <= *n)
                    r->waits |= 1u << bit;
            }
            if (r->kind != WST_STORE)
                (*n)++;
        }
    }
}

Test(accelsim_timing, export_then_import_gives_timing_back)
{
    char *dir = test_tmpdir();
    wst_memtrace *m = test_random_trace(6, 2, 600);
    fixture_carriable(m);
    add_carriable_timing(m, 6);
    wst_memtrace *back = fixture_export_import(m, dir);
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        cr_assert_eq(back->per_kernel[k].count, m->per_kernel[k].count);
        /* Import and export both go CTA by CTA, warp by warp: match records
         * by (CTA, warp, ordinal in the warp). */
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            const wst_record *want = &m->per_kernel[k].records[i];
            size_t ordinal = 0;
            for (size_t j = 0; j < i; j++)
                ordinal += m->per_kernel[k].records[j].cta == want->cta &&
                           m->per_kernel[k].records[j].warp == want->warp;
            const wst_record *got = NULL;
            for (size_t j = 0; j < back->per_kernel[k].count && !got; j++) {
                const wst_record *r = &back->per_kernel[k].records[j];
                if (r->cta == want->cta && r->warp == want->warp && ordinal-- == 0)
                    got = r;
            }
            cr_assert_not_null(got);
            cr_assert(got->has_waits);
            cr_assert_eq(got->gap, want->gap, "kernel %u record %zu", k, i);
            cr_assert_eq(got->waits, want->waits, "kernel %u record %zu: %#x, not %#x", k, i,
                         got->waits, want->waits);
        }
    }
    wst_memtrace_free(back);
    wst_memtrace_free(m);
    test_tmpdir_cleanup(dir);
}
