/* tests/test_cli_lcm.c: S2's LCM and LWS end to end (`compare` with the
 * lcm systems and @lws, `replay --manage lcm`): their figures in the
 * summary, JSON and CSV, the warp order named as its own, and one-line
 * errors for bad options. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static json_int_t integer(json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(b ? json_object_get(o, a) : o, b ? b : a);
    cr_assert(json_is_integer(v), "%s.%s", a, b ? b : "");
    return json_integer_value(v);
}

Test(cli_lcm, compare_reports_each_half_of_lcm_and_lws_beside_the_baseline)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    char *out = test_path(dir, "c.json");
    cli_result r = cli_run("compare", trace, "--gpu", "kepler-s2", "--policies",
                           "lru,lcm-bypass,lcm-coalesce,lcm,lcm@lws", "-o", out, "--csv", dir,
                           "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "bypassed L1 as streaming") != NULL, "%s", r.out);
    cr_expect(strstr(r.out, "inter-warp requests merged") != NULL, "%s", r.out);
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    json_t *list = json_object_get(doc, "policies");
    json_t *base = json_array_get(list, 0), *bypass = json_array_get(list, 1),
           *coalesce = json_array_get(list, 2), *lws = json_array_get(list, 4);
    cr_expect_null(json_object_get(base, "lcm"), "no LCM, no figures");
    json_t *b = json_object_get(bypass, "lcm");
    cr_assert_not_null(b);
    cr_expect_gt(integer(b, "bypassed_requests", NULL), 0, "gaussian has streaming loads");
    /* Without a merge, every bypassed request is an L1 bypass. */
    cr_expect_eq(integer(bypass, "l1", "bypasses"), integer(b, "bypassed_requests", NULL));
    cr_expect_eq(integer(bypass, "l1", "requests"), integer(base, "l1", "requests"),
                 "a bypassed request still counts as an L1 access");
    json_t *c = json_object_get(coalesce, "lcm");
    json_int_t merged = integer(c, "coalescer", "merged_requests");
    cr_expect_eq(integer(coalesce, "l1", "requests") + merged, integer(base, "l1", "requests"),
                 "each merged request is an L1 access saved");
    cr_expect_eq(integer(c, "bypassed_loads", NULL), 0);
    cr_expect_str_eq(json_string_value(json_object_get(lws, "warp_order")), "lws");
    json_decref(doc);
    char *csv = test_read_output(dir, "compare.csv");
    cr_expect(strstr(csv, "lcm_bypassed_requests,lcm_merged_requests") != NULL, "%s", csv);
    free(csv);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_lcm, replay_takes_the_monitor_options_and_names_lws_as_its_own_order)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    char *out = test_path(dir, "r.json");
    cli_result r = cli_run("replay", trace, "--gpu", "kepler-s2", "--manage", "lcm",
                           "--schedule", "rr,lws", "--lcm-monitor", "one-warp", "--lcm-threshold",
                           "4", "--lcm-window", "16", "-o", out, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "rr,lws is under study") != NULL, "%s", r.out);
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    cr_expect(json_is_true(json_object_get(doc, "own_issue_order")));
    json_t *lcm = json_object_get(json_object_get(doc, "summary"), "lcm");
    cr_assert_not_null(lcm);
    json_t *o = json_object_get(lcm, "options");
    cr_expect_str_eq(json_string_value(json_object_get(o, "monitor")), "one-warp");
    cr_expect_eq(json_integer_value(json_object_get(o, "threshold")), 4);
    cr_expect_eq(json_integer_value(json_object_get(o, "window")), 16);
    json_t *kernel = json_array_get(json_object_get(doc, "kernels"), 0);
    cr_expect_not_null(json_object_get(kernel, "lcm"));
    cr_expect_not_null(json_object_get(json_array_get(json_object_get(kernel, "pcs"), 0), "lcm"));
    json_decref(doc);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_lcm, bad_options_fail_in_one_line)
{
    const char *cases[][2] = {{"--lcm-monitor", "some-warps"},
                              {"--lcm-threshold", "1"},
                              {"--lcm-window", "0"},
                              {"--manage", "lcm+nothing"},
                              {"--l1-policy", "lcm"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cli_result r = cli_run("replay", "x.wst", cases[i][0], cases[i][1], NULL);
        cr_expect_neq(r.status, 0, "%s %s", cases[i][0], cases[i][1]);
        cr_expect(test_is_one_line(r.err), "%s", r.err);
        cli_result_free(&r);
    }
    cli_result r = cli_run("replay", "x.wst", "--l1-policy", "lcm", NULL);
    cr_expect(strstr(r.err, "--manage lcm") != NULL, "a system named as a policy: %s", r.err);
    cli_result_free(&r);
}
