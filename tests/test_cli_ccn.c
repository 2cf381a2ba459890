/* tests/test_cli_ccn.c: the CCN ring end to end (`compare P+ccn`,
 * `replay --manage ccn`): its figures in the summary, JSON, CSV and HTML,
 * and one-line errors for bad ring options. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

static json_t *at(json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(json_object_get(o, a), b);
    cr_assert_not_null(v, "%s.%s", a, b);
    return v;
}

Test(cli_ccn, compare_reports_the_ring_beside_its_baseline)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "hotspot");
    char *out = test_path(dir, "c.json");
    cli_result r = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,lru+ccn,srrip+ccn-b", "-o", out,
                           "--csv", dir, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "remote hit rate") != NULL, "%s", r.out);
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    json_t *list = json_object_get(doc, "policies");
    json_t *base = json_array_get(list, 0), *ring = json_array_get(list, 1);
    cr_expect_null(json_object_get(base, "ccn"), "no ring, no figures");
    json_t *ccn = json_object_get(ring, "ccn");
    cr_assert_not_null(ccn);
    cr_expect_str_eq(json_string_value(json_object_get(ring, "l1_policy")), "lru");
    json_int_t hits = json_integer_value(json_object_get(ccn, "remote_hits"));
    cr_expect_gt(hits, 0);
    /* Without timing, the ring takes exactly its hits off L1->L2 requests. */
    cr_expect_eq(json_integer_value(at(base, "traffic", "l1_to_l2_requests")) - hits,
                 json_integer_value(at(ring, "traffic", "l1_to_l2_requests")));
    cr_expect_eq(json_array_size(json_object_get(ccn, "per_sm")), 15, "fermi: 15 SMs");
    json_t *hist = json_object_get(ccn, "hop_histogram");
    cr_assert_eq(json_array_size(hist), 14);
    json_int_t binned = 0;
    for (size_t i = 0; i < 14; i++)
        binned += json_integer_value(json_object_get(json_array_get(hist, i), "remote_hits"));
    cr_expect_eq(binned, hits);
    cr_expect(json_is_true(json_object_get(at(ring, "ccn", "options"), "throttle")));
    cr_expect(json_is_false(json_object_get(at(json_array_get(list, 2), "ccn", "options"), "throttle")),
              "ccn-b has no throttler");
    /* One table per entity: the runs, kernel launches, SMs, hop bins. */
    char *text = test_read_output(dir, "ccn.csv");
    cr_expect(strncmp(text, "policy,l1_load_misses,", 22) == 0, "%s", text);
    cr_expect(strstr(text, "\nlru+ccn,") && strstr(text, "\nsrrip+ccn-b,"), "%s", text);
    cr_expect_null(strstr(text, "\nlru,"), "no ring, no row");
    free(text);
    text = test_read_output(dir, "ccn_kernels.csv");
    cr_expect(strncmp(text, "policy,kernel_id,kernel,kernel_demangled,l1_load_misses,", 56) == 0,
              "%s", text);
    cr_expect(strstr(text, "\nlru+ccn,0,_Z14calculate_tempiPfS_S_iiiiffffff,calculate_temp,") != NULL,
              "%s", text);
    free(text);
    text = test_read_output(dir, "ccn_sms.csv");
    cr_expect(strncmp(text, "policy,sm,l1_load_misses,", 25) == 0, "%s", text);
    cr_expect(strstr(text, "\nsrrip+ccn-b,14,") != NULL, "%s", text);
    free(text);
    text = test_read_output(dir, "ccn_hops.csv");
    cr_expect(strncmp(text, "policy,kernel_id,kernel,kernel_demangled,distance,hops,remote_hits\n", 67) == 0,
              "%s", text);
    cr_expect(strstr(text, "\nlru+ccn,0,_Z14calculate_temp") != NULL, "%s", text);
    /* The run's histogram is the sum of the launches'. */
    json_int_t at_one = 0;
    for (char *row = strstr(text, "\nlru+ccn,"); row; row = strstr(row + 1, "\nlru+ccn,")) {
        long long d, hops, binned_hits;
        char *rest = strchr(strchr(strchr(strchr(row + 1, ',') + 1, ',') + 1, ',') + 1, ',') + 1;
        cr_assert_eq(sscanf(rest, "%lld,%lld,%lld", &d, &hops, &binned_hits), 3, "%.80s", row);
        at_one += d == 1 ? binned_hits : 0;
    }
    cr_expect_eq(at_one, json_integer_value(json_object_get(json_array_get(hist, 0), "remote_hits")));
    free(text);
    json_decref(doc);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_ccn, replay_with_the_ring_reports_it_per_kernel)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "hotspot");
    char *out = test_path(dir, "r.json");
    cli_result r = cli_run("replay", trace, "--manage", "ccn", "--ccn-sample", "10",
                           "--ccn-epoch", "100", "--ccn-min-hit-rate", "0.9", "-o", out, "--csv",
                           dir, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.out, "CCN ring") && strstr(r.out, "throttler"), "%s", r.out);
    cli_result_free(&r);
    json_t *doc = test_load_json(out);
    json_t *ccn = json_object_get(json_object_get(doc, "summary"), "ccn");
    cr_assert_not_null(ccn);
    json_t *throttler = json_object_get(ccn, "throttler");
    cr_expect_gt(json_integer_value(json_object_get(throttler, "epochs")), 0);
    cr_expect_gt(json_integer_value(json_object_get(throttler, "ring_off_epochs")), 0,
                 "a 0.9 threshold turns the ring off somewhere");
    cr_expect_gt(json_integer_value(json_object_get(ccn, "throttled")), 0);
    json_int_t sum = 0;
    json_t *kernels = json_object_get(doc, "kernels"), *k;
    size_t i;
    json_array_foreach(kernels, i, k)
        sum += json_integer_value(json_object_get(json_object_get(k, "ccn"), "remote_hits"));
    cr_expect_eq(sum, json_integer_value(json_object_get(ccn, "remote_hits")));
    static const char *const tables[] = {"replay.csv", "ccn.csv", "ccn_kernels.csv", "ccn_sms.csv",
                                         "ccn_hops.csv"};
    for (size_t t = 0; t < 5; t++)
        free(test_read_output(dir, tables[t]));
    json_decref(doc);
    free(out);
    free(trace);
    test_tmpdir_cleanup(dir);
}

static void refused(const char *what, const char *const *args, const char *needle)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    cli_result r = cli_run(args[0], trace, args[1], args[2], args[3], args[4], "--quiet", NULL);
    cr_expect_neq(r.status, 0, "%s", what);
    cr_expect(test_is_one_line(r.err), "%s: %s", what, r.err);
    cr_expect(strstr(r.err, needle) != NULL, "%s: %s", what, r.err);
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_ccn, bad_ring_options_give_one_line)
{
    refused("sample past the epoch",
            (const char *const[]){"replay", "--ccn-sample", "500", "--ccn-epoch", "100"},
            "sampling interval");
    refused("a hit rate above 1",
            (const char *const[]){"replay", "--manage", "ccn", "--ccn-min-hit-rate", "2"},
            "hit rate");
    refused("an unknown system",
            (const char *const[]){"replay", "--manage", "ccn+nope", "--seed", "1"}, "nope");
    refused("a system with no policy",
            (const char *const[]){"compare", "--policies", "+ccn", "--seed", "1"}, "+ccn");
}

Test(cli_ccn, profile_draws_the_ring_and_writes_its_tables)
{
    char *dir = test_tmpdir(), *out = test_path(dir, "report");
    cli_result r = cli_run("profile", "--workload", "hotspot", "--policies", "lru,lru+ccn", "-o",
                           out, "--trials", "1", "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    static const char *const files[] = {"report.html", "ccn.csv", "ccn_kernels.csv", "ccn_sms.csv",
                                        "ccn_hops.csv"};
    for (size_t i = 0; i < 5; i++) {
        char *text = test_read_output(out, files[i]);
        if (i == 0) {
            cr_expect(strstr(text, "CCN ring of lru+ccn") != NULL, "the ring's subsection");
            cr_expect(strstr(text, "ring hops (out and back)") != NULL, "the hop histogram");
            cr_expect(strstr(text, "SM (ring position)") != NULL, "the per-SM bars");
        }
        free(text);
    }
    free(out);
    test_tmpdir_cleanup(dir);
}
