/* tests/test_cli_timed.c: the timed replay from the command line
 * (docs/metrics.md §12; docs/report-schema.md, "Timed replay"). */
#include <criterion/criterion.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static uint64_t u64_at(const json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(json_object_get(o, a), b);
    cr_assert(json_is_integer(v), "%s.%s", a, b);
    return (uint64_t)json_integer_value(v);
}

/* The run's figures add up, and each kernel's sum to the run's. */
Test(cli_timed, replay_reports_the_clock)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "bfs");
    char *out = test_path(dir, "timed.json");
    cli_result r = cli_run("replay", trace, "--gpu", "fermi", "--timed", "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "timed replay (the model's figures"), "%s", r.out);
    json_t *doc = test_load_json(out);
    json_t *timed = json_object_get(doc, "timed");
    cr_assert(json_is_object(timed));
    uint64_t cycles = (uint64_t)json_integer_value(json_object_get(timed, "cycles"));
    uint64_t slots = (uint64_t)json_integer_value(json_object_get(timed, "issue_cycles"));
    const char *causes[] = {"memory", "pipeline", "throttled", "no_warp"};
    for (int c = 0; c < 4; c++)
        slots += u64_at(timed, "stall_cycles", causes[c]);
    cr_assert_gt(cycles, 0);
    cr_assert_eq(slots, cycles * 15 * 2, "issue + stall = cycles x schedulers x SMs");
    cr_assert(strstr(json_string_value(json_object_get(timed, "model")), "not a GPU's"));
    uint64_t sum = 0;
    json_t *kernels = json_object_get(doc, "kernels");
    for (size_t k = 0; k < json_array_size(kernels); k++)
        sum += (uint64_t)json_integer_value(
            json_object_get(json_object_get(json_array_get(kernels, k), "timed"), "cycles"));
    cr_assert_eq(sum, cycles);
    json_decref(doc);
    cli_result_free(&r);
    /* --reserved-lines is the same model under its old name. */
    char *again = test_path(dir, "reserved.json");
    r = cli_run("replay", trace, "--gpu", "fermi", "--reserved-lines", "-o", again, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    json_t *a = test_load_json(out), *b = test_load_json(again);
    cr_assert(json_equal(json_object_get(a, "timed"), json_object_get(b, "timed")));
    cr_assert(json_equal(json_object_get(a, "summary"), json_object_get(b, "summary")));
    json_decref(a);
    json_decref(b);
    cli_result_free(&r);
    free(again);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_timed, compare_tables_and_timeline)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gaussian");
    char *csv = test_path(dir, "tables"), *timeline = test_path(dir, "timeline.json");
    cli_result r = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,fifo,opt",
                           "--timed", "--csv", csv, "--timeline", timeline, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "speedup"), "%s", r.out);
    char *table = test_read_output(csv, "compare.csv");
    cr_assert(strstr(table, ",cycles,ipc,speedup_vs_first,"), "%s", table);
    free(table);
    char *kernels = test_read_output(csv, "timed_kernels.csv");
    cr_assert(strncmp(kernels, "policy,kernel_id,kernel,kernel_demangled,start_cycle,cycles,", 60) == 0,
              "%s", kernels);
    free(kernels);
    json_t *doc = test_load_json(timeline);
    json_t *events = json_object_get(doc, "traceEvents");
    cr_assert_gt(json_array_size(events), 16);
    size_t spans = 0;
    for (size_t i = 0; i < json_array_size(events); i++) {
        json_t *e = json_array_get(events, i);
        const char *ph = json_string_value(json_object_get(e, "ph"));
        cr_assert(ph && (strcmp(ph, "X") == 0 || strcmp(ph, "M") == 0));
        cr_assert(json_is_integer(json_object_get(e, "pid")));
        if (strcmp(ph, "X") == 0) {
            cr_assert(json_is_integer(json_object_get(e, "ts")));
            cr_assert(json_is_integer(json_object_get(e, "dur")));
            spans++;
        }
    }
    cr_assert_gt(spans, 0);
    json_decref(doc);
    cli_result_free(&r);
    free(csv);
    free(timeline);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_timed, timeline_needs_timed)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gemm");
    char *timeline = test_path(dir, "t.json");
    cli_result r = cli_run("replay", trace, "--timeline", timeline, "--quiet", NULL);
    cr_assert_neq(r.status, 0);
    cr_assert(test_is_one_line(r.err), "%s", r.err);
    cr_assert(strstr(r.err, "--timed"), "%s", r.err);
    cli_result_free(&r);
    free(timeline);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_timed, dump_the_timed_order)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "gemm");
    cli_result r = cli_run("dump", trace, "--order", "scheduled", "--timed", "--csv", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strncmp(r.out, "placed_sm,warp_slot,cycle,", 26) == 0, "%.80s", r.out);
    /* Issued first: SM 0, slot 0, cycle 0, the stored first record with
     * every lane (an affine record issues with lane 0 alone: dump has the
     * rest written, sched_record_lanes). */
    cli_result stored = cli_run("dump", trace, "--csv", NULL);
    cr_assert_eq(stored.status, 0, "%s", stored.err);
    const char *issued = strchr(r.out, '\n') + 1, *row = strchr(stored.out, '\n') + 1;
    size_t row_length = (size_t)(strchr(row, '\n') - row) + 1;
    cr_assert(strncmp(issued, "0,0,0,", 6) == 0 && strncmp(issued + 6, row, row_length) == 0,
              "%.200s\n%.200s", issued, row);
    cli_result_free(&stored);
    cli_result_free(&r);
    r = cli_run("dump", trace, "--timed", NULL);
    cr_assert_neq(r.status, 0);
    cr_assert(test_is_one_line(r.err), "%s", r.err);
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}
