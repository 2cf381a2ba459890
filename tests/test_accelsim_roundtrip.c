/* tests/test_accelsim_roundtrip.c: export then import is the identity on
 * what Accel-Sim traces carry, and the CLI on the real traces. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "collectors/accelsim/accelsim.h"
#include "tests/accelsim_fixtures.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

/* A random trace limited to what Accel-Sim carries. */
static wst_memtrace *carriable_trace(uint64_t seed)
{
    wst_memtrace *m = test_random_trace(seed, 3, 400);
    fixture_carriable(m);
    return m;
}

/* The records of (kernel, cta, warp) in order, from a memtrace. */
static size_t warp_records(const wst_memtrace *m, uint32_t k, uint32_t cta, uint32_t warp,
                           const wst_record **out, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < m->per_kernel[k].count && n < cap; i++) {
        const wst_record *r = &m->per_kernel[k].records[i];
        if (r->cta == cta && r->warp == warp)
            out[n++] = r;
    }
    return n;
}

Test(accelsim_roundtrip, export_then_import_is_identity)
{
    char *dir = test_tmpdir();
    wst_memtrace *m = carriable_trace(5);
    wst_memtrace *back = fixture_export_import(m, dir);
    test_untimed_import(back);
    static const wst_record *want[2000], *got[2000];
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        const wst_kernel *a = &m->trace.kernels[k], *b = &back->trace.kernels[k];
        cr_assert_str_eq(a->name, b->name);
        cr_assert_eq(a->grid.x, b->grid.x);
        cr_assert_eq(a->block.x, b->block.x);
        cr_assert_eq(a->shared_mem_bytes, b->shared_mem_bytes);
        cr_assert_eq(back->per_kernel[k].count, m->per_kernel[k].count);
        uint32_t ctas = a->grid.x * a->grid.y * a->grid.z, warps = a->block.x / 32;
        for (uint32_t c = 0; c < ctas; c++)
            for (uint32_t w = 0; w < warps; w++) {
                size_t n = warp_records(m, k, c, w, want, 2000);
                cr_assert_eq(warp_records(back, k, c, w, got, 2000), n);
                for (size_t i = 0; i < n; i++) {
                    wst_record x = *want[i], y = *got[i];
                    cr_assert_eq(a->pcs[x.pc].offset, b->pcs[y.pc].offset, "PC offset");
                    x.pc = y.pc = 0; /* PC tables may be ordered differently */
                    cr_assert(test_records_equal(&x, &y), "kernel %u CTA %u warp %u record %zu",
                              k, c, w, i);
                }
            }
    }
    wst_memtrace_free(back);
    wst_memtrace_free(m);
    test_tmpdir_cleanup(dir);
}

static char *fixture_trace(const char *app)
{
    char *p = malloc(512);
    snprintf(p, 512, "%s/accelsim/%s/kernelslist.g", test_fixture_dir(), app);
    return p;
}

Test(accelsim_cli, import_real_traces_then_info)
{
    char *dir = test_tmpdir();
    char *out = test_path(dir, "mm.wst");
    char *mm = fixture_trace("matrixmul");
    cli_result r = cli_run("import", "accelsim", mm, "-o", out, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("info", out, NULL);
    cr_assert(strstr(r.out, "kernel 0   _Z8mult_gpuIfEvPT_S1_S1_ii\n") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "grid (1,1,1)  block (32,32,1)  shared 8192 B  registers 30") != NULL);
    cr_assert(strstr(r.out, "records 96 (loads 64, stores 32, atomics 0)") != NULL);
    cli_result_free(&r);
    char *va = fixture_trace("vectoradd");
    r = cli_run("import", "accelsim", va, "-o", out, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("info", out, NULL);
    cr_assert(strstr(r.out, "records 12 (loads 8, stores 4, atomics 0)") != NULL, "%s", r.out);
    cli_result_free(&r);
    free(va);
    free(mm);
    free(out);
    test_tmpdir_cleanup(dir);
}

Test(accelsim_cli, malformed_line_is_located_and_nothing_is_written)
{
    char *dir = test_tmpdir();
    char *bad = fixture_write(dir, "kernel-1.traceg",
                              FIXTURE_HEADER("4", "0") FIXTURE_FORMAT
                              "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                              "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0xzz\n#END_TB\n");
    char *out = test_path(dir, "out.wst");
    cli_result r = cli_run("import", "accelsim", bad, "-o", out, NULL);
    cr_assert_eq(r.status, 1);
    char expected[600];
    /* Header (10 lines), format line, 4 block lines: the instruction is line 16. */
    snprintf(expected, sizeof expected, "warpscope: %s:16: bad hex base address '0xzz'\n", bad);
    cr_assert_str_eq(r.err, expected);
    cr_assert_null(test_read_file(out, NULL), "no output left behind");
    cli_result_free(&r);
    r = cli_run("import", "nvprof", bad, "-o", out, NULL);
    cr_assert_str_eq(r.err, "warpscope: import: unknown trace format 'nvprof' (known: accelsim)\n");
    cli_result_free(&r);
    r = cli_run("export", "accelsim", out, NULL);
    cr_assert_neq(r.status, 0);
    cli_result_free(&r);
    free(out);
    free(bad);
    test_tmpdir_cleanup(dir);
}
