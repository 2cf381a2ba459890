/* tests/test_cta_limit.c: a CTA whose records would not fit in memory is
 * refused in one line (README "Limits", WARPSCOPE_CTA_LIMIT), by the
 * scheduler (analyze) and by export alike, before it can exhaust memory. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "formats/packed_record.h"
#include "formats/wst.h"
#include "tests/helpers.h"

/* 40,000 coalesced loads in CTA 0 of kernel 1: 1.28 MB packed, over a 1 MiB
 * limit. */
#define BIG_CTA_RECORDS 40000

/* CTA 0 of kernel 1 holds `records` loads: with more CTAs, each its own. */
static char *write_ctas(const char *dir, uint32_t ctas, uint32_t records);

static char *write_big_cta(const char *dir) { return write_ctas(dir, 1, BIG_CTA_RECORDS); }

static char *write_ctas(const char *dir, uint32_t ctas, uint32_t records)
{
    char *path = test_path(dir, "big-cta.wst");
    ws_error err;
    wst_origin origin = {.collector = "test"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    cr_assert_not_null(w, "%s", err.msg);
    wst_pc pc = {.offset = 0x10, .sass = "LDG.E"};
    wst_kernel k = {.name = "k", .grid = {ctas, 1, 1}, .block = {64, 1, 1}, .pcs = &pc, .pc_count = 1};
    /* A small kernel first: export must not leave its file behind. */
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 1, "%s", err.msg);
    wst_record r = {.size = 4, .mask = 0xffffffffu};
    for (int l = 0; l < WST_WARP_SIZE; l++)
        r.addr[l] = 0x10000 + 4u * (unsigned)l;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0, "%s", err.msg);
    for (uint32_t i = 0; i < records * ctas; i++) {
        r.warp = i & 1;
        r.cta = i / records;
        for (int l = 0; l < WST_WARP_SIZE; l++)
            r.addr[l] = 0x10000 + 128u * (i % 64) + 4u * (unsigned)l;
        cr_assert_eq(wst_writer_add_record(w, 1, &r, &err), 0, "%s", err.msg);
        if (i % records == records - 1)
            cr_assert_eq(wst_writer_end_cta(w, 1, r.cta, &err), 0, "%s", err.msg);
    }
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    return path;
}

static void assert_refused(const cli_result *r, const char *path)
{
    cr_assert_neq(r->status, 0, "%s", r->out);
    cr_assert(test_is_one_line(r->err), "%s", r->err);
    cr_assert(strstr(r->err, path) != NULL, "%s", r->err);
    cr_assert(strstr(r->err, "kernel 1 CTA 0: its records need more than 1 MiB in memory") != NULL,
              "%s", r->err);
    cr_assert(strstr(r->err, "WARPSCOPE_CTA_LIMIT") != NULL, "%s", r->err);
}

Test(cta_limit, grouping_refuses_past_the_limit_naming_kernel_and_cta)
{
    setenv("WARPSCOPE_CTA_LIMIT", "1", 1);
    packed_cta records = {0};
    uint32_t starts[2] = {0};
    cta_grouping g = {.records = &records, .starts = starts, .warps = 1, .kernel = 3, .cta = 7};
    wst_record batch[1024];
    memset(batch, 0, sizeof batch);
    ws_error err = {{0}};
    int rc = 0;
    size_t taken = 0;
    while (rc == 0 && taken < 64 * 1024) { /* 2 MiB worth of 32-byte records */
        rc = cta_grouping_take(&g, batch, 1024, &err);
        taken += 1024;
    }
    unsetenv("WARPSCOPE_CTA_LIMIT");
    cr_assert_eq(rc, -1);
    cr_assert_str_eq(err.msg, "kernel 3 CTA 7: its records need more than 1 MiB in memory (set "
                              "WARPSCOPE_CTA_LIMIT=MiB to allow it)");
    cr_assert_leq(packed_cta_bytes(&records), (1u << 20) + 1024 * sizeof(packed_record),
                  "refused within one batch of the limit");
    packed_cta_free(&records);
}

Test(cta_limit, analyze_and_export_refuse_and_write_nothing)
{
    char *dir = test_tmpdir();
    char *trace = write_big_cta(dir);
    char *json = test_path(dir, "r.json"), *out = test_path(dir, "exported");
    setenv("WARPSCOPE_CTA_LIMIT", "1", 1);
    cli_result a = cli_run("analyze", trace, "-o", json, NULL);
    cli_result e = cli_run("export", "accelsim", trace, "-o", out, NULL);
    unsetenv("WARPSCOPE_CTA_LIMIT");
    assert_refused(&a, trace);
    assert_refused(&e, trace);
    struct stat st;
    cr_assert_neq(stat(json, &st), 0, "no report from a refused run");
    cr_assert_neq(stat(out, &st), 0, "no export directory from a refused run");
    /* Under the default limit the same trace runs. */
    cli_result ok = cli_run("export", "accelsim", trace, "-o", out, NULL);
    cr_assert_eq(ok.status, 0, "%s", ok.err);
    cli_result_free(&a);
    cli_result_free(&e);
    cli_result_free(&ok);
    free(json);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Issue 42, item 3: the limit holds the resident CTAs together.  Four CTAs
 * of 13,000 loads (about 0.4 MiB packed each, under a 1 MiB limit alone)
 * are all resident at once on fermi's 15 SMs: together they pass it. */
Test(cta_limit, resident_ctas_are_limited_together)
{
    char *dir = test_tmpdir();
    char *trace = write_ctas(dir, 4, 13000);
    setenv("WARPSCOPE_CTA_LIMIT", "1", 1);
    cli_result a = cli_run("analyze", trace, NULL);
    unsetenv("WARPSCOPE_CTA_LIMIT");
    cr_expect_neq(a.status, 0, "%s", a.out);
    cr_expect(test_is_one_line(a.err) && strstr(a.err, "with the CTAs resident beside it") &&
                  strstr(a.err, "WARPSCOPE_CTA_LIMIT"),
              "%s", a.err);
    setenv("WARPSCOPE_CTA_LIMIT", "2", 1);
    cli_result ok = cli_run("analyze", trace, NULL);
    unsetenv("WARPSCOPE_CTA_LIMIT");
    cr_expect_eq(ok.status, 0, "under a 2 MiB limit it runs: %s", ok.err);
    cli_result_free(&a);
    cli_result_free(&ok);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* A grouping cleared or freed leaves the total: one CTA after another
 * never adds up. */
Test(cta_limit, a_cleared_cta_leaves_the_resident_total)
{
    setenv("WARPSCOPE_CTA_LIMIT", "1", 1);
    wst_record batch[1024];
    memset(batch, 0, sizeof batch);
    ws_error err = {{0}};
    packed_cta records = {0};
    for (int round = 0; round < 8; round++) { /* 8 x 0.5 MiB, one at a time */
        uint32_t starts[2] = {0};
        packed_cta_clear(&records);
        cta_grouping g = {.records = &records, .starts = starts, .warps = 1, .kernel = 0, .cta = 0};
        for (int b = 0; b < 16; b++)
            cr_assert_eq(cta_grouping_take(&g, batch, 1024, &err), 0, "round %d: %s", round, err.msg);
    }
    packed_cta_free(&records);
    unsetenv("WARPSCOPE_CTA_LIMIT");
}
