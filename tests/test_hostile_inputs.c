/* tests/test_hostile_inputs.c: inputs written to mislead (issue 42, items
 * 4 and 5): names that are not UTF-8 or carry terminal escapes, counts that
 * do not add up, CRLF line endings, bad configs and options.  Each gives a
 * clear one-line error or reads back, and never a wrong answer. */
#include <criterion/criterion.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analyzer/config.h"
#include "analyzer/sched.h"
#include "formats/wst.h"
#include "formats/wst_meta.h"
#include "tests/helpers.h"
#include "util/text.h"

#ifndef WARPSCOPE_BIN
#define WARPSCOPE_BIN "build/asan/warpscope"
#endif

/* The vectoradd fixture's kernel trace, its kernel renamed new_name (NULL:
 * as is) and its lines ended by CRLF if crlf, written to dir/name; returns
 * the path. */
static char *fixture_kernel(const char *dir, const char *name, const char *new_name, int crlf)
{
    char src[4096];
    snprintf(src, sizeof src, "%s/accelsim/vectoradd/kernel-1.traceg", test_fixture_dir());
    char *text = test_read_file(src, NULL);
    cr_assert_not_null(text);
    char *path = test_path(dir, name);
    FILE *f = fopen(path, "wb");
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (new_name && strncmp(line, "-kernel name = ", 15) == 0)
            fprintf(f, "-kernel name = %s", new_name);
        else
            fputs(line, f);
        fputs(crlf ? "\r\n" : "\n", f);
    }
    fclose(f);
    free(text);
    return path;
}

Test(hostile, a_kernel_name_that_is_not_utf8_imports_and_reads_back)
{
    char *dir = test_tmpdir();
    char *kernel = fixture_kernel(dir, "kernel-1.traceg", "vec\xff\xfe" "Add", 0);
    char *trace = test_path(dir, "t.wst");
    cli_result imported = cli_run("import", "accelsim", kernel, "-o", trace, NULL);
    cr_assert_eq(imported.status, 0, "%s", imported.err);
    cli_result info = cli_run("info", trace, NULL);
    cr_expect_eq(info.status, 0, "the importer's trace must read back: %s", info.err);
    cr_expect(strstr(info.out, "vec??Add") != NULL, "%s", info.out);
    cli_result_free(&info);
    cli_result_free(&imported);
    free(trace);
    free(kernel);
    test_tmpdir_cleanup(dir);
}

Test(hostile, the_writer_refuses_a_name_that_is_not_utf8)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.wst");
    ws_error err = {{0}};
    wst_origin origin = {.collector = "test"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    cr_assert_not_null(w, "%s", err.msg);
    wst_kernel k = {.name = "bad\xc3(", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    cr_expect_lt(wst_writer_add_kernel(w, &k, &err), 0);
    cr_expect(strstr(err.msg, "not UTF-8") != NULL, "%s", err.msg);
    wst_writer_abort(w);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(hostile, a_kernel_name_cannot_send_escapes_to_the_terminal)
{
    char *dir = test_tmpdir();
    char *kernel = fixture_kernel(dir, "kernel-1.traceg", "k\x1b]0;owned\x07\x1b[2J", 0);
    char *trace = test_path(dir, "t.wst");
    cli_result imported = cli_run("import", "accelsim", kernel, "-o", trace, NULL);
    cr_assert_eq(imported.status, 0, "%s", imported.err);
    const char *commands[] = {"info", "dump", "analyze"};
    for (size_t i = 0; i < 3; i++) {
        cli_result r = cli_run(commands[i], trace, NULL);
        cr_expect_eq(r.status, 0, "%s: %s", commands[i], r.err);
        cr_expect_null(memchr(r.out, '\x1b', strlen(r.out)), "%s printed an escape", commands[i]);
        cr_expect_null(memchr(r.out, '\x07', strlen(r.out)), "%s printed a bell", commands[i]);
        cli_result_free(&r);
    }
    cli_result_free(&imported);
    free(trace);
    free(kernel);
    test_tmpdir_cleanup(dir);
}

Test(hostile, text_mending_keeps_utf8_and_replaces_the_rest)
{
    char ok[] = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
    cr_expect(ws_text_is_utf8(ok));
    cr_expect_eq(ws_text_mend(ok), 0);
    char bad[] = "a\x1b" "b\xc0\xaf" "c\xed\xa0\x80" "d\xc2\x9b" "e\x7f";
    cr_expect_not(ws_text_is_utf8("b\xc0\xaf"), "overlong");
    cr_expect_not(ws_text_is_utf8("c\xed\xa0\x80"), "surrogate");
    ws_text_mend(bad);
    cr_expect_str_eq(bad, "a?b??c???d??e?");
}

Test(hostile, crlf_accelsim_traces_import_like_lf_ones)
{
    char *dir = test_tmpdir();
    char *lf = fixture_kernel(dir, "lf.traceg", NULL, 0), *crlf = fixture_kernel(dir, "crlf.traceg", NULL, 1);
    char *lf_wst = test_path(dir, "lf.wst"), *crlf_wst = test_path(dir, "crlf.wst");
    cli_result a = cli_run("import", "accelsim", lf, "-o", lf_wst, NULL);
    cli_result b = cli_run("import", "accelsim", crlf, "-o", crlf_wst, NULL);
    cr_assert_eq(a.status, 0, "%s", a.err);
    cr_assert_eq(b.status, 0, "CRLF: %s", b.err);
    cli_result da = cli_run("dump", lf_wst, NULL), db = cli_run("dump", crlf_wst, NULL);
    cr_expect_str_eq(db.out, da.out, "the same records");
    cli_result_free(&a);
    cli_result_free(&b);
    cli_result_free(&da);
    cli_result_free(&db);
    free(lf);
    free(crlf);
    free(lf_wst);
    free(crlf_wst);
    test_tmpdir_cleanup(dir);
}

/* Metadata of one kernel with the given record counts and PC table. */
static int decode_kernel_json(const char *records, const char *by_kind, const char *pcs,
                              ws_error *err)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"format\":\"warpscope-trace\",\"version\":%d,\"origin\":{},\"kernels\":[{"
             "\"name\":\"k\",\"grid\":[1,1,1],\"block\":[32,1,1],\"shared_mem_bytes\":0,"
             "\"registers_per_thread\":0,\"records\":%s,\"records_by_kind\":%s,\"ctas\":1,"
             "\"pcs\":%s}]}",
             WST_VERSION, records, by_kind, pcs);
    wst_trace trace;
    int rc = wst_meta_decode(text, strlen(text), WST_VERSION, &trace, err);
    if (rc == 0)
        wst_trace_clear(&trace);
    return rc;
}

Test(hostile, records_by_kind_must_add_up_to_the_records)
{
    ws_error err = {{0}};
    cr_expect_eq(decode_kernel_json("96", "[90,4,2]", "[]", &err), 0, "%s", err.msg);
    cr_expect_neq(decode_kernel_json("96", "[4611686018427387904,0,0]", "[]", &err), 0);
    cr_expect(strstr(err.msg, "96 records") != NULL, "%s", err.msg);
    cr_expect_neq(decode_kernel_json("96", "[90,4,1]", "[]", &err), 0);
    cr_expect_neq(decode_kernel_json("96", "[18446744073709551615,1,0]", "[]", &err), 0);
}

/* A PC entry whose third field fails keeps its first two strings until the
 * trace is cleared (LeakSanitizer fails the suite otherwise). */
Test(hostile, a_pc_entry_that_fails_validation_frees_its_strings)
{
    ws_error err = {{0}};
    cr_expect_neq(decode_kernel_json("0", "[0,0,0]",
                                     "[{\"offset\":16,\"sass\":\"LDG.E\",\"file\":\"a.cu\",\"line\":-1}]",
                                     &err), 0);
    cr_expect(strstr(err.msg, "PC 0") != NULL, "%s", err.msg);
}

Test(hostile, a_bad_gpu_file_is_named_in_its_error)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char src[4096];
    snprintf(src, sizeof src, "configs/fermi.json");
    char *text = test_read_file(src, NULL);
    cr_assert_not_null(text);
    char *ways = strstr(text, "\"ways\":");
    cr_assert_not_null(ways);
    char *digit = ways + 7;
    while (*digit == ' ')
        digit++;
    *digit = '0'; /* l1.ways 0 (or 0N: still not a valid count) */
    char *config = test_path(dir, "mine.json");
    test_write_file(config, text, strlen(text));
    cli_result r = cli_run("replay", trace, "--gpu", config, NULL);
    cr_expect_neq(r.status, 0);
    cr_expect(test_is_one_line(r.err) && strstr(r.err, config), "%s", r.err);
    cli_result_free(&r);
    free(config);
    free(text);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(hostile, a_schedule_names_one_cta_schedule_and_one_warp_order)
{
    sched_options o;
    ws_error err = {{0}};
    cr_expect_eq(sched_options_parse("rr,gto", &o, &err), 0, "%s", err.msg);
    cr_expect_eq(sched_options_parse("q2,pcal:4,2", &o, &err), 0, "%s", err.msg);
    cr_expect_neq(sched_options_parse("rr,gto,gto", &o, &err), 0);
    cr_expect(strstr(err.msg, "second warp order") != NULL, "%s", err.msg);
    cr_expect_neq(sched_options_parse("rr,bcs,gto", &o, &err), 0);
    cr_expect(strstr(err.msg, "second CTA schedule") != NULL, "%s", err.msg);
}

Test(hostile, a_cache_size_unit_is_named_when_it_is_the_fault)
{
    gpu_config c;
    ws_error err = {{0}};
    cr_assert_eq(config_load(&c, "fermi", &err), 0, "%s", err.msg);
    cr_expect_neq(config_override(&c, "--l2", "1T:16:128", &err), 0);
    cr_expect(strstr(err.msg, "unit 'T'") != NULL, "%s", err.msg);
    /* G is a unit: what is left to judge is the geometry (fermi's 6 L2
     * slices do not divide 1 GiB into whole sets). */
    cr_expect_neq(config_override(&c, "--l2", "1G:16:128", &err), 0);
    cr_expect(strstr(err.msg, "l2.size: 1073741824 bytes") != NULL, "%s", err.msg);
}

/* A write that fails says why: here a file-size limit (RLIMIT_FSIZE) on a
 * JSON report larger than it. */
Test(hostile, a_failed_json_write_says_why)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *json = test_path(dir, "r.json"), *err_path = test_path(dir, "stderr");
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        FILE *e = freopen(err_path, "w", stderr);
        (void)e;
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        signal(SIGXFSZ, SIG_IGN); /* the write fails with EFBIG instead */
        struct rlimit small = {1 << 16, 1 << 16};
        setrlimit(RLIMIT_FSIZE, &small);
        execl(WARPSCOPE_BIN, WARPSCOPE_BIN, "replay", trace, "-o", json, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    char *err = test_read_file(err_path, NULL);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) != 0, "status %#x", status);
    cr_expect(err && test_is_one_line(err) && strstr(err, "File too large"), "%s", err);
    free(err);
    free(err_path);
    free(json);
    free(trace);
    test_tmpdir_cleanup(dir);
}
