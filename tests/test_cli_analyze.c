/* tests/test_cli_analyze.c: `analyze` end to end on an emulated workload and
 * a real Accel-Sim trace, with known answers, and its errors. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/memtrace.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

static json_t *analyze_to_json(const char *dir, const char *trace, const char *gpu)
{
    char *out = test_path(dir, "report.json"), *csv = test_path(dir, "tables");
    cli_result r = cli_run("analyze", trace, "--gpu", gpu, "-o", out, "--csv", csv, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "whole trace") != NULL, "the summary is printed");
    cli_result_free(&r);
    json_error_t jerr;
    json_t *doc = json_load_file(out, 0, &jerr);
    cr_assert_not_null(doc, "%s", jerr.text);
    free(out);
    free(csv);
    return doc;
}

static double number(json_t *doc, const char *path)
{
    json_t *v = json_object_get(doc, path);
    return json_is_integer(v) ? (double)json_integer_value(v) : json_real_value(v);
}

/* PolyBench gemm, N = 64: per warp one C load, then per k loads of A (a
 * broadcast: 4 of 128 bytes used), B and C (coalesced, 128 of 128).  So
 * U = (128 + 64·260) / (128·(1 + 3·64)) = 16768 / 24704. */
Test(cli_analyze, gemm_known_utilization)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "gemm.wst");
    cli_result r = cli_run("record", "--workload", "gemm", "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *doc = analyze_to_json(dir, trace, "fermi");
    cr_assert_str_eq(json_string_value(json_object_get(doc, "schema")), "warpscope-report");
    json_t *summary = json_object_get(doc, "summary");
    json_t *u = json_object_get(summary, "utilization");
    cr_assert_float_eq(number(u, "line"), 16768.0 / 24704.0, 1e-9);
    json_t *ins = json_object_get(summary, "instructions");
    cr_assert_eq(number(ins, "counted"), 128 * (1 + 3 * 64), "warps × loads per warp");
    cr_assert_eq(number(summary, "coherent_loads"), 128 * 193);
    /* Every access is counted once in each reuse scope. */
    json_t *line = json_object_get(json_object_get(summary, "reuse"), "line");
    for (const char *scope = "global"; scope; scope = strcmp(scope, "global") == 0 ? "per_sm"
                                                     : strcmp(scope, "per_sm") == 0 ? "per_warp"
                                                                                     : NULL)
        cr_assert_eq(number(json_object_get(line, scope), "requests"), 24704, "%s", scope);
    json_t *k0 = json_array_get(json_object_get(doc, "kernels"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(k0, "name")), "gemm_kernel");
    json_t *pcs = json_object_get(k0, "pcs");
    cr_assert_eq(json_array_size(pcs), 6);
    /* The A load is PC 2: a broadcast, U = 4/128. */
    json_t *a_load = json_array_get(pcs, 2);
    cr_assert_float_eq(number(json_object_get(a_load, "utilization"), "line"), 4.0 / 128, 1e-12);
    cr_assert_str_eq(json_string_value(json_object_get(a_load, "sass")), "LDG.E");
    json_t *mrc = json_object_get(json_object_get(summary, "mrc"), "l1");
    cr_assert_gt(json_array_size(mrc), 4);
    json_t *gpu = json_object_get(doc, "gpu");
    cr_assert_eq(number(gpu, "sms"), 15);
    json_decref(doc);
    char *pcs_csv = test_path(dir, "tables/pcs.csv");
    char *text = test_read_file(pcs_csv, NULL);
    cr_assert_not_null(text);
    cr_assert(strncmp(text, "kernel_id,kernel,kernel_demangled,pc_index,pc_offset,sass", 57) == 0);
    free(text);
    free(pcs_csv);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_analyze, real_accelsim_trace_end_to_end)
{
    char *dir = test_tmpdir(), *trace = test_import_accelsim(dir, "matrixmul");
    json_t *doc = analyze_to_json(dir, trace, "volta");
    json_t *summary = json_object_get(doc, "summary");
    /* 64 global loads, every lane of each a distinct coalesced 4 B element. */
    cr_assert_eq(number(json_object_get(summary, "instructions"), "counted"), 64);
    cr_assert_float_eq(number(json_object_get(summary, "utilization"), "line"), 1.0, 1e-12);
    json_decref(doc);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_analyze, bad_options_are_one_line_errors)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "g.wst");
    cli_result r = cli_run("record", "--workload", "gaussian", "-o", trace, NULL);
    cli_result_free(&r);
    struct {
        const char *a, *b, *expect;
    } cases[] = {
        {"--gpu", "maxwell", "warpscope: unknown GPU 'maxwell' (presets: fermi,"},
        {"--schedule", "rr,fifo",
         "warpscope: --schedule: unknown CTA schedule or warp order 'fifo'"},
        {"--sample", "2", "warpscope: --sample: expected a rate in (0, 1], got '2'"},
        {"--sample", "1e-8",
         "warpscope: --sample: the smallest rate is 2^-24 (5.96e-08), got '1e-8'"},
        {"--l1", "16K:0:128", "warpscope: l1.ways: must be at least 1"},
        {"--frob", "1", "warpscope: analyze: unknown option '--frob'"},
        {"--set", "l1.frob=1", "warpscope: --set: no field 'l1.frob' in a GPU config"},
        {"--set", "max_warps_per_sm=0", "warpscope: max_warps_per_sm: 0 is outside 1..128"},
        {"--sms", "4294967311", "warpscope: sms: 4294967311 is outside 1..256"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r = cli_run("analyze", trace, cases[i].a, cases[i].b, NULL);
        cr_assert_eq(r.status, 1, "%s %s", cases[i].a, cases[i].b);
        cr_assert(strncmp(r.err, cases[i].expect, strlen(cases[i].expect)) == 0, "%s", r.err);
        cr_assert_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1, "one line: %s", r.err);
        cli_result_free(&r);
    }
    r = cli_run("analyze", trace, "--schedule", "recorded", NULL);
    cr_assert_eq(r.status, 1);
    cr_assert(strstr(r.err, "needs SM ids and timestamps") != NULL, "%s", r.err);
    cli_result_free(&r);
    char *missing = test_path(dir, "nope.wst");
    r = cli_run("analyze", missing, NULL);
    cr_assert(strstr(r.err, "nope.wst: cannot open") != NULL, "%s", r.err);
    cli_result_free(&r);
    /* A failed run leaves no report behind. */
    char *out = test_path(dir, "never.json");
    r = cli_run("analyze", missing, "-o", out, NULL);
    cr_assert_null(test_read_file(out, NULL));
    cli_result_free(&r);
    free(out);
    free(missing);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* dump --order scheduled: every record once, in rr placement (CTA i on
 * SM i mod SMs at the start), and the order analyze consumes. */
Test(cli_analyze, dump_in_scheduled_order)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "gemm.wst");
    cli_result r = cli_run("record", "--workload", "gemm", "-o", trace, NULL);
    cli_result_free(&r);
    r = cli_run("dump", trace, "--order", "scheduled", "--gpu", "fermi", "--schedule", "rr,lrr", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    int lines = 0;
    for (char *p = r.out; *p; p++)
        lines += *p == '\n';
    cr_assert_eq(lines, 33024, "every record once");
    cr_assert(strncmp(r.out, "sm 0 slot 0 step 0  k0 cta 0 warp 0 ", 36) == 0, "%.60s", r.out);
    char *second = strchr(r.out, '\n') + 1;
    cr_assert(strncmp(second, "sm 1 slot 0 step 0  k0 cta 1 warp 0 ", 36) == 0, "%.60s", second);
    /* The first issue is the stored first record, every lane as stored
     * (an affine record issues with lane 0 alone: dump has the rest
     * written, sched_record_lanes). */
    cli_result stored = cli_run("dump", trace, NULL);
    cr_assert_eq(stored.status, 0, "%s", stored.err);
    size_t first = (size_t)(strchr(stored.out, '\n') - stored.out) + 1;
    cr_assert(strncmp(r.out + 20, stored.out, first) == 0, "%.200s\n%.200s", r.out, stored.out);
    cli_result_free(&stored);
    cli_result_free(&r);
    r = cli_run("dump", trace, "--order", "random", NULL);
    cr_assert_str_eq(r.err, "warpscope: --order: 'stored' or 'scheduled', not 'random'\n");
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Everything that shapes the order is an option of dump too: half-warp
 * coalescing changes which requests miss the reference L1, so GTO's order
 * (spmv's gathers split across half-warps). */
Test(cli_analyze, dump_takes_half_warp)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "spmv");
    cli_result whole = cli_run("dump", trace, "--order", "scheduled", "--gpu", "fermi", NULL);
    cli_result half = cli_run("dump", trace, "--order", "scheduled", "--half-warp", "--gpu", "fermi", NULL);
    cr_assert_eq(whole.status, 0, "%s", whole.err);
    cr_assert_eq(half.status, 0, "%s", half.err);
    int whole_lines = 0, half_lines = 0;
    for (char *c = whole.out; *c; c++)
        whole_lines += *c == '\n';
    for (char *c = half.out; *c; c++)
        half_lines += *c == '\n';
    cr_assert_eq(whole_lines, half_lines, "the same records");
    cr_assert_str_neq(whole.out, half.out, "in another order");
    cli_result_free(&whole);
    cli_result_free(&half);
    cli_result r = cli_run("dump", trace, "--half-warp", NULL);
    cr_assert_neq(r.status, 0);
    cr_assert(test_is_one_line(r.err) && strstr(r.err, "--order scheduled") != NULL, "%s", r.err);
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* --set changes any config field for the run: the report's gpu object
 * and note say so, and dump --order scheduled takes the same overrides. */
Test(cli_analyze, set_overrides_any_config_field)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    char *out = test_path(dir, "set.json");
    cli_result r = cli_run("analyze", trace, "--gpu", "fermi", "--set", "max_ctas_per_sm=2",
                           "--set", "l1.index=fermi-hash", "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *doc = json_load_file(out, 0, NULL);
    json_t *gpu = json_object_get(doc, "gpu");
    cr_assert_eq(json_integer_value(json_object_get(gpu, "max_ctas_per_sm")), 2);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(gpu, "l1"), "index")),
                     "fermi-hash");
    cr_assert(strstr(json_string_value(json_object_get(gpu, "note")),
                     "--set max_ctas_per_sm=2; --set l1.index=fermi-hash") != NULL);
    json_decref(doc);
    /* gemm's CTAs have 8 warps: on 2 SMs the default residency fills 48
     * warp slots a SM, one CTA a SM only slots 0-7. */
    const char *limits[] = {NULL, "max_ctas_per_sm=1"};
    int highest[2];
    for (int i = 0; i < 2; i++) {
        r = limits[i] ? cli_run("dump", trace, "--order", "scheduled", "--gpu", "fermi", "--sms", "2",
                                "--set", limits[i], "--csv", NULL)
                      : cli_run("dump", trace, "--order", "scheduled", "--gpu", "fermi", "--sms", "2",
                                "--csv", NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        highest[i] = 0;
        for (char *line = strchr(r.out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
            int slot = atoi(strchr(line + 1, ',') + 1);
            highest[i] = slot > highest[i] ? slot : highest[i];
        }
        cli_result_free(&r);
    }
    cr_assert_eq(highest[0], 47);
    cr_assert_eq(highest[1], 7);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Two CTAs, so on SMs 0 and 1 under rr, one load each in the same line:
 * CTA 0 reads sector 0 (8 words) and the word at 0x1040, CTA 1 sector 1
 * and the word at 0x1044. */
static char *write_two_sectors(const char *dir)
{
    wst_origin origin = {.collector = "test", .collector_version = "1", .workload = "sectors"};
    wst_memtrace *m = wst_memtrace_new(&origin);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel k = {.name = "k", .grid = {2, 1, 1}, .block = {32, 1, 1}};
    wst_pc ld = {.offset = 0x10, .sass = "LDG.E"};
    cr_assert_eq(wst_sink_add_kernel(&s, &k, &err), 0);
    cr_assert_eq(wst_sink_add_pc(&s, 0, &ld, &err), 0);
    for (uint32_t cta = 0; cta < 2; cta++) {
        wst_record r;
        memset(&r, 0, sizeof r);
        r.cta = cta;
        r.size = 4;
        r.mask = 0x1ff;
        for (int lane = 0; lane < 8; lane++)
            r.addr[lane] = 0x1000 + 32 * cta + 4 * (uint64_t)lane;
        r.addr[8] = 0x1040 + 4 * (uint64_t)cta;
        cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0, "%s", err.msg);
    }
    char *path = test_path(dir, "sectors.wst");
    cr_assert_eq(test_write_memtrace(m, path, NULL), 0);
    wst_memtrace_free(m);
    return path;
}

/* docs/metrics.md §5 at each granularity, on write_two_sectors: one line both SMs
 * touch; three sectors of which only the one at 0x1040 is shared; 18 words,
 * none shared; one page, shared. */
Test(cli_analyze, sharing_at_every_block_size)
{
    char *dir = test_tmpdir(), *trace = write_two_sectors(dir), *out = test_path(dir, "s.json");
    char *html = test_path(dir, "s.html");
    struct {
        const char *block;
        int bytes, blocks, shared;
    } cases[] = {{NULL, 128, 1, 1}, {"32", 32, 3, 1}, {"4", 4, 18, 0}, {"4096", 4096, 1, 1}};
    setenv("COLUMNS", "200", 1); /* the sharing line unwrapped */
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cli_result r = cases[i].block ? cli_run("analyze", trace, "--sharing-block", cases[i].block,
                                                "-o", out, "--html", html, "--quiet", NULL)
                                      : cli_run("analyze", trace, "-o", out, "--html", html,
                                                "--quiet", NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        char line[128];
        snprintf(line, sizeof line, "%d-byte blocks (%d distinct", cases[i].bytes, cases[i].blocks);
        cr_assert(strstr(r.out, line) != NULL, "%s: %s", line, r.out);
        cli_result_free(&r);
        char *page = test_read_file(html, NULL);
        snprintf(line, sizeof line, "%d distinct blocks of %d bytes", cases[i].blocks,
                 cases[i].bytes);
        cr_assert(page && strstr(page, line), "the HTML says: %s", line);
        free(page);
        json_t *doc = json_load_file(out, 0, NULL);
        json_t *sharing = json_object_get(json_object_get(doc, "summary"), "sharing");
        cr_assert_eq(number(sharing, "block_bytes"), cases[i].bytes);
        cr_assert_eq(number(sharing, "blocks"), cases[i].blocks, "block %d", cases[i].bytes);
        /* One kernel launch: its blocks are the trace's distinct blocks. */
        cr_assert_eq(number(sharing, "distinct_blocks"), cases[i].blocks, "block %d",
                     cases[i].bytes);
        cr_assert_eq(number(sharing, "shared_blocks"), cases[i].shared, "block %d", cases[i].bytes);
        cr_assert_eq(number(sharing, "multi_cta_blocks"), cases[i].shared);
        json_decref(doc);
    }
    cli_result r = cli_run("analyze", trace, "--sharing-block", "48", NULL);
    cr_assert_eq(r.status, 1);
    cr_assert_str_eq(r.err, "warpscope: --sharing-block: a power of two, not 48\n");
    cli_result_free(&r);
    r = cli_run("analyze", trace, "--sharing-block", "8192", NULL);
    cr_assert_str_eq(r.err, "warpscope: --sharing-block: 4 to 4096, not 8192\n");
    cli_result_free(&r);
    free(html);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* The pass's numbers do not depend on how its consumers share threads: one
 * thread, two, and one each (the default) write the same report. */
Test(cli_analyze, threads_change_nothing)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "bfs");
    const char *threads[] = {NULL, "1", "2"};
    json_t *reports[3];
    for (int i = 0; i < 3; i++) {
        char name[32];
        snprintf(name, sizeof name, "t%d.json", i);
        char *out = test_path(dir, name);
        cli_result r = threads[i] ? cli_run("analyze", trace, "--threads", threads[i], "-o", out,
                                            "--quiet", NULL)
                                  : cli_run("analyze", trace, "-o", out, "--quiet", NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        cli_result_free(&r);
        reports[i] = json_load_file(out, 0, NULL);
        cr_assert_not_null(reports[i]);
        json_object_del(reports[i], "generated");
        free(out);
    }
    cr_assert(json_equal(reports[0], reports[1]), "--threads 1 differs");
    cr_assert(json_equal(reports[0], reports[2]), "--threads 2 differs");
    for (int i = 0; i < 3; i++)
        json_decref(reports[i]);
    cli_result r = cli_run("analyze", trace, "--threads", "0", NULL);
    cr_assert_str_eq(r.err, "warpscope: --threads: 1 to 256, not 0\n");
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

static double streaming_share(const char *dir, const char *trace, const char *window)
{
    char *out = test_path(dir, "w.json");
    cli_result r = window ? cli_run("analyze", trace, "-o", out, "--quiet", "--locality-window", window, NULL)
                          : cli_run("analyze", trace, "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *doc = json_load_file(out, 0, NULL);
    json_t *opt = json_object_get(json_object_get(doc, "options"), "locality_window");
    if (window)
        cr_assert_eq(json_integer_value(opt), atoi(window));
    else
        cr_assert_str_eq(json_string_value(opt), "l1");
    json_t *g = json_object_get(json_object_get(json_object_get(doc, "summary"), "locality"), "generations");
    double streaming = number(g, "streaming"), all = 0;
    const char *key;
    json_t *v;
    json_object_foreach(g, key, v) all += (double)json_integer_value(v);
    json_decref(doc);
    free(out);
    cr_assert_gt(all, 0);
    return streaming / all;
}

/* docs/metrics.md §4's cache-independent option: generations of a fully-associative
 * LRU of N lines per SM.  A smaller window can only end generations sooner,
 * so its streaming share is never lower. */
Test(cli_analyze, locality_window_is_monotone)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "gemm.wst");
    cli_result r = cli_run("record", "--workload", "gemm", "-o", trace, NULL);
    cli_result_free(&r);
    double w1 = streaming_share(dir, trace, "1"), w16 = streaming_share(dir, trace, "16"),
           w1024 = streaming_share(dir, trace, "1024");
    cr_assert_geq(w1, w16);
    cr_assert_geq(w16, w1024);
    cr_assert_lt(w1024, 1.0);
    streaming_share(dir, trace, NULL);
    r = cli_run("analyze", trace, "--locality-window", "0", NULL);
    cr_assert_str_eq(r.err, "warpscope: --locality-window: 1 to 65536, not 0\n");
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

static json_t *summary_section(const char *dir, const char *trace, const char *sample)
{
    char *out = test_path(dir, "reuse.json");
    cli_result r = sample ? cli_run("analyze", trace, "--sample", sample, "-o", out, "--quiet", NULL)
                          : cli_run("analyze", trace, "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_error_t jerr;
    json_t *doc = json_load_file(out, 0, &jerr);
    cr_assert_not_null(doc, "%s", jerr.text);
    free(out);
    json_t *summary = json_incref(json_object_get(doc, "summary"));
    json_decref(doc);
    return summary;
}

/* SHARDS samples keys, and a sampled key's reuse time counts every access
 * in between, sampled or not: its times are exactly the ones the exact run
 * finds for the same accesses.  So in every scope and granularity each
 * reuse-time bucket of a sampled run holds at most the exact run's count,
 * and the sampled and unsampled requests add up to the exact run's.  The
 * miss-ratio curve has no number below 1 / R lines. */
Test(cli_analyze, sampled_reuse_times_are_a_subset_of_exact)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "bfs.wst");
    cli_result r = cli_run("record", "--workload", "bfs", "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *exact_summary = summary_section(dir, trace, NULL),
           *sampled_summary = summary_section(dir, trace, "0.1");
    json_t *exact = json_object_get(exact_summary, "reuse"),
           *sampled = json_object_get(sampled_summary, "reuse");
    const char *grans[] = {"line", "sector"}, *scopes[] = {"global", "per_sm", "per_warp"};
    for (size_t g = 0; g < 2; g++)
        for (size_t s = 0; s < 3; s++) {
            json_t *eh = json_object_get(json_object_get(exact, grans[g]), scopes[s]),
                   *mh = json_object_get(json_object_get(sampled, grans[g]), scopes[s]);
            cr_assert_null(json_object_get(eh, "unsampled"), "only sampled runs say it");
            cr_assert_eq(json_integer_value(json_object_get(mh, "requests")) +
                             json_integer_value(json_object_get(mh, "unsampled")),
                         json_integer_value(json_object_get(eh, "requests")), "%s %s", grans[g],
                         scopes[s]);
            json_t *e = json_object_get(eh, "reuse_time_log2"), *m = json_object_get(mh, "reuse_time_log2");
            json_int_t held = 0;
            for (size_t k = 0; k < 65; k++) { /* REUSE_HIST_BUCKETS, sparse */
                json_int_t want_most = test_hist_count(e, k), got = test_hist_count(m, k);
                cr_assert_leq(got, want_most, "%s %s: bucket %zu", grans[g], scopes[s], k);
                held += got;
            }
            cr_assert_gt(held, 0, "%s %s: the sample holds reuses", grans[g], scopes[s]);
        }
    const char *levels[] = {"l1", "l2"};
    for (size_t l = 0; l < 2; l++) {
        json_t *curve = json_object_get(json_object_get(sampled_summary, "mrc"), levels[l]);
        cr_assert_gt(json_array_size(curve), 5);
        for (size_t i = 0; i < json_array_size(curve); i++) {
            json_t *p = json_array_get(curve, i);
            int resolved = json_integer_value(json_object_get(p, "lines")) >= 10;
            cr_assert_eq(json_is_true(json_object_get(p, "resolved")), resolved);
            cr_assert_eq(json_is_real(json_object_get(p, "miss_ratio")), resolved, "%s point %zu",
                         levels[l], i);
            cr_assert(json_is_false(json_object_get(p, "exact")));
        }
    }
    json_decref(exact_summary);
    json_decref(sampled_summary);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* The widest grid a trace may hold reaches report.json as written, not as
 * a wrapped int. */
Test(cli_analyze, widest_grid_is_reported_unwrapped)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "w.wst"), *out = test_path(dir, "r.json");
    ws_error err;
    wst_origin origin = {.collector = "test"};
    wst_writer *w = wst_writer_open(trace, &origin, NULL, &err);
    wst_pc pc = {.offset = 0x10, .sass = "LDG.E"};
    wst_kernel k = {.name = "k", .grid = {4294967295u, 1, 1}, .block = {32, 1, 1}, .pcs = &pc,
                    .pc_count = 1};
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 0, "%s", err.msg);
    wst_record r = {.cta = 4294967294u, .size = 4, .mask = 1, .addr = {0x1000}};
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0, "%s", err.msg);
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    for (const char *const *s = (const char *const[]){"qx", "gto", NULL}; *s; s++) {
        cli_result a = cli_run("analyze", trace, "--schedule", *s, "-o", out, "--quiet", NULL);
        cr_assert_eq(a.status, 0, "%s", a.err);
        json_t *doc = test_load_json(out);
        json_t *grid = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "grid");
        cr_assert_eq(json_integer_value(json_array_get(grid, 0)), 4294967295LL);
        cr_assert_eq(json_integer_value(json_object_get(
                         json_object_get(json_object_get(doc, "summary"), "instructions"), "loads")),
                     1, "%s: the load in the last CTA is analysed", *s);
        json_decref(doc);
        cli_result_free(&a);
    }
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Launch 10's entry of `-o` (its index aside): analysed in the whole trace,
 * or alone (the kernel filter keeps that launch only). */
static json_t *launch10(const char *dir, const char *trace, int l2_cold, const char *sample, int alone)
{
    char *out = test_path(dir, "k.json");
    const char *cold = l2_cold ? "--l2-cold" : "--quiet";
    cli_result r = alone ? cli_run("analyze", trace, "--gpu", "fermi", "-o", out, "--quiet", cold,
                                   "--sample", sample, "--launch-skip", "10", "--launch-count", "1", NULL)
                         : cli_run("analyze", trace, "--gpu", "fermi", "-o", out, "--quiet", cold,
                                   "--sample", sample, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *doc = json_load_file(out, 0, NULL);
    cr_assert_not_null(doc);
    json_t *flag = json_object_get(json_object_get(doc, "options"), "l2_cold");
    if (l2_cold)
        cr_assert(json_is_true(flag));
    else
        cr_assert_null(flag, "reports of a warm L2 keep their bytes");
    json_t *k = json_incref(json_array_get(json_object_get(doc, "kernels"), alone ? 0 : 10));
    cr_assert_not_null(k);
    json_object_del(k, "index");
    json_decref(doc);
    free(out);
    return k;
}

/* --l2-cold (docs/analysis.md "Ranks"): no cache state crosses a kernel
 * boundary, so a launch analysed in the whole trace reports what it reports
 * analysed alone, the property that lets kernels go to different ranks.
 * With the L2 warm, launch 10 of bfs rereads what launch 9 left in L2 and
 * its global reuse differs. */
Test(cli_analyze, l2_cold_launches_equal_their_analysis_alone)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "bfs");
    json_t *whole = launch10(dir, trace, 1, "1", 0), *alone = launch10(dir, trace, 1, "1", 1);
    cr_assert(json_equal(whole, alone), "launch 10 under --l2-cold depends on launches 0-9");
    /* Sampled distances too: each kernel's global reuse starts from a new state. */
    json_t *sampled_whole = launch10(dir, trace, 1, "0.5", 0), *sampled_alone = launch10(dir, trace, 1, "0.5", 1);
    cr_assert(json_equal(sampled_whole, sampled_alone), "sampled, launch 10 depends on launches 0-9");
    json_decref(sampled_whole);
    json_decref(sampled_alone);
    json_t *warm_whole = launch10(dir, trace, 0, "1", 0), *warm_alone = launch10(dir, trace, 0, "1", 1);
    cr_assert(!json_equal(warm_whole, warm_alone), "with a warm L2 launch 10 sees launch 9's lines");
    cr_assert(json_equal(alone, warm_alone), "a launch alone starts cold either way");
    json_decref(whole);
    json_decref(alone);
    json_decref(warm_whole);
    json_decref(warm_alone);
    free(trace);
    test_tmpdir_cleanup(dir);
}
