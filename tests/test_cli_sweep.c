/* tests/test_cli_sweep.c: `warpscope sweep` end to end: the grid's points
 * equal replays under the same warp tuple, and its JSON, CSV and HTML, and
 * one-line errors for bad options. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static json_int_t integer(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_integer(v), "%s", key);
    return json_integer_value(v);
}

Test(cli_sweep, every_point_equals_a_replay_under_its_tuple)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "syrk");
    char *out = test_path(dir, "s.json"), *html = test_path(dir, "s.html");
    cli_result r = cli_run("sweep", trace, "--n-max", "4", "-o", out, "--csv", dir, "--html", html,
                           "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "Poise predicted") != NULL, "%s", r.out);
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    cr_expect_str_eq(json_string_value(json_object_get(doc, "schema")), "warpscope-sweep");
    json_t *points = json_object_get(doc, "points");
    cr_assert_eq(json_array_size(points), 10, "p <= N <= 4: 10 points");
    /* (3, 1) from the grid against its own replay. */
    json_t *pt = json_array_get(points, 3);
    cr_assert_eq(integer(pt, "n"), 3);
    cr_assert_eq(integer(pt, "p"), 1);
    char *rj = test_path(dir, "r.json");
    r = cli_run("replay", trace, "--gpu", "fermi", "--schedule", "rr,tuple:3,1", "-o", rj, "--quiet",
                NULL); /* sweep's default preset */
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *replay = test_load_json(rj);
    json_t *summary = json_object_get(replay, "summary");
    cr_expect_eq(integer(pt, "l1_hits"), integer(json_object_get(summary, "l1"), "hits"));
    cr_expect_eq(integer(pt, "l1_to_l2_bytes"), integer(json_object_get(summary, "traffic"),
                                                        "l1_to_l2_bytes"));
    json_t *poise = json_object_get(doc, "poise");
    cr_expect_str_eq(json_string_value(json_object_get(poise, "latency_model")), "timed");
    cr_expect_str_eq(json_string_value(json_object_get(poise, "grid_model")), "functional");
    json_t *inputs = json_object_get(poise, "inputs");
    cr_expect_geq(json_real_value(json_object_get(inputs, "l_o")), 120,
                  "at least the L2 latency of the fermi preset");
    cr_expect_eq(json_object_size(json_object_get(poise, "features")), 8);
    json_int_t n = integer(json_object_get(poise, "predicted"), "n");
    cr_expect(n >= 1 && n <= 4);
    size_t len;
    char *csv = test_path(dir, "sweep.csv"), *text = test_read_file(csv, &len);
    cr_assert_not_null(text);
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    cr_expect_eq(lines, 11, "a header and 10 points");
    free(text);
    text = test_read_file(html, &len);
    cr_assert_not_null(text);
    cr_expect(strstr(text, "<svg") && strstr(text, "Poise predicted"));
    free(text);
    free(csv);
    json_decref(replay);
    json_decref(doc);
    free(rj);
    free(out);
    free(html);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_sweep, bad_options_give_one_line)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    const char *const cases[][2] = {{"--n-max", "0"},           {"--n-max", "200"},
                                    {"--poise-stride", "two"},  {"--poise-stride", "2,99"},
                                    {"--schedule", "rr,ccws"}, {"--schedule", "recorded"}};
    for (size_t i = 0; i < 6; i++) {
        cli_result r = cli_run("sweep", trace, cases[i][0], cases[i][1], "--quiet", NULL);
        cr_expect_neq(r.status, 0, "%s %s", cases[i][0], cases[i][1]);
        cr_expect(test_is_one_line(r.err), "%s %s: %s", cases[i][0], cases[i][1], r.err);
        cli_result_free(&r);
    }
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Issue 42, item 3: each model fits the limit, all of them at once do not
 * (256 SMs of 256 KiB L1s: 64 MiB a model, hundreds of grid points); the
 * sum is refused before any is built.  compare alike, under a small limit. */
Test(cli_sweep, models_that_fit_alone_are_refused_together)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    cli_result r = cli_run("sweep", trace, "--gpu", "poise", "--sms", "256", "--l1", "256K:64:128",
                           "--quiet", NULL);
    cr_expect_neq(r.status, 0);
    cr_expect(test_is_one_line(r.err) && strstr(r.err, "cache models replayed together") &&
                  strstr(r.err, "WARPSCOPE_MODEL_LIMIT"),
              "%s", r.err);
    cli_result_free(&r);
    setenv("WARPSCOPE_MODEL_LIMIT", "2", 1); /* fermi's model: about 1 MiB */
    cli_result one = cli_run("replay", trace, "--gpu", "fermi", NULL);
    cli_result three = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,srrip,fifo", NULL);
    unsetenv("WARPSCOPE_MODEL_LIMIT");
    cr_expect_eq(one.status, 0, "%s", one.err);
    cr_expect_neq(three.status, 0);
    cr_expect(strstr(three.err, "cache models replayed together") != NULL, "%s", three.err);
    cli_result_free(&one);
    cli_result_free(&three);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Poise's I_n (docs/metrics.md, "Warp-tuple throttling and Poise") counts
 * the warp instructions the model issues, the gaps of non-memory
 * instructions between a trace's records included (§12): on a trace
 * recorded with --timing it is the timed (N_max, N_max) replay's
 * instructions over the global warp-loads, more than the records alone. */
Test(cli_sweep, poise_counts_the_gaps_in_its_instructions_per_load)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "t.wst");
    cli_result r = cli_run("record", "--workload", "syrk", "--timing", "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    char *out = test_path(dir, "s.json"), *rj = test_path(dir, "r.json");
    r = cli_run("sweep", trace, "--n-max", "2", "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("replay", trace, "--gpu", "fermi", "--timed", "--schedule", "rr,tuple:2,2", "-o", rj,
                "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *doc = test_load_json(out), *replay = test_load_json(rj);
    json_int_t instructions = 0, records = 0;
    json_t *kernels = json_object_get(replay, "kernels"), *k;
    size_t i;
    json_array_foreach(kernels, i, k) {
        instructions += integer(json_object_get(k, "timed"), "instructions");
        records += integer(json_object_get(k, "timed"), "memory_instructions");
    }
    cr_assert_gt(instructions, records, "the port states gaps");
    json_int_t loads = integer(doc, "global_loads");
    cr_expect_eq(integer(doc, "warp_instructions"), instructions);
    double i_n = json_real_value(json_object_get(json_object_get(json_object_get(doc, "poise"),
                                                                 "inputs"), "i_n"));
    cr_expect_float_eq(i_n, (double)instructions / (double)loads, 1e-9);
    json_decref(doc);
    json_decref(replay);
    free(out);
    free(rj);
    free(trace);
    test_tmpdir_cleanup(dir);
}
