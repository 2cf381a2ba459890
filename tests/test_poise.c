/* tests/test_poise.c: Poise (S3 ch. 5): the features of Table 5.3 from two
 * grid points, the regression with Table 5.3's weights on hand-made
 * feature vectors, and the local search's gradient ascent. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "analyzer/poise.h"

Test(poise, the_regression_gives_n_and_p_by_hand)
{
    /* x = (h_o, h', η_o, η', 0, 0, 0, 1) = (0.3, 0.3, 0.5, 0.5, ...):
     * ln N = 0.517687·0.3 − 0.000261·0.3 + 7.209138·0.5 − 5.977480·0.5
     *        + 1.667111 = 2.4381678  → N = e^2.438 = 11.45 → 11;
     * ln p = 3.786126·0.3 + 0.483576·0.3 − 6.386444·0.5 + 10.320107·0.5
     *        − 2.189887 = 1.0578551 → p = 2.88 → 3. */
    const double x[POISE_FEATURES] = {0.3, 0.3, 0.5, 0.5, 0, 0, 0, 1};
    poise_prediction got = poise_predict(x, 24);
    cr_expect_float_eq(got.ln_n, 2.4381678, 1e-9);
    cr_expect_float_eq(got.ln_p, 1.0578551, 1e-9);
    cr_expect_eq(got.n, 11);
    cr_expect_eq(got.p, 3);
    cr_expect_eq(poise_predict(x, 8).n, 8, "N is capped at the grid's N_MAX");
}

Test(poise, features_follow_table_5_3_and_p_never_exceeds_n)
{
    /* η' − η_o = 0.2, I_n = 2, L'm' − m_o L_o = 300·0.4 − 0.5·200 = 20. */
    poise_inputs in = {.h_o = 0.5, .h_1 = 0.6, .eta_o = 0.2, .eta_1 = 0.4, .m_o = 0.5,
                       .m_1 = 0.4, .l_o = 200, .l_1 = 300, .i_n = 2};
    double x[POISE_FEATURES];
    poise_features(&in, x);
    const double want[POISE_FEATURES] = {0.5, 0.6, 0.2, 0.4, 0.04, 0.08, 0.004, 1};
    for (int i = 0; i < POISE_FEATURES; i++)
        cr_expect_float_eq(x[i], want[i], 1e-12, "x%d", i + 1);
    /* ln N = 0.778534292 (N = 2.18 → 2); ln p = 2.510979504 (p = 12.3),
     * capped at N. */
    poise_prediction got = poise_predict(x, 24);
    cr_expect_float_eq(got.ln_n, 0.778534292, 1e-9);
    cr_expect_float_eq(got.ln_p, 2.510979504, 1e-9);
    cr_expect_eq(got.n, 2);
    cr_expect_eq(got.p, 2);
}

/* A 12-warp grid whose L1 hit rate peaks at (6, 3): hits fall by 1000 per
 * unit of distance from it. */
static sweep_result peaked_grid(void)
{
    sweep_result g = {.n_max = 12, .count = 78};
    g.points = calloc(g.count, sizeof *g.points);
    cr_assert_not_null(g.points);
    for (uint32_t n = 1, i = 0; n <= 12; n++)
        for (uint32_t p = 1; p <= n; p++, i++) {
            uint64_t far = (uint64_t)abs((int)n - 6) + (uint64_t)abs((int)p - 3);
            g.points[i] = (sweep_point){.n = n, .p = p};
            g.points[i].counts.l1.accesses = 100000;
            g.points[i].counts.l1.hits = 90000 - 1000 * far;
        }
    return g;
}

static double hits(const sweep_point *p) { return sweep_hit_rate(p); }

Test(poise, the_local_search_climbs_to_the_peak_and_halves_its_stride)
{
    sweep_result g = peaked_grid();
    cr_assert_eq(sweep_at(&g, 6, 3)->counts.l1.hits, 90000);
    /* From (12, 1) with strides (2, 4): N 12 → 10 → 8 → 6 (moves), stride
     * halves to 1, no better neighbour, stride 0; then p 1 → 5 is worse
     * (2 from 3 either way), stride 2: 1 → 3, then strides 1 and 0. */
    poise_search_result s = poise_search(&g, 12, 1, 2, 4, hits);
    cr_expect_eq(s.n, 6);
    cr_expect_eq(s.p, 3);
    cr_expect_eq(s.moves, 4);
    /* Already at the peak: no move, only samples. */
    s = poise_search(&g, 6, 3, 2, 4, hits);
    cr_expect_eq(s.moves, 0);
    cr_expect_eq(s.n, 6);
    cr_expect_eq(s.p, 3);
    /* Stride 0: the prediction stands. */
    s = poise_search(&g, 9, 2, 0, 0, hits);
    cr_expect_eq(s.n, 9);
    cr_expect_eq(s.p, 2);
    cr_expect_eq(s.samples, 0);
    sweep_result_free(&g);
}
