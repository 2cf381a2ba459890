/* tests/test_cli_kernel_filter.c: the kernel filters (-k/--kernel-name,
 * --launch-skip, --launch-count; formats/kernel_filter.h) on the commands
 * that read a trace, end to end: what each keeps, and the one-line error
 * when nothing matches. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"

/* gaussian (small) launches Fan1 then Fan2, 63 times each: 126 launches,
 * Fan1 at the even indices. */
#define FAN1 "_Z4Fan1PfS_ii"
#define FAN2 "_Z4Fan2PfS_S_iii"

static char *dir, *trace;

static void setup(void)
{
    dir = test_tmpdir();
    trace = test_record_trace(dir, "gaussian");
}

static void teardown(void)
{
    free(trace);
    test_tmpdir_cleanup(dir);
}

TestSuite(cli_kernel_filter, .init = setup, .fini = teardown);

static void assert_names(const json_t *kernels, size_t count, const char *name)
{
    cr_assert_eq(json_array_size(kernels), count, "%zu kernels", json_array_size(kernels));
    size_t i;
    json_t *k;
    json_array_foreach(kernels, i, k)
        cr_assert_str_eq(json_string_value(json_object_get(k, "name")), name);
}

Test(cli_kernel_filter, info_by_name_and_regex_with_skip_and_count)
{
    cli_result r = cli_run("info", trace, "-k", "Fan1", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "kernels    63 (of the file's 126: -k Fan1)\n"), "%s", r.out);
    cli_result_free(&r);
    r = cli_run("info", trace, "--kernel-name", FAN2, NULL); /* the mangled name too */
    cr_assert(strstr(r.out, "kernels    63 (of the file's 126: -k " FAN2 ")\n"), "%s", r.out);
    cli_result_free(&r);
    r = cli_run("info", trace, "--kernel-name=regex:^_Z4Fan2", "--launch-skip", "3",
                "--launch-count=2", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_assert(strstr(r.out, "kernels    2 (of the file's 126: -k regex:^_Z4Fan2 --launch-skip 3 "
                            "--launch-count 2)\n"), "%s", r.out);
    cr_assert(strstr(r.out, "kernel 0   " FAN2), "%s", r.out);
    cr_assert(strstr(r.out, "kernel 1   " FAN2), "%s", r.out);
    cr_assert_null(strstr(r.out, FAN1), "%s", r.out);
    cli_result_free(&r);
    /* Without a name, skip and count take launches in order. */
    r = cli_run("info", trace, "--launch-skip", "1", "--launch-count", "1", NULL);
    cr_assert(strstr(r.out, "kernels    1 (of the file's 126: --launch-skip 1 --launch-count 1)\n") &&
                  strstr(r.out, "kernel 0   " FAN2), "%s", r.out);
    cli_result_free(&r);
    /* A filter that keeps every launch leaves the trace as it is. */
    r = cli_run("info", trace, "--launch-count", "500", NULL);
    cr_assert(strstr(r.out, "kernels    126\n"), "%s", r.out);
    cli_result_free(&r);
}

Test(cli_kernel_filter, analyze_reads_the_chosen_launches)
{
    char *all = test_path(dir, "all.json"), *some = test_path(dir, "some.json");
    cli_result r = cli_run("analyze", trace, "--gpu", "fermi", "-o", all, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run("analyze", trace, "--gpu", "fermi", "-o", some, "--quiet", "-k", "regex:Fan2",
                "--launch-skip", "2", "--launch-count", "4", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *a = test_load_json(all), *s = test_load_json(some);
    json_t *kernels = json_object_get(s, "kernels");
    /* The report says how its launches were chosen; the whole trace's has no filter. */
    json_t *t = json_object_get(s, "trace");
    cr_assert_str_eq(json_string_value(json_object_get(t, "kernel_filter")),
                     "-k regex:Fan2 --launch-skip 2 --launch-count 4");
    cr_assert_eq(json_integer_value(json_object_get(t, "kernels_in_file")), 126);
    cr_assert_eq(json_integer_value(json_object_get(t, "kernels")), 4);
    cr_assert_null(json_object_get(json_object_get(a, "trace"), "kernel_filter"));
    assert_names(kernels, 4, FAN2);
    /* Kept launch i is Fan2's launch 2 + i, index 2 (2 + i) + 1 of the trace:
     * the same requests (they do not depend on the cache). */
    for (size_t i = 0; i < 4; i++) {
        json_t *full = json_array_get(json_object_get(a, "kernels"), 2 * (2 + i) + 1);
        json_t *kept = json_array_get(kernels, i);
        cr_assert_eq(json_integer_value(json_object_get(kept, "index")), (json_int_t)i);
        json_t *want = json_object_get(json_object_get(json_object_get(full, "metrics"), "instructions"), "requests");
        json_t *got = json_object_get(json_object_get(json_object_get(kept, "metrics"), "instructions"), "requests");
        cr_assert(json_equal(want, got), "launch %zu", i);
    }
    json_decref(a);
    json_decref(s);
    free(all);
    free(some);
}

Test(cli_kernel_filter, replay_compare_and_export_take_it)
{
    char *replay = test_path(dir, "r.json"), *compare = test_path(dir, "c.json");
    char *traces = test_path(dir, "accelsim");
    cli_result r = cli_run("replay", trace, "--gpu", "fermi", "-o", replay, "-k", "Fan1",
                           "--launch-skip", "60", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_t *doc = test_load_json(replay);
    assert_names(json_object_get(doc, "kernels"), 3, FAN1);
    cr_assert_str_eq(json_string_value(json_object_get(json_object_get(doc, "trace"), "kernel_filter")),
                     "-k Fan1 --launch-skip 60");
    json_decref(doc);
    r = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,srrip", "-o", compare,
                "--launch-count", "2", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    /* compare has no kernels: its lru entry is replay's of the same launches. */
    r = cli_run("replay", trace, "--gpu", "fermi", "-o", replay, "--launch-count", "2", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    doc = test_load_json(compare);
    json_t *two = test_load_json(replay);
    json_t *lru = json_array_get(json_object_get(doc, "policies"), 0);
    cr_assert_eq(json_array_size(json_object_get(two, "kernels")), 2);
    json_t *want = json_object_get(json_object_get(json_object_get(two, "summary"), "l1"), "requests");
    json_t *got = json_object_get(json_object_get(lru, "l1"), "requests");
    cr_assert(json_integer_value(got) > 0 && json_equal(want, got));
    json_decref(two);
    json_decref(doc);
    r = cli_run("export", "accelsim", trace, "-o", traces, "-k", "Fan2", "--launch-count", "2",
                NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    char *list = test_read_output(traces, "kernelslist.g");
    cr_assert_str_eq(list, "kernel-1.traceg\nkernel-2.traceg\n");
    free(list);
    free(replay);
    free(compare);
    free(traces);
}

Test(cli_kernel_filter, dump_reads_one_launch)
{
    cli_result r = cli_run("dump", trace, "--csv", "-k", "Fan2", "--launch-count", "1", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    /* Every record is of the one launch kept, kernel 0 of the filtered trace. */
    size_t rows = 0;
    for (const char *line = strchr(r.out, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        cr_assert(strncmp(line + 1, "0,", 2) == 0, "%.60s", line + 1);
        rows++;
    }
    cr_assert_gt(rows, 0);
    cli_result_free(&r);
}

/* A filter that matches nothing: one line naming the trace and the filter,
 * exit 1, no output written. */
Test(cli_kernel_filter, no_match_is_one_line_naming_trace_and_filter)
{
    char *out = test_path(dir, "out.json");
    const char *commands[][6] = {
        {"info", NULL},
        {"analyze", "--gpu", "fermi", "-o", NULL},
        {"replay", "--gpu", "fermi", "-o", NULL},
        {"compare", "--gpu", "fermi", "-o", NULL},
        {"bypass", "--gpu", "fermi", "--json", NULL},
    };
    char expect[1024];
    snprintf(expect, sizeof expect,
             "warpscope: %s: no kernel launch matches -k nothing (0 of the trace's 126 launches "
             "match the name)\n", trace);
    for (size_t c = 0; c < sizeof commands / sizeof commands[0]; c++) {
        const char **a = commands[c];
        cli_result r = a[1] ? cli_run(a[0], trace, a[1], a[2], a[3], out, "-k", "nothing", NULL)
                            : cli_run(a[0], trace, "-k", "nothing", NULL);
        cr_assert_eq(r.status, 1, "%s: %s", a[0], r.err);
        cr_assert_str_eq(r.err, expect, "%s", a[0]);
        cr_assert(access(out, F_OK) != 0, "%s wrote %s", a[0], out);
        cli_result_free(&r);
    }
    cli_result r = cli_run("info", trace, "--launch-skip", "500", NULL);
    snprintf(expect, sizeof expect,
             "warpscope: %s: no kernel launch matches --launch-skip 500 (the trace has 126 "
             "launches)\n", trace);
    cr_assert_str_eq(r.err, expect);
    cli_result_free(&r);
    free(out);
}

Test(cli_kernel_filter, bad_options_are_one_line)
{
    cli_result r = cli_run("info", trace, "-k", "regex:(", NULL);
    cr_assert_eq(r.status, 1);
    cr_assert(test_is_one_line(r.err) && strstr(r.err, "-k regex:(: not a regular expression"),
              "%s", r.err);
    cli_result_free(&r);
    r = cli_run("info", trace, "--launch-count", "0", NULL);
    cr_assert(r.status == 1 && test_is_one_line(r.err), "%s", r.err);
    cli_result_free(&r);
    r = cli_run("info", trace, "--launch-skip", "many", NULL);
    cr_assert(r.status == 1 && test_is_one_line(r.err) && strstr(r.err, "--launch-skip"), "%s", r.err);
    cli_result_free(&r);
    r = cli_run("info", trace, "-k", NULL);
    cr_assert(r.status == 1 && test_is_one_line(r.err) && strstr(r.err, "-k needs a value"), "%s",
              r.err);
    cli_result_free(&r);
    r = cli_run("workloads", "-k", "Fan1", NULL);
    cr_assert(r.status == 1 && test_is_one_line(r.err) && strstr(r.err, "reads no trace"), "%s",
              r.err);
    cli_result_free(&r);
    r = cli_run("analyze", "--help", NULL);
    cr_assert(strstr(r.out, "--launch-skip N"), "%s", r.out);
    cli_result_free(&r);
}
