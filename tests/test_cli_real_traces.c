/* tests/test_cli_real_traces.c: the real Accel-Sim traces tell one story.
 * vectoradd's loads are LDG.E.CG (they bypass L1) and matrixmul was built
 * for sm_61: the reports must say both, and name PCs apart. */
#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

Test(real_traces, an_imported_trace_names_its_gpu_and_is_replayed_on_that_family)
{
    char *dir = test_tmpdir();
    char *mm = test_import_accelsim(dir, "matrixmul");
    cli_result info = cli_run("info", mm, NULL);
    cr_assert_eq(info.status, 0);
    cr_expect(strstr(info.out, "gpu        sm_61") != NULL, "%s", info.out);

    char *json = test_path(dir, "r.json");
    cli_result r = cli_run("replay", mm, "-o", json, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "recorded on sm_61: using the pascal preset") != NULL, "%s", r.err);
    json_t *doc = test_load_json(json);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(doc, "gpu"), "name")), "pascal");
    json_decref(doc);

    cli_result chosen = cli_run("replay", mm, "--gpu", "fermi", "-o", json, NULL);
    cr_assert_eq(chosen.status, 0);
    cr_expect(strstr(chosen.err, "recorded on") == NULL, "--gpu wins, silently: %s", chosen.err);
    /* fermi is one of the papers' presets: one line says so (docs/gpu-configs.md). */
    cr_expect_str_eq(chosen.err, "warpscope: note: fermi is a 2010 preset kept for the papers' "
                                 "setups; current GPUs: --gpu hopper\n");
    doc = test_load_json(json);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(doc, "gpu"), "name")), "fermi");
    json_decref(doc);

    cli_result quiet = cli_run("analyze", mm, "--quiet", "-o", json, NULL);
    cr_assert_eq(quiet.status, 0);
    cr_expect_str_eq(quiet.err, "");
    doc = test_load_json(json);
    cr_expect_str_eq(json_string_value(json_object_get(json_object_get(doc, "gpu"), "name")), "pascal");
    json_decref(doc);
    cli_result_free(&info);
    cli_result_free(&r);
    cli_result_free(&chosen);
    cli_result_free(&quiet);
    free(json);
    free(mm);
    test_tmpdir_cleanup(dir);
}

/* The replay summary's L1 row: requests, bypassed, hits, looked-up misses. */
static void l1_row(const char *out, unsigned long row[4])
{
    const char *p = strstr(out, "L1 (loads)");
    cr_assert_not_null(p, "%s", out);
    cr_assert_eq(sscanf(p + strlen("L1 (loads)"), "%lu %lu %lu %lu", &row[0], &row[1], &row[2], &row[3]), 4,
                 "%s", p);
}

Test(real_traces, bypassed_loads_are_shown_as_bypassed_and_can_be_replayed_as_cached)
{
    char *dir = test_tmpdir();
    char *va = test_import_accelsim(dir, "vectoradd");
    char *json = test_path(dir, "r.json");
    cli_result r = cli_run("replay", va, "-o", json, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* 8 requests, all bypassed: no hit and no looked-up miss. */
    unsigned long row[4];
    l1_row(r.out, row);
    cr_expect(row[0] == 8 && row[1] == 8 && row[2] == 0 && row[3] == 0, "%s", r.out);
    cr_expect(strstr(r.out, "100.0% of L1 load requests skip it") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "cold n/a, intra-warp n/a") != NULL, "nothing was looked up: %s", r.out);
    json_t *doc = test_load_json(json);
    cr_expect_str_eq(json_string_value(json_object_get(doc, "cache_ops")), "honour");
    json_decref(doc);

    cli_result what_if = cli_run("replay", va, "--cache-op", "ignore", "-o", json, NULL);
    cr_assert_eq(what_if.status, 0, "%s", what_if.err);
    l1_row(what_if.out, row);
    cr_expect(row[0] == 8 && row[1] == 0 && row[2] == 0 && row[3] == 8, "%s", what_if.out);
    cr_expect(strstr(what_if.out, "skip it") == NULL);
    doc = test_load_json(json);
    cr_expect_str_eq(json_string_value(json_object_get(doc, "cache_ops")), "ignore");
    json_decref(doc);

    cli_result summary = cli_run("analyze", va, "-o", json, NULL);
    cr_assert_eq(summary.status, 0);
    cr_expect(strstr(summary.out, "bypassing L1           100.0% of the line requests (8) are ld.cg/ld.cv") != NULL,
              "%s", summary.out);

    cli_result bypass = cli_run("bypass", va, "--quiet", NULL);
    cr_assert_eq(bypass.status, 0, "%s", bypass.err);
    cr_expect(strstr(bypass.out, "every global load of the trace already bypasses L1") != NULL, "%s", bypass.out);
    cr_expect(strstr(bypass.out, "lines touched by cached global loads 0, bypass-worthy 0 (n/a)") != NULL);

    cli_result bad = cli_run("replay", va, "--cache-op", "sometimes", NULL);
    cr_expect_eq(bad.status, 1);
    cr_expect_str_eq(bad.err, "warpscope: --cache-op: honour or ignore, not 'sometimes'\n");
    cli_result_free(&r);
    cli_result_free(&what_if);
    cli_result_free(&summary);
    cli_result_free(&bypass);
    cli_result_free(&bad);
    free(json);
    free(va);
    test_tmpdir_cleanup(dir);
}

Test(real_traces, pc_labels_are_kernel_plus_offset_with_the_kernel_demangled)
{
    char *dir = test_tmpdir();
    char *mm = test_import_accelsim(dir, "matrixmul");
    cli_result r = cli_run("bypass", mm, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "mult_gpu<float>+0x208") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "mult_gpu<float>+0x218") != NULL, "%s", r.out);
    cli_result a = cli_run("analyze", mm, "--quiet", NULL);
    cr_assert_eq(a.status, 0);
    cr_expect(strstr(a.out, "\nmult_gpu<float>     ") != NULL, "%s", a.out);
    cli_result_free(&r);
    cli_result_free(&a);
    free(mm);
    test_tmpdir_cleanup(dir);
}

/* A kernelslist.g naming kernel-1.traceg when only kernel-1.traceg.xz is
 * there: the compressed file is read. */
Test(real_traces, a_list_of_xz_compressed_kernels_imports)
{
    if (system("command -v xz >/dev/null 2>&1") != 0)
        cr_skip_test("xz not installed");
    char *dir = test_tmpdir();
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cp %s/accelsim/vectoradd/kernelslist.g %s/accelsim/vectoradd/kernel-1.traceg %s && "
             "chmod u+w %s/kernel-1.traceg && xz %s/kernel-1.traceg", test_fixture_dir(), test_fixture_dir(), dir, dir, dir);
    cr_assert_eq(system(cmd), 0);
    char *out = test_path(dir, "va.wst");
    cli_result r = cli_run("import", "accelsim", dir, "-o", out, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result info = cli_run("info", out, NULL);
    cr_expect(strstr(info.out, "records    12") != NULL, "%s", info.out);

    snprintf(cmd, sizeof cmd, "rm %s/kernel-1.traceg.xz", dir);
    cr_assert_eq(system(cmd), 0);
    cli_result missing = cli_run("import", "accelsim", dir, "-o", out, NULL);
    cr_expect_eq(missing.status, 1);
    cr_expect(strstr(missing.err, "kernel-1.traceg is missing (nor ") != NULL, "%s", missing.err);
    cr_expect(test_is_one_line(missing.err));
    cli_result_free(&r);
    cli_result_free(&info);
    cli_result_free(&missing);
    free(out);
    test_tmpdir_cleanup(dir);
}

/* compare profiles the table bypass-pc needs in the same run, as bypass
 * does: the two replays agree byte for byte. */
Test(real_traces, compare_runs_bypass_pc_without_a_table_as_bypass_does)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "bfs");
    char *c = test_path(dir, "c.json"), *b = test_path(dir, "b.json");
    cli_result cmp = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,bypass-pc",
                             "--quiet", "-o", c, NULL);
    cr_assert_eq(cmp.status, 0, "%s", cmp.err);
    cli_result byp = cli_run("bypass", trace, "--gpu", "fermi", "--quiet", "--json", b, NULL);
    cr_assert_eq(byp.status, 0, "%s", byp.err);
    json_t *cd = test_load_json(c), *bd = test_load_json(b);
    json_t *entry = json_array_get(json_object_get(cd, "policies"), 1);
    json_t *after = json_object_get(json_object_get(bd, "before_after"), "bypass_pc");
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(entry, "l1"), "requests")),
                 json_integer_value(json_object_get(after, "l1_requests")));
    cr_expect_eq(json_integer_value(json_object_get(json_object_get(entry, "traffic"), "l1_to_l2_bytes")),
                 json_integer_value(json_object_get(after, "l1_to_l2_bytes")));
    cr_expect_gt(json_integer_value(json_object_get(json_object_get(entry, "l1"), "bypasses")), 0);
    json_decref(cd);
    json_decref(bd);
    cli_result_free(&cmp);
    cli_result_free(&byp);
    free(c);
    free(b);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(real_traces, options_misspelt_or_glued_to_their_value_say_so)
{
    static const struct {
        const char *command, *option, *message;
    } cases[] = {
        {"profile", "--bogus", "warpscope: profile: unknown option '--bogus'; see 'warpscope profile --help'\n"},
        {"replay", "--bogus=1", "warpscope: replay: unknown option '--bogus'; see 'warpscope replay --help'\n"},
        {"analyze", "--include-stores=yes",
         "warpscope: analyze: '--include-stores=yes': write '--include-stores' alone (a switch) or "
         "'--include-stores VALUE'\n"},
        {"compare", "--policies", "warpscope: compare: --policies needs a value\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        cli_result r = cli_run(cases[i].command, "x.wst", cases[i].option, NULL);
        cr_expect_eq(r.status, 1);
        cr_expect_str_eq(r.err, cases[i].message);
        cli_result_free(&r);
    }
}
