/* tests/test_memory_bounds.c: memory follows live state, not the size of
 * the input (issue 42, item 3; README "Limits").  Each test writes an
 * input that the unbounded code needed far more memory for, and runs the
 * optimized CLI under an address-space cap (cli_run_capped) that the old
 * code exceeded and the bounded code fits, with room either way. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/wst.h"
#include "util/json_stream.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

#define MIB ((size_t)1 << 20)

/* 10,000 PCs each run once: analyze -o built the kernel's PC table as one
 * JSON document (about 16 KB a PC) and needed 350 MiB of address space
 * (--threads 1, one malloc arena); each PC's entry is now written as it is
 * made (the analysis's own per-PC state: the next test). */
/* `analyze -o DIR/r.json` (returned in *json) of a trace of `pcs` PCs each
 * run once, on one thread (one malloc arena), under cap. */
static cli_result analyze_pcs_capped(const char *dir, uint32_t pcs, size_t cap, char **json)
{
    char *trace = test_path(dir, "pcs.wst");
    *json = test_path(dir, "r.json");
    test_write_pcs_trace(trace, pcs, 0);
    cli_result r = cli_run_capped(cap, "analyze", trace, "--threads", "1", "-o", *json, "--quiet",
                                  NULL);
    free(trace);
    return r;
}

Test(memory_bounds, analyze_writes_a_kernel_of_many_pcs_one_pc_at_a_time)
{
    char *dir = test_tmpdir(), *json;
    cli_result r = analyze_pcs_capped(dir, 10000, 240 * MIB, &json);
    cr_expect_eq(r.status, 0, "%s", r.err);
    json_t *doc = test_load_json(json);
    cr_assert_not_null(doc);
    json_t *pcs = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "pcs");
    cr_expect_eq(json_array_size(pcs), 10000);
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(pcs, 9999), "index")), 9999);
    json_decref(doc);
    cli_result_free(&r);
    free(json);
    test_tmpdir_cleanup(dir);
}

/* 30,000 PCs each run once: the analysis held about 9.4 KB a PC whatever
 * it ran (each PC's six reuse histograms dense, 3.5 KB, in each of two
 * metrics instances), over 300 MiB of address space; a PC's histograms
 * now hold the buckets it filled (analyzer/pc_reuse.h), within 200 MiB
 * (it fits 130). */
Test(memory_bounds, analyze_holds_each_pc_in_proportion_to_what_it_ran)
{
    char *dir = test_tmpdir(), *json;
    cli_result r = analyze_pcs_capped(dir, 30000, 200 * MIB, &json);
    cr_expect_eq(r.status, 0, "%s", r.err);
    size_t bytes = 0;
    free(test_read_file(json, &bytes));
    cr_expect_gt(bytes, 30000u * 1000, "every PC's entry is written: %zu bytes", bytes);
    cli_result_free(&r);
    free(json);
    test_tmpdir_cleanup(dir);
}

/* A report of `copies` kernels, each the one kernel of analyze's report on
 * a trace of `pcs` PCs, written to path. */
static void write_report_of_copies(const char *dir, const char *path, uint32_t pcs, int copies)
{
    char *trace = test_path(dir, "one.wst"), *json = test_path(dir, "one.json");
    test_write_pcs_trace(trace, pcs, 0);
    cli_result r = cli_run_capped(0, "analyze", trace, "-o", json, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *doc = test_load_json(json);
    cr_assert_not_null(doc);
    char *entry = json_dumps(json_array_get(json_object_get(doc, "kernels"), 0), JSON_COMPACT);
    json_object_set_new(doc, "kernels", json_array());
    char *text = json_dumps(doc, JSON_COMPACT);
    const char *at = json_empty_array_at(text, "kernels");
    cr_assert_not_null(at);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fwrite(text, 1, (size_t)(at - text) + 1, f);
    for (int i = 0; i < copies; i++)
        fprintf(f, "%s%s", i ? "," : "", entry);
    fputs(at + 1, f);
    cr_assert_eq(fclose(f), 0);
    free(text);
    free(entry);
    json_decref(doc);
    free(json);
    free(trace);
}

/* A 25 MB report of 3,000 kernels: report loaded it whole, 3.8 times its
 * size (about 150 MiB of address space); it now reads one kernel at a time
 * into a spool, and draws the page within 64 MiB. */
Test(memory_bounds, report_reads_a_large_report_one_kernel_at_a_time)
{
    char *dir = test_tmpdir(), *json = test_path(dir, "big.json"),
         *html = test_path(dir, "big.html");
    write_report_of_copies(dir, json, 2, 3000);
    size_t bytes = 0;
    free(test_read_file(json, &bytes));
    cr_assert_gt(bytes, 20u << 20, "%zu bytes", bytes);
    cli_result r = cli_run_capped(64 * MIB, "report", json, "--html", html, NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    size_t page = 0;
    free(test_read_file(html, &page));
    cr_expect_gt(page, 0u);
    cli_result_free(&r);
    free(html);
    free(json);
    test_tmpdir_cleanup(dir);
}

/* A report of one kernel of 10,000 PCs: report read that kernel as one
 * JSON tree, and the page kept every PC's object (184 MiB at its peak,
 * over 128 MiB of address space, for the text and the page alike); its
 * PCs are now read one at a time, into what the page prints of each, and
 * both fit 64 MiB (the page is 15 MiB at its peak). */
Test(memory_bounds, report_reads_a_kernel_of_many_pcs_one_pc_at_a_time)
{
    char *dir = test_tmpdir(), *json, *html = test_path(dir, "r.html");
    cli_result r = analyze_pcs_capped(dir, 10000, 0, &json);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run_capped(64 * MIB, "report", json, NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "kernel launches"), "%.400s", r.out);
    cli_result_free(&r);
    r = cli_run_capped(64 * MIB, "report", json, "--html", html, NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    char *page = test_read_file(html, NULL);
    cr_assert_not_null(page);
    cr_expect(strstr(page, "The first 1000 of 10000 load PCs are listed"), "every PC counted");
    cr_expect(strstr(page, "Showing the 48 of 10000 PCs with the most requests"),
              "the heatmap's rows");
    free(page);
    cli_result_free(&r);
    free(html);
    free(json);
    test_tmpdir_cleanup(dir);
}

/* An Accel-Sim trace directory of `kernels` launches of one warp and one
 * load each. */
static void write_accelsim_launches(const char *dir, int kernels)
{
    char *list = test_path(dir, "kernelslist.g");
    FILE *l = fopen(list, "w");
    cr_assert_not_null(l);
    for (int i = 1; i <= kernels; i++) {
        char name[64];
        snprintf(name, sizeof name, "kernel-%d.traceg", i);
        fprintf(l, "%s\n", name);
        char *path = test_path(dir, name);
        FILE *f = fopen(path, "w");
        cr_assert_not_null(f);
        fprintf(f,
                "-kernel name = _Z6kernelPfi\n-kernel id = %d\n-grid dim = (1,1,1)\n"
                "-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n-binary version = 61\n"
                "-cuda stream id = 0\n-shmem base_addr = 0x00007fb05c000000\n"
                "-local mem base_addr = 0x00007fb05a000000\n-nvbit version = 1.5.5\n"
                "-accelsim tracer version = 4\n-enable lineinfo = 0\n\n"
                "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num "
                "[reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\n\n"
                "thread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
                "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7fb05b000000 4\n"
                "0020 ffffffff 0 EXIT 0 0\n\n#END_TB\n",
                i);
        cr_assert_eq(fclose(f), 0);
        free(path);
    }
    cr_assert_eq(fclose(l), 0);
    free(list);
}

/* 20,000 launches: import held about 4.3 KB a launch until the end, where
 * the metadata was one JSON document of them all (over 96 MiB of address
 * space); then about 1.2 KB a launch, each launch's entry, PC table and
 * CTA buffer until the close (over 56 MiB); now each launch is spooled
 * when its file ends (wst_writer_end_kernel), within 40 MiB (it fits 32). */
/* `import accelsim from -o trace` of `launches` launches under cap, and
 * the trace it wrote reads back with all of them. */
static void expect_import_within(const char *from, const char *trace, int launches, size_t cap)
{
    cli_result r = cli_run_capped(cap, "import", "accelsim", from, "-o", trace, NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run_capped(0, "info", trace, NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    char plain[32], grouped[32];
    snprintf(plain, sizeof plain, "%d", launches);
    snprintf(grouped, sizeof grouped, "%d,%03d", launches / 1000, launches % 1000);
    cr_expect(strstr(r.out, plain) || strstr(r.out, grouped), "%.400s", r.out);
    cli_result_free(&r);
}

Test(memory_bounds, import_of_many_launches)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "t.wst");
    write_accelsim_launches(dir, 20000);
    expect_import_within(dir, trace, 20000, 40 * MIB);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* A directory whose path is about 3 KB long (the most a path may be is 4
 * KB), made under dir; returned. */
static char *long_directory(const char *dir)
{
    char level[201];
    memset(level, 'd', 200);
    level[200] = '\0';
    char *path = strdup(dir);
    for (int i = 0; i < 15; i++) {
        char *deeper = test_path(path, level);
        free(path);
        path = deeper;
        cr_assert_eq(mkdir(path, 0755), 0, "%s", strerror(errno));
    }
    return path;
}

/* 12,000 launches in a directory whose path is 3 KB long: import kept
 * each input file's path, to refuse an output naming one (about 3 KB a
 * launch here, over 36 MiB; item 1 of issue 42), and the chunk table's
 * 12 bytes a launch, until the close; the inputs past the first 1,024 are
 * now kept in a temporary file and the table written there as it grows
 * (it fits 32 MiB).  An output naming the last of them is still refused. */
Test(memory_bounds, import_keeps_neither_its_inputs_nor_its_chunks_in_memory)
{
    char *dir = test_tmpdir(), *deep = long_directory(dir), *trace = test_path(dir, "t.wst");
    write_accelsim_launches(deep, 12000);
    expect_import_within(deep, trace, 12000, 32 * MIB);
    /* a second, short name for the last input, so that the error's two
     * paths fit its line */
    char *last = test_path(deep, "kernel-12000.traceg"), *same = test_path(dir, "last.traceg");
    cr_assert_eq(link(last, same), 0, "%s", strerror(errno));
    size_t before = 0, after = 0;
    free(test_read_file(last, &before));
    cli_result r = cli_run_capped(0, "import", "accelsim", deep, "-o", same, NULL);
    cr_expect_neq(r.status, 0);
    cr_expect(test_is_one_line(r.err) && strstr(r.err, "last.traceg: is the input /tmp/"), "%.200s",
              r.err);
    free(test_read_file(last, &after));
    cr_expect_eq(after, before, "the input was replaced");
    cli_result_free(&r);
    free(same);
    free(last);
    free(trace);
    free(deep);
    test_tmpdir_cleanup(dir);
}

/* A PC-table bomb: one launch of 1,000,000 PCs, under 1 MB of file.  Its
 * metadata entry was one JSON tree (about 800 MiB at its peak); the PC
 * table is now read an entry at a time (json_stream_load_nested), and info
 * needs what the table decodes to, within 160 MiB (it fits 96). */
Test(memory_bounds, info_reads_a_launch_of_a_million_pcs_one_pc_at_a_time)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "bomb.wst");
    ws_error err;
    wst_origin origin = {.collector = "test"};
    wst_writer *w = wst_writer_open(trace, &origin, NULL, &err);
    cr_assert_not_null(w, "%s", err.msg);
    wst_kernel k = {.name = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 0, "%s", err.msg);
    for (uint32_t i = 0; i < 1000000; i++) {
        wst_pc pc = {.offset = 16ull * i, .sass = "LDG.E.SYS"};
        cr_assert_eq(wst_writer_add_pc(w, 0, &pc, &err), (int64_t)i, "%s", err.msg);
    }
    wst_record r = {.size = 4, .mask = 1};
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    size_t bytes = 0;
    free(test_read_file(trace, &bytes));
    cr_assert_lt(bytes, 1u << 20, "%zu bytes", bytes);
    cli_result res = cli_run_capped(160 * MIB, "info", trace, NULL);
    cr_expect_eq(res.status, 0, "%s", res.err);
    cr_expect(strstr(res.out, "PCs 1000000"), "%.600s", res.out);
    cli_result_free(&res);
    free(trace);
    test_tmpdir_cleanup(dir);
}
