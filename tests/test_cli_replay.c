/* tests/test_cli_replay.c: `replay`, `compare` and `policies` end to end on
 * emulated workloads and a real Accel-Sim trace, and their errors. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static uint64_t u64(json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(json_object_get(o, a), b);
    cr_assert(json_is_integer(v), "%s.%s", a, b);
    return (uint64_t)json_integer_value(v);
}

/* compare: every policy sees the same loads, and opt hits the most. */
static void compare_orders(const char *workload)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, workload);
    char *out = test_path(dir, "compare.json");
    cli_result r = cli_run("compare", trace, "--gpu", "fermi", "--policies",
                           "lru,fifo,random,lip,bip,dip,srrip,brrip,drrip,opt", "-o", out, "--csv",
                           dir, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "drrip") && strstr(r.out, "opt"), "the table lists the policies");
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    cr_assert_str_eq(json_string_value(json_object_get(doc, "schema")), "warpscope-compare");
    json_t *list = json_object_get(doc, "policies");
    cr_assert_eq(json_array_size(list), 10);
    json_t *opt = json_array_get(list, 9);
    cr_assert_str_eq(json_string_value(json_object_get(opt, "name")), "opt");
    for (size_t i = 0; i < 10; i++) {
        json_t *p = json_array_get(list, i);
        cr_expect_eq(u64(p, "l1", "requests"), u64(opt, "l1", "requests"));
        cr_expect_leq(u64(p, "l1", "hits"), u64(opt, "l1", "hits"), "%s: %s beats opt", workload,
                      json_string_value(json_object_get(p, "name")));
    }
    char *csv = test_path(dir, "compare.csv");
    size_t len;
    char *text = test_read_file(csv, &len);
    cr_assert_not_null(text);
    cr_expect(strncmp(text, "policy,l1_policy", 16) == 0);
    free(text);
    free(csv);
    json_decref(doc);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_replay, compare_orders_opt_first_on_gaussian) { compare_orders("gaussian"); }
Test(cli_replay, compare_orders_opt_first_on_kmeans) { compare_orders("kmeans"); }

Test(cli_replay, replay_writes_a_consistent_report)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "hotspot"), *out = test_path(dir, "r.json");
    cli_result r = cli_run("replay", trace, "--gpu", "fermi", "--l1-policy", "srrip", "-o", out, "--quiet",
                           NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "L1 srrip") != NULL, "%s", r.out);
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    json_t *s = json_object_get(doc, "summary");
    cr_expect_str_eq(json_string_value(json_object_get(s, "l1_policy")), "srrip");
    cr_expect_eq(u64(s, "l1", "hits") + u64(s, "l1", "misses"), u64(s, "l1", "requests"));
    /* Per-kernel and per-PC accesses add up to the total. */
    uint64_t kernel_sum = 0, pc_sum = 0;
    json_t *k;
    size_t i;
    json_array_foreach(json_object_get(doc, "kernels"), i, k) {
        kernel_sum += u64(k, "l1", "requests");
        json_t *pc;
        size_t j;
        json_array_foreach(json_object_get(k, "pcs"), j, pc)
            pc_sum += (uint64_t)json_integer_value(json_object_get(pc, "l1_requests"));
    }
    cr_expect_eq(kernel_sum, u64(s, "l1", "requests"));
    cr_expect_eq(pc_sum, u64(s, "l1", "requests"));
    json_t *mpli = json_object_get(s, "mpli");
    cr_expect_eq(json_array_size(json_object_get(mpli, "coherent")), 5);
    cr_expect_eq(json_array_size(json_object_get(s, "remote_holders")), 15, "fermi has 15 SMs");
    json_decref(doc);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_replay, replay_on_a_real_accelsim_trace)
{
    char *dir = test_tmpdir(), *trace = test_import_accelsim(dir, "matrixmul");
    cli_result r = cli_run("compare", trace, "--gpu", "volta", "--policies", "lru,srrip,opt", "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "srrip") != NULL);
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_replay, bad_options_are_one_line_errors)
{
    const char *cases[][6] = {
        {"replay", "x.wst", "--l1", "nope", NULL},
        {"replay", "x.wst", "--threads", "0", NULL},
        {"compare", "x.wst", "--policies", "lru,bogus", NULL},
        {"compare", "x.wst", "--policies", "", NULL},
        {"replay", "/nonexistent.wst", NULL},
        {"replay", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = cli_run(cases[i][0], cases[i][1], cases[i][2], cases[i][3], cases[i][4], NULL);
        cr_expect_neq(r.status, 0, "case %zu", i);
        cr_expect(strncmp(r.err, "warpscope: ", 11) == 0, "case %zu: %s", i, r.err);
        cr_expect(test_is_one_line(r.err), "case %zu: one line: %s", i, r.err);
        cli_result_free(&r);
    }
}

Test(cli_replay, policies_lists_every_policy)
{
    cli_result r = cli_run("policies", NULL);
    cr_assert_eq(r.status, 0);
    const char *names[] = {"lru", "fifo", "random", "lip", "bip", "dip", "srrip", "brrip", "drrip", "opt"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        cr_expect(strstr(r.out, names[i]) != NULL, "%s", names[i]);
    cli_result_free(&r);
}

/* analyze replays the config's policy in its pass; with LRU its L1 must
 * agree hit for hit with the scheduler's reference LRU L1 (same rules). */
Test(cli_replay, analyze_replay_agrees_with_the_reference_lru)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian"), *out = test_path(dir, "a.json");
    cli_result r = cli_run("analyze", trace, "--gpu", "fermi", "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "replay: L1 lru, L2 lru") != NULL, "%s", r.out);
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    json_t *s = json_object_get(doc, "summary");
    json_t *replay = json_object_get(s, "replay");
    cr_assert(json_is_object(replay));
    cr_expect_eq(u64(replay, "l1", "hits"), u64(s, "l1_lru", "hits"));
    cr_expect_eq(u64(replay, "l1", "misses"), u64(s, "l1_lru", "misses"));
    json_t *k0 = json_array_get(json_object_get(doc, "kernels"), 0);
    cr_expect(json_is_object(json_object_get(json_object_get(k0, "metrics"), "replay")));
    cr_expect(json_is_object(json_object_get(json_array_get(json_object_get(k0, "pcs"), 0), "replay")));
    json_decref(doc);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* bypass end to end: hints, CSV and JSON, and the table's verdicts never
 * add global-load traffic (they come from the same replay). */
static void bypass_on(const char *workload)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, workload);
    char *csv = test_path(dir, "hints"), *js = test_path(dir, "hints.json");
    cli_result r = cli_run("bypass", trace, "--gpu", "fermi", "--csv", csv, "--json", js, "--quiet",
                           NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "bypass-table") && strstr(r.out, "bypass-pc"), "%s", r.out);
    cli_result_free(&r);
    static const char pcs_head[] = "kernel_id,kernel,kernel_demangled,pc_index,pc_offset,sass,"
                                   "source_file,"
                                   "source_line,requests,worthy_requests,bypass_share,tested,"
                                   "recommend,traffic_change_bytes\n0,";
    char *text = test_read_output(csv, "hints_pcs.csv");
    cr_expect(strncmp(text, pcs_head, strlen(pcs_head)) == 0, "%s", text);
    free(text);
    /* One row per line touched, by the byte address of its first byte. */
    static const char lines_head[] = "line_address,line_bytes,requests,fills,l1_hits,utilization,"
                                     "hits_per_fill,bypass_worthy\n0x";
    text = test_read_output(csv, "hints_lines.csv");
    cr_expect(strncmp(text, lines_head, strlen(lines_head)) == 0, "%s", text);
    unsigned long long address = strtoull(strchr(text, '\n') + 1, NULL, 16);
    cr_expect(address > 0 && address % 128 == 0, "%llx", address);
    size_t rows = 0;
    for (char *c = text; *c; c++)
        rows += *c == '\n';
    json_t *doc = test_load_json(js);
    cr_expect_eq(rows - 1, (size_t)json_integer_value(json_object_get(doc, "lines_touched")));
    json_t *worthy = json_array_get(json_object_get(doc, "lines"), 0);
    if (worthy) {
        char needle[40];
        snprintf(needle, sizeof needle, "\n0x%llx,128,",
                 (unsigned long long)json_integer_value(json_object_get(worthy, "line")) * 128);
        cr_expect(strstr(text, needle) != NULL, "JSON's line number %s is the CSV's address", needle);
    }
    free(text);
    json_t *ba = json_object_get(doc, "before_after");
    json_t *before = json_object_get(json_object_get(ba, "baseline"), "global_load_traffic_bytes");
    json_t *after = json_object_get(json_object_get(ba, "bypass_table"), "global_load_traffic_bytes");
    cr_assert(json_is_integer(before) && json_is_integer(after));
    cr_expect_leq(json_integer_value(after), json_integer_value(before), "%s", workload);
    cr_expect_gt(json_array_size(json_object_get(doc, "pcs")), 0);
    cr_expect_str_eq(json_string_value(json_object_get(doc, "utilization")), "sector");
    uint64_t worthy_sector = (uint64_t)json_integer_value(json_object_get(doc, "lines_bypass_worthy"));
    json_decref(doc);
    /* S1's raw-byte U is never above the sector-rounded one, so it finds at
     * least as many lines bypass-worthy; a bad --u is one line. */
    r = cli_run("bypass", trace, "--gpu", "fermi", "--u", "raw", "--json", js, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    doc = test_load_json(js);
    cr_expect_str_eq(json_string_value(json_object_get(doc, "utilization")), "raw");
    cr_expect_geq((uint64_t)json_integer_value(json_object_get(doc, "lines_bypass_worthy")), worthy_sector);
    json_decref(doc);
    r = cli_run("bypass", trace, "--u", "bytes", NULL);
    cr_expect_str_eq(r.err, "warpscope: --u: 'sector' or 'raw', not 'bytes'\n");
    cli_result_free(&r);
    /* -o wrote one CSV of two tables; it now says where they went. */
    r = cli_run("bypass", trace, "-o", "hints.csv", NULL);
    cr_expect(r.status == 1 && test_is_one_line(r.err) && strstr(r.err, "--csv DIR"), "%s", r.err);
    cli_result_free(&r);
    free(csv);
    free(js);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_replay, bypass_on_gaussian) { bypass_on("gaussian"); }
Test(cli_replay, bypass_on_hotspot) { bypass_on("hotspot"); }

/* A flipped byte in the middle of a trace: every replaying command stops
 * with one line that names the file, and writes nothing. */
Test(cli_replay, corrupt_trace_is_one_line_error)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "pathfinder"), *bad = test_path(dir, "bad.wst");
    size_t len;
    char *bytes = test_read_file(trace, &len);
    cr_assert_not_null(bytes);
    bytes[len / 3] ^= 0x5a;
    cr_assert_eq(test_write_file(bad, bytes, len), 0);
    free(bytes);
    char *out = test_path(dir, "out.json");
    const char *commands[] = {"replay", "compare", "bypass", "analyze"};
    for (size_t i = 0; i < 4; i++) {
        /* bypass writes its JSON with --json (its -o is gone) */
        cli_result r = cli_run(commands[i], bad, i == 2 ? "--json" : "-o", out, "--quiet", NULL);
        cr_expect_neq(r.status, 0, "%s", commands[i]);
        cr_expect(strstr(r.err, "bad.wst") && test_is_one_line(r.err), "%s: %s", commands[i], r.err);
        cli_result_free(&r);
        size_t ignored;
        char *written = test_read_file(out, &ignored);
        cr_expect_null(written, "%s left %s behind", commands[i], out);
        free(written);
    }
    free(out);
    free(bad);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* compare POLICY@ORDER: that hierarchy under its own warp order (docs/metrics.md §6),
 * equal to a run of that order alone; a bad order is a one-line error. */
Test(cli_replay, compare_per_policy_warp_orders)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "spmv");
    char *both = test_path(dir, "both.json"), *lrr = test_path(dir, "lrr.json");
    cli_result r = cli_run("compare", trace, "--policies", "lru,lru@lrr", "-o", both, "--quiet",
                           NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("compare", trace, "--policies", "lru", "--schedule", "rr,lrr", "-o", lrr,
                "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *a = json_load_file(both, 0, NULL), *b = json_load_file(lrr, 0, NULL);
    json_t *mixed = json_array_get(json_object_get(a, "policies"), 1);
    json_t *alone = json_array_get(json_object_get(b, "policies"), 0);
    cr_assert_str_eq(json_string_value(json_object_get(mixed, "warp_order")), "lrr");
    cr_assert_null(json_object_get(json_array_get(json_object_get(a, "policies"), 0), "warp_order"));
    json_object_del(mixed, "warp_order");
    json_object_del(mixed, "name");
    json_object_del(alone, "name");
    cr_expect(json_equal(mixed, alone), "lru@lrr equals lru under rr,lrr");
    json_decref(a);
    json_decref(b);
    r = cli_run("compare", trace, "--policies", "lru@nope", NULL);
    cr_expect_neq(r.status, 0);
    cr_expect(test_is_one_line(r.err) && strstr(r.err, "unknown warp order 'nope'"), "%s", r.err);
    cli_result_free(&r);
    free(both);
    free(lrr);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Sector accounting (docs/metrics.md §7) beside the line figures: in the
 * summary, JSON and CSV of a sectored L1, and null / empty on Fermi's. */
Test(cli_replay, sector_figures_sit_beside_the_line_figures)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    char *out = test_path(dir, "c.json"), *csv = test_path(dir, "compare.csv");
    cli_result r = cli_run("compare", trace, "--gpu", "volta", "--set", "l2.sector=32",
                           "--policies", "lru,srrip", "-o", out, "--csv", dir, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "L1 sect") && strstr(r.out, "L2 sect"), "%s", r.out);
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    json_t *lru = json_array_get(json_object_get(doc, "policies"), 0);
    json_t *l1 = json_object_get(lru, "l1"), *sectors = json_object_get(l1, "sectors");
    cr_assert(json_is_object(sectors));
    uint64_t asked = u64(l1, "sectors", "requests"), hits = u64(l1, "sectors", "hits");
    cr_expect_geq(asked, u64(lru, "l1", "requests"), "at least a sector a request");
    cr_expect_geq(hits, u64(lru, "l1", "hits"), "a line hit is a hit of each of its sectors");
    cr_expect_eq(u64(l1, "sectors", "misses"), asked - hits);
    cr_expect(json_is_object(json_object_get(json_object_get(lru, "l2"), "sectors")));
    size_t len;
    char *text = test_read_file(csv, &len);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "l1_sector_requests,l1_sector_hits,l1_sector_hit_rate"));
    free(text);
    json_decref(doc);
    r = cli_run("replay", trace, "--gpu", "fermi", "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_null(strstr(r.out, "sectors"), "no sector rows on an unsectored L1: %s", r.out);
    cli_result_free(&r);
    doc = test_load_json(out);
    cr_expect(json_is_null(json_object_get(
        json_object_get(json_object_get(doc, "summary"), "l1"), "sectors")));
    json_decref(doc);
    r = cli_run("replay", trace, "--gpu", "volta", "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "L1 sectors"), "%s", r.out);
    cli_result_free(&r);
    free(out);
    free(csv);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_replay, a_bad_write_policy_names_the_field)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    cli_result r = cli_run("replay", trace, "--set", "l1.write=back", "--quiet", NULL);
    cr_expect_neq(r.status, 0);
    cr_expect(strstr(r.err, "write 'back' is not evict or allocate"), "%s", r.err);
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}
