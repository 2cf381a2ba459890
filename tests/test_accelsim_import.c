/* tests/test_accelsim_import.c: Accel-Sim text traces -> trace model.
 * Expected values come from reading the trace text by hand; each says which
 * line of which file it was taken from. */
#include <criterion/criterion.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/accelsim/accelsim.h"
#include "tests/accelsim_fixtures.h"
#include "tests/helpers.h"

static wst_memtrace *import_ok(const char *path)
{
    ws_error err = {{0}};
    wst_memtrace *m = fixture_import(path, &err);
    cr_assert_not_null(m, "import failed: %s", err.msg);
    return m;
}

static wst_memtrace *import_text(const char *dir, const char *name, const char *text)
{
    char *path = fixture_write(dir, name, text);
    wst_memtrace *m = import_ok(path);
    free(path);
    return m;
}

static const wst_pc *pc_of(const wst_memtrace *m, uint32_t kernel, const wst_record *r)
{
    return &m->trace.kernels[kernel].pcs[r->pc];
}

static const wst_record *find_record(const wst_memtrace *m, uint32_t warp, uint64_t pc)
{
    const wst_memkernel_records *per = &m->per_kernel[0];
    for (size_t i = 0; i < per->count; i++)
        if (per->records[i].warp == warp && pc_of(m, 0, &per->records[i])->offset == pc)
            return &per->records[i];
    cr_assert_fail("no record of warp %u at PC %#lx", warp, (unsigned long)pc);
    return NULL;
}

static char *real_trace(const char *name)
{
    char *path = NULL;
    cr_assert_geq(asprintf(&path, "%s/accelsim/%s", test_fixture_dir(), name), 0);
    return path;
}

Test(accelsim_import, vectoradd_real_trace)
{
    char *dir = real_trace("vectoradd");
    wst_memtrace *m = import_ok(dir);
    cr_assert_eq(m->trace.kernel_count, 1);
    const wst_kernel *k = &m->trace.kernels[0];
    cr_assert_str_eq(k->name, "_Z6vecAddIfEvPT_S1_S1_i");
    cr_assert_eq(k->grid.x, 1);
    cr_assert_eq(k->block.x, 1024);
    cr_assert_eq(k->registers_per_thread, 8);
    /* 8 LDG.E.CG + 4 STG.E lines, 3 distinct PCs (0098, 00b0, 00d8). */
    cr_assert_eq(k->records_by_kind[WST_LOAD], 8);
    cr_assert_eq(k->records_by_kind[WST_STORE], 4);
    cr_assert_eq(k->records_by_kind[WST_ATOMIC], 0);
    cr_assert_eq(k->pc_count, 3);

    /* line 39: "0098 ffffffff 1 R4 LDG.E.CG 1 R4 4 1 0x7f2b2d500000 4" */
    const wst_record *r = find_record(m, 0, 0x98);
    cr_assert_str_eq(pc_of(m, 0, r)->sass, "LDG.E.CG");
    cr_assert_eq(r->kind, WST_LOAD);
    cr_assert_eq(r->space, WST_GLOBAL);
    cr_assert_eq(r->cache_op, WST_OP_CG);
    cr_assert_eq(r->size, 4);
    cr_assert_eq(r->mask, 0xffffffffu);
    cr_assert_eq(r->addr[0], 0x7f2b2d500000ull);
    cr_assert_eq(r->addr[31], 0x7f2b2d500000ull + 31 * 4);
    /* line 45: "00d8 ffffffff 0 STG.E 2 R6 R0 4 1 0x7f2b2d500400 4" */
    r = find_record(m, 0, 0xd8);
    cr_assert_eq(r->kind, WST_STORE);
    cr_assert_eq(r->cache_op, WST_OP_DEFAULT);
    cr_assert_eq(r->addr[5], 0x7f2b2d500400ull + 20);
    /* line 119: "00b0 0000000f 1 R2 LDG.E.CG 1 R2 4 1 0x7f2b2d500380 4" */
    r = find_record(m, 3, 0xb0);
    cr_assert_eq(r->mask, 0xfu);
    cr_assert_eq(r->addr[3], 0x7f2b2d500380ull + 12);
    cr_assert_eq(r->addr[4], 0);
    wst_memtrace_free(m);
    free(dir);
}

Test(accelsim_import, matrixmul_real_trace_skips_shared)
{
    char *dir = real_trace("matrixmul");
    char *list = NULL;
    cr_assert_geq(asprintf(&list, "%s/kernelslist.g", dir), 0);
    wst_memtrace *m = import_ok(list);
    const wst_kernel *k = &m->trace.kernels[0];
    cr_assert_str_eq(k->name, "_Z8mult_gpuIfEvPT_S1_S1_ii");
    cr_assert_eq(k->block.x, 32);
    cr_assert_eq(k->block.y, 32);
    cr_assert_eq(k->shared_mem_bytes, 8192);
    cr_assert_eq(k->registers_per_thread, 30);
    /* 64 LDG.E and 32 STG.E; the 1280 LDS and 64 STS lines are shared. */
    cr_assert_eq(k->records_by_kind[WST_LOAD], 64);
    cr_assert_eq(k->records_by_kind[WST_STORE], 32);
    cr_assert_eq(k->pc_count, 3);
    /* line 2895: "0218 ffffffff 1 R22 LDG.E 1 R22 4 1 0x7fb02d701a00 4" (warp 20) */
    const wst_record *r = find_record(m, 20, 0x218);
    cr_assert_eq(r->addr[0], 0x7fb02d701a00ull);
    cr_assert_eq(r->addr[17], 0x7fb02d701a00ull + 17 * 4);
    cr_assert_eq(r->cache_op, WST_OP_DEFAULT);
    /* line 2837: "0590 ffffffff 0 STG.E 2 R18 R11 4 1 0x7fb02d702980 4" (warp 19) */
    r = find_record(m, 19, 0x590);
    cr_assert_eq(r->addr[1], 0x7fb02d702984ull);
    wst_memtrace_free(m);
    free(list);
    free(dir);
}

/* Each address mode, mask 0 and partial masks, line 11 onward. */
static const char modes_text[] = FIXTURE_HEADER("4", "0") FIXTURE_FORMAT
    "#BEGIN_TB\n"
    "thread block = 1,0,0\n"
    "warp = 1\n"
    "insts = 6\n"
    "0010 00000005 1 R2 LDG.E.64 1 R4 8 0 0x0000000000000100 0x0000000000000200 \n"
    "0020 000000f0 0 STG.E.CS 2 R4 R6 4 1 0x1000 8 \n"
    "0030 80000003 1 R2 LDG.E.LU 1 R4 4 2 0x2000 16 -8 \n"
    "0040 00000000 1 R2 LDG.E 1 R4 4 1 0x0 0 \n"
    "0050 ffffffff 1 R2 IADD 2 R4 R5 0 \n"
    "0060 00000001 1 R2 ATOMG.E.ADD.STRONG.GPU 1 R4 4 2 0x3000 \n"
    "#END_TB\n";

Test(accelsim_import, address_modes_and_masks)
{
    char *dir = test_tmpdir();
    wst_memtrace *m = import_text(dir, "kernel-1.traceg", modes_text);
    const wst_memkernel_records *per = &m->per_kernel[0];
    cr_assert_eq(per->count, 5, "IADD is not a memory instruction");
    const wst_record *r = per->records;
    cr_assert_eq(r[0].cta, 1);
    cr_assert_eq(r[0].warp, 1);
    cr_assert_eq(r[0].size, 8);
    cr_assert_eq(r[0].addr[0], 0x100);
    cr_assert_eq(r[0].addr[1], 0);
    cr_assert_eq(r[0].addr[2], 0x200);
    cr_assert_eq(r[1].kind, WST_STORE);
    cr_assert_eq(r[1].cache_op, WST_OP_CS);
    for (int lane = 4; lane < 8; lane++)
        cr_assert_eq(r[1].addr[lane], 0x1000 + 8 * (lane - 4));
    cr_assert_eq(r[2].cache_op, WST_OP_LU);
    cr_assert_eq(r[2].addr[0], 0x2000);
    cr_assert_eq(r[2].addr[1], 0x2010);
    cr_assert_eq(r[2].addr[31], 0x2008);
    cr_assert_eq(r[3].mask, 0, "mask 0 is kept as an access to nothing");
    cr_assert_eq(r[4].kind, WST_ATOMIC);
    cr_assert_eq(r[4].cache_op, WST_OP_CG);
    cr_assert_eq(r[4].addr[0], 0x3000);
    cr_assert_eq(m->trace.kernels[0].shared_mem_bytes, 256);
    wst_memtrace_free(m);
    test_tmpdir_cleanup(dir);
}

Test(accelsim_import, generic_shared_and_excluded_spaces)
{
    char *dir = test_tmpdir();
    wst_memtrace *m = import_text(dir, "kernel-1.traceg", FIXTURE_HEADER("4", "0") FIXTURE_FORMAT
        "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 9\n"
        "0010 00000001 1 R2 LD.E 1 R4 4 2 0x7f0000000040 \n"   /* local window */
        "0018 00000001 1 R2 LD.E 1 R4 4 2 0x7f0001000040 \n"   /* shared window */
        "0020 00000001 0 ST.E.64 2 R4 R6 8 2 0x7f2000000000 \n" /* global */
        "0028 00000001 0 STL 2 R4 R6 4 2 0x7f0000000100 \n"
        "0030 00000001 1 R2 LDL.LU 1 R4 4 2 0x7f0000000100 \n"
        "0038 ffffffff 1 R2 LDS.U.32 1 R4 4 1 0x0 4 \n"
        "0040 ffffffff 0 STS 2 R4 R6 4 1 0x0 4 \n"
        "0048 ffffffff 1 R2 LDC 1 R4 4 1 0x0 4 \n"
        "0050 00000001 1 R2 ATOMS.ADD 1 R4 4 2 0x0 \n"
        "#END_TB\n");
    const wst_memkernel_records *per = &m->per_kernel[0];
    cr_assert_eq(per->count, 4);
    cr_assert_eq(per->records[0].space, WST_LOCAL);
    cr_assert_eq(per->records[1].space, WST_GLOBAL);
    cr_assert_eq(per->records[1].kind, WST_STORE);
    cr_assert_eq(per->records[2].space, WST_LOCAL);
    cr_assert_eq(per->records[3].cache_op, WST_OP_LU);
    cr_assert_str_eq(pc_of(m, 0, &per->records[1])->sass, "ST.E.64");
    wst_memtrace_free(m);
    test_tmpdir_cleanup(dir);
}

Test(accelsim_import, raw_trace_ids_lineinfo_and_ldgsts_halves)
{
    char *dir = test_tmpdir();
    /* Raw lines: cta x y z, warp, then (lineinfo) the source line. */
    wst_memtrace *m = import_text(dir, "kernel-1.trace", FIXTURE_HEADER("5", "1") FIXTURE_FORMAT
        "1 0 0 1 42 0010 00000003 0 LDGSTS.E.BYPASS.128 2 R2 R4 16 1 0x40 16 0 \n"
        "0 0 0 0 42 0010 00000001 0 LDGSTS.E.BYPASS.128 2 R2 R4 16 2 0x80 0 \n"
        "1 0 0 1 42 0010 00000003 0 LDGSTS.E.BYPASS.128 2 R2 R4 16 1 0x7f2000000000 16 0 \n"
        "0 0 0 0 42 0010 00000001 0 LDGSTS.E.BYPASS.128 2 R2 R4 16 2 0x7f3000000000 0 \n"
        "1 0 0 1 43 0020 00000001 0 STG.E 2 R2 R4 4 2 0x7f2000000100 0 \n");
    const wst_memkernel_records *per = &m->per_kernel[0];
    cr_assert_eq(per->count, 3, "the shared halves of LDGSTS are dropped");
    cr_assert_eq(per->records[0].cta, 1);
    cr_assert_eq(per->records[0].warp, 1);
    cr_assert_eq(per->records[0].addr[1], 0x7f2000000010ull);
    cr_assert_eq(per->records[0].cache_op, WST_OP_CG);
    cr_assert_eq(per->records[0].size, 16);
    cr_assert_eq(per->records[1].cta, 0);
    cr_assert_eq(per->records[1].addr[0], 0x7f3000000000ull);
    cr_assert_eq(pc_of(m, 0, &per->records[0])->line, 42);
    cr_assert_eq(pc_of(m, 0, &per->records[2])->line, 43);
    cr_assert_eq(m->trace.kernels[0].pc_count, 2);
    wst_memtrace_free(m);
    test_tmpdir_cleanup(dir);
}

Test(accelsim_import, kernelslist_order_xz_and_v6_headers)
{
    char *dir = test_tmpdir();
    free(fixture_write(dir, "kernel-1.traceg",
                       FIXTURE_HEADER("4", "0") FIXTURE_FORMAT "\n" "#BEGIN_TB\nthread block = 0,0,0\n"
                       "warp = 0\ninsts = 1\n0010 00000001 0 STG.E 2 R2 R4 4 2 0x1000 \n#END_TB\n"));
    free(fixture_write(dir, "kernel-2.traceg",
                       "-kernel name = second\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n"
                       "-accelsim tracer version = 6\n-some future key = 17\n"
                       FIXTURE_FORMAT "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                       "0010 00000001 1 R3 LDG.E 1 R2 4 2 0x2000 7 \n#END_TB\n"));
    char *second = test_path(dir, "kernel-2.traceg");
    char *cmd = NULL;
    cr_assert_geq(asprintf(&cmd, "xz -q '%s'", second), 0);
    cr_assert_eq(system(cmd), 0, "xz must be installed (scripts/deps.sh)");
    char *list = fixture_write(dir, "kernelslist.g",
                               "MemcpyHtoD,0x00007fd165500000,400\nkernel-1.traceg\n"
                               "MemcpyHtoD,0x00007fd165500200,400\nkernel-2.traceg.xz\n");
    wst_memtrace *m = import_ok(dir);
    cr_assert_eq(m->trace.kernel_count, 2);
    cr_assert_str_eq(m->trace.kernels[0].name, "_Z4testPf");
    cr_assert_str_eq(m->trace.kernels[1].name, "second");
    cr_assert_eq(m->per_kernel[1].count, 1);
    cr_assert_eq(m->per_kernel[1].records[0].addr[0], 0x2000);
    cr_assert_eq(m->per_kernel[1].records[0].kind, WST_LOAD);
    wst_memtrace_free(m);
    free(list);
    free(cmd);
    free(second);
    test_tmpdir_cleanup(dir);
}

/* FIXTURE_HEADER is lines 1-10 and the format line is 11, so the first
 * body line is line 12. */
#define BODY(...) FIXTURE_HEADER("4", "0") FIXTURE_FORMAT __VA_ARGS__

static void expect_error(const char *text, const char *located, const char *what)
{
    char *dir = test_tmpdir();
    const char *msg = fixture_import_error(dir, "kernel-1.traceg", text);
    cr_assert(strstr(msg, located) != NULL, "'%s' should name '%s'", msg, located);
    cr_assert(strstr(msg, what) != NULL, "'%s' should say '%s'", msg, what);
    test_tmpdir_cleanup(dir);
}

Test(accelsim_import, malformed_lines_are_located)
{
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0010 00000001 0 STG.E 2 R2\n#END_TB\n"),
                 "kernel-1.traceg:16: ", "truncated line");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0010 00000001 0 STG.E 2 R2 R4 4 2 0x10zz \n#END_TB\n"),
                 "kernel-1.traceg:16: ", "bad hex base address '0x10zz'");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0010 00000007 0 STG.E 2 R2 R4 4 2 0x1000 4 \n#END_TB\n"),
                 "kernel-1.traceg:16: ", "expected 2 deltas for mask 00000007, found 1");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0010 00000003 0 STG.E 2 R2 R4 4 2 0x1000 4 4 \n#END_TB\n"),
                 "kernel-1.traceg:16: ", "wrong number of addresses or deltas");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0010 00000003 0 STG.E 2 R2 R4 4 0 0x1000 \n#END_TB\n"),
                 "kernel-1.traceg:16: ", "expected 2 addresses");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0010 00000005 0 STG.E 2 R2 R4 4 1 0x1000 4 \n#END_TB\n"),
                 "kernel-1.traceg:16: ", "non-contiguous mask");
    expect_error("-kernel name = k\n-grid dim = (1,1,1)\ngarbage here\n",
                 "kernel-1.traceg:3: ", "unknown header line format");
    expect_error(BODY("0010 00000001 0 STG.E 2 R2 R4 4 2 0x1000 \n"),
                 "kernel-1.traceg:12: ", "instruction outside a thread block");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
                      "0010 00000001 0 STG.E 2 R2 R4 4 2 0x1000 \n#END_TB\n"),
                 "kernel-1.traceg:17: ", "warp 0 has 1 instructions but 'insts = 2'");
    expect_error(BODY("#BEGIN_TB\nthread block = 5,0,0\n"), "kernel-1.traceg:13: ",
                 "outside grid");
    /* Numbers that do not fit are quoted as written, never wrapped. */
    expect_error(BODY("#BEGIN_TB\nthread block = -1,0,0\n"), "kernel-1.traceg:13: ",
                 "bad line 'thread block = -1,0,0' (expected 'thread block = x,y,z', whole "
                 "numbers below 2^32)");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 99999999999999999999\n"),
                 "kernel-1.traceg:15: ",
                 "bad line 'insts = 99999999999999999999' (expected 'insts = N', a whole number "
                 "below 2^32)");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 4294967296\n"),
                 "kernel-1.traceg:14: ", "bad line 'warp = 4294967296'");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"),
                 "kernel-1.traceg:15: ", "ends inside a thread block");
    expect_error(BODY("#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                      "0010 00000001 0 STG.E 2 R2 R4 3 2 0x1000 \n#END_TB\n"),
                 "kernel-1.traceg:16: ", "memory width 3");
}

Test(accelsim_import, missing_kernel_file_names_the_list_line)
{
    char *dir = test_tmpdir();
    const char *msg = fixture_import_error(dir, "kernelslist.g",
                                           "MemcpyHtoD,0x1000,4\n\nkernel-7.traceg\n");
    cr_assert(strstr(msg, "kernelslist.g:3: ") != NULL, "%s", msg);
    cr_assert(strstr(msg, "kernel-7.traceg is missing") != NULL, "%s", msg);
    test_tmpdir_cleanup(dir);
}

Test(accelsim_import, truncated_xz_is_an_error)
{
    char *dir = test_tmpdir();
    char *path = fixture_write(dir, "kernel-1.traceg", BODY("#BEGIN_TB\nthread block = 0,0,0\n"
                                                            "warp = 0\ninsts = 0\n#END_TB\n"));
    char *cmd = NULL;
    cr_assert_geq(asprintf(&cmd, "xz -q '%s' && truncate -s 40 '%s.xz'", path, path), 0);
    cr_assert_eq(system(cmd), 0);
    char *xz = NULL;
    cr_assert_geq(asprintf(&xz, "%s.xz", path), 0);
    ws_error err = {{0}};
    cr_assert_null(fixture_import(xz, &err));
    cr_assert(strstr(err.msg, "kernel-1.traceg.xz:") != NULL, "%s", err.msg);
    free(xz);
    free(cmd);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* A .xz whose block header claims a 3 GiB dictionary: the decoder would
 * allocate it for a few bytes of data.  The import refuses in one line
 * naming the file and the memory, and WARPSCOPE_XZ_MEMLIMIT is the way out. */
Test(accelsim_import, xz_dictionary_past_the_memory_limit_is_refused)
{
    char *dir = test_tmpdir();
    const char *text = "-kernel name = k\n-kernel id = 1\n";
    uint8_t xz[4096];
    size_t size = 0;
    cr_assert_eq(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC32, NULL, (const uint8_t *)text,
                                         strlen(text), xz, &size, sizeof xz),
                 LZMA_OK);
    /* The first block header follows the 12-byte stream header. */
    lzma_filter filters[LZMA_FILTERS_MAX + 1];
    lzma_block block = {.version = 0, .check = LZMA_CHECK_CRC32, .filters = filters};
    block.header_size = lzma_block_header_size_decode(xz[12]);
    cr_assert_eq(lzma_block_header_decode(&block, NULL, xz + 12), LZMA_OK);
    lzma_options_lzma *lz = filters[0].options;
    lz->dict_size = 3u << 30;
    cr_assert_eq(lzma_block_header_encode(&block, xz + 12), LZMA_OK); /* same size, new CRC */
    free(lz);
    char *path = test_path(dir, "kernel-1.traceg.xz");
    test_write_file(path, xz, size);
    ws_error err = {{0}};
    cr_assert_null(fixture_import(path, &err));
    cr_assert(strstr(err.msg, "kernel-1.traceg.xz: the xz stream needs 3") != NULL, "%s", err.msg);
    cr_assert(strstr(err.msg, "over the limit of 256 MiB") != NULL, "%s", err.msg);
    cr_assert_null(strchr(err.msg, '\n'), "%s", err.msg);
    free(path);
    test_tmpdir_cleanup(dir);
}
