/* tests/test_trace_api.c: the stable C API of formats/trace_api.h, which
 * the Python package loads from build/libwarpscope.so: what it says of a
 * known trace, its records field by field, and its one-line errors. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "formats/trace_api.h"
#include "formats/wst.h"
#include "tests/helpers.h"

/* Kernel 0 "_Z4Fan1PfS_ii", grid (3, 2, 1), block 64, PCs 0x40 and 0x90:
 * CTA 4 has a load of 2 lanes on SM 7 at time 99; CTA 1 a store with no SM
 * and an atomic with no lanes.  Kernel 1 "plain" has no records. */
static char *write_known(const char *dir)
{
    ws_error err;
    char *path = test_path(dir, "known.wst");
    wst_origin origin = {.collector = "test", .gpu = "volta"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    cr_assert_not_null(w, "%s", err.msg);
    wst_kernel k0 = {.name = "_Z4Fan1PfS_ii", .grid = {3, 2, 1}, .block = {64, 1, 1},
                     .shared_mem_bytes = 512, .registers_per_thread = 24};
    wst_kernel k1 = {.name = "plain", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_writer_add_kernel(w, &k0, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_writer_add_kernel(w, &k1, &err), 1, "%s", err.msg);
    wst_pc ld = {.offset = 0x40, .sass = "LDG.E.64", .file = "a.cu", .line = 7};
    wst_pc st = {.offset = 0x90, .sass = "STG.E"};
    cr_assert_eq(wst_writer_add_pc(w, 0, &ld, &err), 0);
    cr_assert_eq(wst_writer_add_pc(w, 0, &st, &err), 1);
    wst_record r;
    memset(&r, 0, sizeof r);
    r.cta = 4;
    r.warp = 1;
    r.size = 8;
    r.mask = 0x5;
    r.addr[0] = 0x1000;
    r.addr[2] = 0x1010;
    r.has_sm = 1;
    r.sm = 7;
    r.has_time = 1;
    r.timestamp = 99;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0, "%s", err.msg);
    memset(&r, 0, sizeof r);
    r.cta = 1;
    r.pc = 1;
    r.kind = WST_STORE;
    r.size = 4;
    r.mask = 1u << 31;
    r.addr[31] = 0xdeadbeef0;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0, "%s", err.msg);
    r.kind = WST_ATOMIC;
    r.mask = 0;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    return path;
}

Test(trace_api, describes_the_trace_and_its_kernels)
{
    char *dir = test_tmpdir(), *path = write_known(dir), err[256] = "";
    ws_api_trace *t = ws_trace_open(path, err, sizeof err);
    cr_assert_not_null(t, "%s", err);
    cr_expect_eq(ws_trace_kernel_count(t), 2);
    cr_expect_str_eq(ws_trace_origin(t, "collector"), "test");
    cr_expect_str_eq(ws_trace_origin(t, "gpu"), "volta");
    cr_expect_null(ws_trace_origin(t, "workload"));
    cr_expect_eq(ws_trace_format_version(t), WST_VERSION);
    cr_expect_str_eq(ws_trace_kernel_name(t, 0), "_Z4Fan1PfS_ii");
    cr_expect_null(ws_trace_kernel_name(t, 2));
    uint32_t grid[3], block[3], shape[2], ids[4];
    uint64_t counts[6];
    cr_assert_eq(ws_trace_kernel_dims(t, 0, grid, block), 0);
    cr_expect(grid[0] == 3 && grid[1] == 2 && grid[2] == 1 && block[0] == 64);
    cr_assert_eq(ws_trace_kernel_counts(t, 0, counts, shape), 0);
    uint64_t want[6] = {3, 1, 1, 1, 2, 2};
    cr_expect_arr_eq(counts, want, sizeof want);
    cr_expect(shape[0] == 512 && shape[1] == 24);
    cr_expect_eq(ws_trace_kernel_counts(t, 9, counts, shape), -1);
    cr_assert_eq(ws_trace_kernel_ctas(t, 0, ids, 4), 2);
    cr_expect(ids[0] == 1 && ids[1] == 4, "sorted CTA ids");
    cr_expect_eq(ws_trace_kernel_ctas(t, 1, NULL, 0), 0);
    uint64_t offset;
    const char *sass, *file;
    uint32_t line;
    cr_assert_eq(ws_trace_pc(t, 0, 0, &offset, &sass, &file, &line), 0);
    cr_expect(offset == 0x40 && strcmp(sass, "LDG.E.64") == 0 && strcmp(file, "a.cu") == 0 &&
              line == 7);
    cr_assert_eq(ws_trace_pc(t, 0, 1, &offset, &sass, &file, &line), 0);
    cr_expect(offset == 0x90 && file == NULL && line == 0);
    cr_expect_eq(ws_trace_pc(t, 0, 2, &offset, &sass, &file, &line), -1);
    char name[64];
    ws_demangle(ws_trace_kernel_name(t, 0), name, sizeof name);
    cr_expect_str_eq(name, "Fan1");
    ws_demangle("plain", name, sizeof name);
    cr_expect_str_eq(name, "plain");
    ws_trace_close(t);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(trace_api, reads_records_a_few_at_a_time)
{
    char *dir = test_tmpdir(), *path = write_known(dir), err[256] = "";
    ws_api_trace *t = ws_trace_open(path, err, sizeof err);
    cr_assert_not_null(t, "%s", err);
    ws_api_cursor *c = ws_trace_cursor(t, 0, -1, err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    ws_api_record out[3];
    memset(out, 0xff, sizeof out);
    /* Two calls: the caller's array may be smaller than a batch. */
    cr_assert_eq(ws_cursor_read(c, out, 2, err, sizeof err), 2, "%s", err);
    cr_assert_eq(ws_cursor_read(c, out + 2, 1, err, sizeof err), 1, "%s", err);
    cr_assert_eq(ws_cursor_read(c, out, 3, err, sizeof err), 0, "the end");
    ws_cursor_close(c);
    /* By CTA: CTA 1's store and atomic, then CTA 4's load. */
    cr_expect(out[0].cta == 1 && out[0].kind == 1 && out[0].pc_index == 1 &&
              out[0].pc_offset == 0x90 && out[0].sm == -1 && out[0].has_time == 0);
    cr_expect(out[0].mask == 1u << 31 && out[0].addr[31] == 0xdeadbeef0 && out[0].addr[0] == 0,
              "inactive lanes are 0");
    cr_expect(out[1].kind == 2 && out[1].mask == 0 && out[1].addr[31] == 0);
    cr_expect(out[2].kernel == 0 && out[2].cta == 4 && out[2].warp == 1 && out[2].size == 8 &&
              out[2].pc_offset == 0x40 && out[2].sm == 7 && out[2].has_time == 1 &&
              out[2].timestamp == 99);
    cr_expect(out[2].addr[0] == 0x1000 && out[2].addr[1] == 0 && out[2].addr[2] == 0x1010);
    c = ws_trace_cursor(t, 0, 4, err, sizeof err);
    cr_assert_not_null(c, "%s", err);
    cr_expect_eq(ws_cursor_read(c, out, 3, err, sizeof err), 1, "CTA 4 alone");
    ws_cursor_close(c);
    cr_expect_null(ws_trace_cursor(t, 5, -1, err, sizeof err));
    cr_expect(strstr(err, "known.wst: no such kernel") != NULL, "%s", err);
    ws_trace_close(t);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(trace_api, states_its_record_layout)
{
    cr_expect_eq(ws_api_version(), WS_API_VERSION);
    cr_expect_eq(ws_api_record_size(), sizeof(ws_api_record));
    cr_expect_eq(ws_api_record_field_offset("pc_offset"), (long)offsetof(ws_api_record, pc_offset));
    cr_expect_eq(ws_api_record_field_offset("addr"), (long)offsetof(ws_api_record, addr));
    cr_expect_eq(ws_api_record_field_offset("nonsense"), -1);
    cr_expect_eq(ws_api_record_field_offset(NULL), -1);
}

Test(trace_api, a_bad_file_is_one_line_naming_it)
{
    char *dir = test_tmpdir(), *path = test_path(dir, "junk.wst"), err[256] = "";
    cr_assert_null(ws_trace_open(path, err, sizeof err));
    cr_expect(strncmp(err, path, strlen(path)) == 0 && strchr(err, '\n') == NULL, "%s", err);
    cr_assert_eq(test_write_file(path, "WSTRACE\0 not really", 19), 0);
    cr_assert_null(ws_trace_open(path, err, sizeof err));
    cr_expect(strncmp(err, path, strlen(path)) == 0 && strlen(err) > strlen(path) + 2, "%s", err);
    free(path);
    test_tmpdir_cleanup(dir);
}
