/* tests/test_json_out.c: analyzer results become the schema's objects. */
#include <criterion/criterion.h>
#include <string.h>

#include "reports/json_out.h"
#include "tests/helpers.h"

Test(json_out, ratio_null_on_zero_denominator)
{
    json_t *r = report_json_ratio(1, 0);
    cr_assert(json_is_null(r));
    json_decref(r);
    r = report_json_ratio(1, 4);
    cr_assert_float_eq(json_real_value(r), 0.25, 1e-12);
    json_decref(r);
}

Test(json_out, sharing_object)
{
    ws_error err;
    sharing *s = sharing_new(2, 128, &err);
    sharing_touch(s, 0, 0, 0, &err);
    sharing_touch(s, 0, 1, 3, &err);
    sharing_touch(s, 128, 1, 3, &err);
    sharing_end_kernel(s);
    json_t *o = report_json_sharing(sharing_get(s), 128);
    cr_assert_eq(json_integer_value(json_object_get(o, "blocks")), 2);
    cr_assert_float_eq(json_real_value(json_object_get(o, "shared_fraction")), 0.5, 1e-12);
    cr_assert_float_eq(json_real_value(json_object_get(o, "mean_sms_per_shared_block")), 2.0, 1e-12);
    json_t *row0 = json_array_get(json_object_get(o, "sm_matrix"), 0);
    cr_assert_eq(json_integer_value(json_array_get(row0, 1)), 1);
    cr_assert_eq(json_integer_value(json_array_get(json_object_get(o, "cta_distance_exact"), 3)), 1);
    json_decref(o);
    sharing_free(s);
}

Test(json_out, mpli_miss_classes_locality)
{
    mpli_counts c;
    memset(&c, 0, sizeof c);
    mpli_add_load(&c, 32, 32);
    json_t *m = report_json_mpli(&c);
    cr_assert_eq(json_integer_value(json_array_get(json_object_get(m, "divergent"), 4)), 1);
    cr_assert_str_eq(json_string_value(json_array_get(json_object_get(m, "buckets"), 3)), "3-31");
    json_decref(m);

    miss_counts mc = {{1, 2, 3, 4}, 5, 4};
    json_t *k = report_json_miss_classes(&mc);
    cr_assert_eq(json_integer_value(json_object_get(k, "inter_warp")), 3);
    cr_assert_eq(json_integer_value(json_object_get(k, "write_evict")), 4);
    json_decref(k);

    locality_pc pc;
    memset(&pc, 0, sizeof pc);
    pc.generations[LOCALITY_STREAMING] = 3;
    pc.generations[LOCALITY_BOTH] = 1;
    json_t *l = report_json_locality_pc(&pc);
    cr_assert_float_eq(json_real_value(json_object_get(l, "streaming")), 0.75, 1e-12);
    cr_assert_str_eq(json_string_value(json_object_get(l, "class")), "streaming");
    json_decref(l);
}

Test(json_out, write_is_atomic_and_parses_back)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "r.json");
    json_t *doc = json_pack("{s:i, s:[i,i]}", "version", 1, "xs", 1, 2);
    ws_error err;
    cr_assert_eq(report_json_write(path, doc, &err), 0);
    json_error_t jerr;
    json_t *back = json_load_file(path, 0, &jerr);
    cr_assert_not_null(back);
    cr_assert(json_equal(doc, back));
    json_decref(doc);
    json_decref(back);
    free(path);
    test_tmpdir_cleanup(dir);
}

#include "reports/json_metrics.h"

Test(json_metrics, mrc_points_include_configured_capacity)
{
    reuse_hist h;
    ws_error err;
    reuse_hist_init(&h, 16, &err);
    /* 4 cold, distances 0, 2, 5: misses at C=3 are 4 cold + distance 5. */
    reuse_hist_add(&h, REUSE_COLD);
    reuse_hist_add(&h, REUSE_COLD);
    reuse_hist_add(&h, REUSE_COLD);
    reuse_hist_add(&h, REUSE_COLD);
    reuse_hist_add(&h, 0);
    reuse_hist_add(&h, 2);
    reuse_hist_add(&h, 5);
    json_t *mrc = report_json_mrc(&h, 128, 3, 1.0);
    /* Capacities 1, 2, 3 (configured), 4, 8. */
    cr_assert_eq(json_array_size(mrc), 5);
    json_t *c3 = json_array_get(mrc, 2);
    cr_assert_eq(json_integer_value(json_object_get(c3, "lines")), 3);
    cr_assert_eq(json_integer_value(json_object_get(c3, "bytes")), 384);
    cr_assert_float_eq(json_real_value(json_object_get(c3, "miss_ratio")), 5.0 / 7, 1e-12);
    cr_assert(json_is_true(json_object_get(c3, "exact")));
    json_t *c8 = json_array_get(mrc, 4);
    cr_assert_float_eq(json_real_value(json_object_get(c8, "miss_ratio")), 4.0 / 7, 1e-12);
    json_decref(mrc);
    reuse_hist_clear(&h);
}

/* Sampled at R = 1/4: capacities below 4 lines are unresolved (null, not a
 * number), the rest divide by the SHARDS_adj total R × every access. */
Test(json_out, mrc_sampled_unresolved_and_adjusted)
{
    reuse_hist h;
    reuse_hist_init(&h, 16, NULL);
    /* 2 cold, distances 0 and 8 (scaled), 36 accesses outside the sample:
     * 40 accesses, so the sample stands for 10: 6 more at distance 0. */
    reuse_hist_add(&h, REUSE_COLD);
    reuse_hist_add(&h, REUSE_COLD);
    reuse_hist_add(&h, 0);
    reuse_hist_add(&h, 8);
    for (int i = 0; i < 36; i++)
        reuse_hist_add(&h, REUSE_SKIPPED);
    cr_assert_eq(h.total, 4);
    cr_assert_eq(h.skipped, 36);
    json_t *mrc = report_json_mrc(&h, 128, 4, 0.25);
    /* Capacities 1, 2, 4 (configured), 8, 16. */
    cr_assert_eq(json_array_size(mrc), 5);
    for (size_t i = 0; i < 2; i++) {
        json_t *p = json_array_get(mrc, i);
        cr_assert(json_is_null(json_object_get(p, "miss_ratio")), "capacity %zu unresolved", i);
        cr_assert(json_is_false(json_object_get(p, "resolved")));
    }
    json_t *c4 = json_array_get(mrc, 2), *c16 = json_array_get(mrc, 4);
    cr_assert(json_is_true(json_object_get(c4, "resolved")));
    cr_assert(json_is_false(json_object_get(c4, "exact")), "an estimate is never exact");
    cr_assert_float_eq(json_real_value(json_object_get(c4, "miss_ratio")), 3.0 / 10, 1e-12);
    cr_assert_float_eq(json_real_value(json_object_get(c16, "miss_ratio")), 2.0 / 10, 1e-12);
    json_decref(mrc);
    reuse_hist_clear(&h);
}
