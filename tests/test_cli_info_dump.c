/* tests/test_cli_info_dump.c: `info` and `dump` on a known trace, and
 * their errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "formats/memtrace.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

/* Kernel 0 "k<int>", grid 2, block 64: 3 records.  Kernel 1: 1 record.
 * Timed: kernel 0 has timing (docs/metrics.md §12), a gap and waits on
 * its first record, blocking loads for the others. */
static char *write_trace(const char *dir, int timed)
{
    wst_origin origin = {.collector = "test", .collector_version = "9", .workload = "known"};
    wst_memtrace *m = wst_memtrace_new(&origin);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel k0 = {.name = "k<int>", .grid = {2, 1, 1}, .block = {64, 1, 1},
                     .shared_mem_bytes = 256, .registers_per_thread = 20,
                     .has_timing = (uint8_t)timed};
    wst_kernel k1 = {.name = "second", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    wst_sink_add_kernel(&s, &k0, &err);
    wst_sink_add_kernel(&s, &k1, &err);
    wst_pc ld = {.offset = 0x40, .sass = "LDG.E.32, weird", .file = "a.cu", .line = 7};
    wst_pc st = {.offset = 0x90, .sass = "STG.E.32"};
    wst_sink_add_pc(&s, 0, &ld, &err);
    wst_sink_add_pc(&s, 0, &st, &err);
    wst_sink_add_pc(&s, 1, &ld, &err);
    wst_record r;
    memset(&r, 0, sizeof r);
    r.size = 4;
    r.mask = 0x3;
    r.addr[0] = 0x1000;
    r.addr[1] = 0x1004;
    r.gap = timed ? 7 : 0;
    r.has_waits = (uint8_t)timed;
    r.waits = timed ? 0x80000001u : 0;
    wst_sink_add_record(&s, 0, &r, &err); /* CTA 0 warp 0 load */
    r.gap = r.has_waits = r.waits = 0;
    r.cta = 1;
    r.warp = 1;
    r.kind = WST_STORE;
    r.pc = 1;
    r.has_sm = 1;
    r.sm = 5;
    wst_sink_add_record(&s, 0, &r, &err); /* CTA 1 warp 1 store on SM 5 */
    r.kind = WST_ATOMIC;
    r.mask = 0;
    wst_sink_add_record(&s, 0, &r, &err); /* CTA 1 atomic, no lanes */
    memset(&r, 0, sizeof r);
    r.size = 8;
    r.mask = 1u << 31;
    r.addr[31] = 0xdeadbeef0;
    wst_sink_add_record(&s, 1, &r, &err);
    char *path = test_path(dir, timed ? "timed.wst" : "known.wst");
    cr_assert_eq(test_write_memtrace(m, path, NULL), 0);
    wst_memtrace_free(m);
    return path;
}

static char *write_known(const char *dir) { return write_trace(dir, 0); }

Test(cli_info, figures_of_a_known_trace)
{
    char *dir = test_tmpdir();
    char *path = write_known(dir);
    cli_result r = cli_run("info", path, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "collector  test 9\n") != NULL, "%s", r.out);
    cr_assert(strstr(r.out, "kernels    2\n") != NULL);
    cr_assert(strstr(r.out, "records    4\n") != NULL);
    cr_assert(strstr(r.out, "chunks     3 in 1 zstd frame\n") != NULL, "one chunk per CTA: %s", r.out);
    cr_assert(strstr(r.out, "kernel 0   k<int>\n") != NULL);
    cr_assert(strstr(r.out, "grid (2,1,1)  block (64,1,1)  shared 256 B  registers 20") != NULL);
    cr_assert(strstr(r.out, "CTAs 2  records 3 (loads 1, stores 1, atomics 1)  PCs 2") != NULL);
    cr_assert(strstr(r.out, "CTAs 1  records 1 (loads 1, stores 0, atomics 0)  PCs 1") != NULL);
    cr_assert(strstr(r.out, "timing     none (blocking loads, no gaps)\n") != NULL, "%s", r.out);
    cli_result_free(&r);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(cli_dump, text_and_filters)
{
    char *dir = test_tmpdir();
    char *path = write_known(dir);
    cli_result r = cli_run("dump", path, "--kernel", "0", "--cta", "1", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out,
                     "k0 cta 1 warp 1 pc 1@0x90 STG.E.32 store global - 4B mask 0x00000003 sm 5 "
                     "| 0:0x1000 1:0x1004\n"
                     "k0 cta 1 warp 1 pc 1@0x90 STG.E.32 atomic global - 4B mask 0x00000000 sm 5 "
                     "| \n");
    cli_result_free(&r);
    r = cli_run("dump", path, NULL);
    int lines = 0;
    for (char *p = r.out; *p; p++)
        lines += *p == '\n';
    cr_assert_eq(lines, 4);
    cr_assert(strstr(r.out, "k1 cta 0 warp 0 pc 0@0x40 LDG.E.32, weird load global - 8B mask "
                            "0x80000000 | 31:0xdeadbeef0\n") != NULL, "%s", r.out);
    cli_result_free(&r);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(cli_dump, csv_quotes_fields)
{
    char *dir = test_tmpdir();
    char *path = write_known(dir);
    cli_result r = cli_run("dump", path, "--csv", "--kernel", "0", "--cta", "0", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out,
                     "kernel_id,kernel,kernel_demangled,cta,warp,pc_index,pc_offset,sass,kind,"
                     "space,cache_op,lane_bytes,mask,sm,timestamp,addresses\n"
                     "0,k<int>,k<int>,0,0,0,0x40,\"LDG.E.32, weird\",load,global,,4,0x00000003,,,"
                     "0:0x1000 1:0x1004\n");
    cli_result_free(&r);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(cli_dump, timing_in_text_csv_and_info)
{
    char *dir = test_tmpdir();
    char *path = write_trace(dir, 1);
    cli_result r = cli_run("dump", path, "--kernel", "0", "--cta", "0", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out, "k0 cta 0 warp 0 pc 0@0x40 LDG.E.32, weird load global - 4B mask "
                            "0x00000003 gap 7 waits 0x80000001 | 0:0x1000 1:0x1004\n");
    cli_result_free(&r);
    r = cli_run("dump", path, "--csv", "--kernel", "0", "--cta", "1", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert_str_eq(r.out,
                     "kernel_id,kernel,kernel_demangled,cta,warp,pc_index,pc_offset,sass,kind,"
                     "space,cache_op,lane_bytes,mask,sm,timestamp,gap,waits,addresses\n"
                     "0,k<int>,k<int>,1,1,1,0x90,STG.E.32,store,global,,4,0x00000003,5,,0,,"
                     "0:0x1000 1:0x1004\n"
                     "0,k<int>,k<int>,1,1,1,0x90,STG.E.32,atomic,global,,4,0x00000000,5,,0,,\n");
    cli_result_free(&r);
    r = cli_run("info", path, NULL);
    cr_assert(strstr(r.out, "timing     gaps and dependencies from the collector (1 of 2 kernels)\n"),
              "%s", r.out);
    cr_assert(strstr(r.out, "  timing from the collector\n"), "%s", r.out);
    cli_result_free(&r);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(cli_info, errors_are_one_line)
{
    char *dir = test_tmpdir();
    char *bad = test_path(dir, "bad.wst");
    test_write_file(bad, "hello world, not a trace", 24);
    cli_result r = cli_run("info", bad, NULL);
    cr_assert_eq(r.status, 1);
    char expected[512];
    snprintf(expected, sizeof expected, "warpscope: %s: not a warpscope trace (bad magic)\n", bad);
    cr_assert_str_eq(r.err, expected);
    cli_result_free(&r);
    r = cli_run("info", dir, NULL);
    snprintf(expected, sizeof expected, "warpscope: %s: is a directory\n", dir);
    cr_assert_str_eq(r.err, expected);
    cli_result_free(&r);
    r = cli_run("info", NULL);
    cr_assert_neq(r.status, 0);
    cli_result_free(&r);
    char *path = write_known(dir);
    r = cli_run("dump", path, "--kernel", "7", NULL);
    cr_assert_neq(r.status, 0);
    cr_assert(strstr(r.err, "no kernel 7 (the trace has 2)") != NULL, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("dump", path, "--kernel", "x", NULL);
    cr_assert_str_eq(r.err, "warpscope: --kernel: expected a non-negative whole number, got 'x'\n");
    cli_result_free(&r);
    r = cli_run("dump", path, "--cta", "99999999999", NULL);
    cr_assert_eq(r.status, 1);
    cr_assert_str_eq(r.err, "warpscope: --cta: 99999999999 is more than any trace holds\n");
    cli_result_free(&r);
    r = cli_run("dump", path, "--frob", NULL);
    cr_assert_neq(r.status, 0);
    cli_result_free(&r);
    free(path);
    free(bad);
    test_tmpdir_cleanup(dir);
}
