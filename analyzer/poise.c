/* analyzer/poise.c: see poise.h. */
#include "analyzer/poise.h"

#include <math.h>

/* S3 Table 5.3: the weights of x1..x8 for N (α) and for p (β). */
const double poise_alpha[POISE_FEATURES] = {0.517687,  -0.000261, 7.209138, -5.977480,
                                            -8.906397, 1.976725,  0.004668, 1.667111};
const double poise_beta[POISE_FEATURES] = {3.786126,  0.483576,  -6.386444, 10.320107,
                                           -6.533500, -0.900944, 0.079856,  -2.189887};

static double or_zero(double v) { return v < 0 ? 0 : v; } /* an undefined rate counts as 0 */

poise_inputs poise_inputs_from(const sweep_result *grid, double i_n)
{
    const sweep_point *base = sweep_at(grid, grid->n_max, grid->n_max), *one = sweep_at(grid, 1, 1);
    double h_o = or_zero(sweep_hit_rate(base)), h_1 = or_zero(sweep_hit_rate(one));
    /* x7 is a timing feature: its miss rates and latencies both come from
     * the two corners replayed timed (docs/metrics.md §12). */
    const sweep_point *timed_base = &grid->timed_base, *timed_one = &grid->timed_one;
    return (poise_inputs){.h_o = h_o, .h_1 = h_1,
                          .eta_o = or_zero(sweep_intra_warp_hit_rate(base)),
                          .eta_1 = or_zero(sweep_intra_warp_hit_rate(one)),
                          .m_o = 1 - or_zero(sweep_hit_rate(timed_base)),
                          .m_1 = 1 - or_zero(sweep_hit_rate(timed_one)),
                          .l_o = or_zero(sweep_memory_latency(timed_base)),
                          .l_1 = or_zero(sweep_memory_latency(timed_one)), .i_n = i_n};
}

void poise_features(const poise_inputs *in, double x[POISE_FEATURES])
{
    double d = in->eta_1 - in->eta_o, lm = in->l_1 * in->m_1 - in->m_o * in->l_o;
    x[0] = in->h_o;
    x[1] = in->h_1;
    x[2] = in->eta_o;
    x[3] = in->eta_1;
    x[4] = d * d;
    x[5] = in->i_n * d * d;
    x[6] = lm * lm / 1e5;
    x[7] = 1;
}

static uint32_t clamp_round(double v, uint32_t hi)
{
    if (!(v >= 1)) /* also NaN */
        return 1;
    double r = floor(v + 0.5);
    return r > hi ? hi : (uint32_t)r;
}

poise_prediction poise_predict(const double x[POISE_FEATURES], uint32_t n_max)
{
    poise_prediction out = {0};
    for (int i = 0; i < POISE_FEATURES; i++) {
        out.ln_n += poise_alpha[i] * x[i];
        out.ln_p += poise_beta[i] * x[i];
    }
    out.n = clamp_round(exp(out.ln_n), n_max);
    out.p = clamp_round(exp(out.ln_p), out.n);
    return out;
}

/* The objective at (n, p), p capped at n; -inf outside the grid. */
static double value(const sweep_result *g, uint32_t n, uint32_t p, poise_objective f,
                    poise_search_result *s)
{
    const sweep_point *at = sweep_at(g, n, p > n ? n : p);
    s->samples++;
    return at ? f(at) : -INFINITY;
}

/* One coordinate's gradient ascent: *x moves by stride to the better
 * neighbour, or the stride halves. */
static void climb(const sweep_result *g, uint32_t *n, uint32_t *p, int along_n, uint32_t stride,
                  poise_objective f, poise_search_result *s)
{
    uint32_t *x = along_n ? n : p;
    while (stride > 0) {
        double here = value(g, *n, *p, f, s);
        uint32_t best = *x;
        double best_value = here;
        for (int side = -1; side <= 1; side += 2) {
            int64_t to = (int64_t)*x + side * (int64_t)stride;
            if (to < 1 || to > (int64_t)(along_n ? g->n_max : *n))
                continue;
            uint32_t save = *x;
            *x = (uint32_t)to;
            double v = value(g, *n, *p, f, s);
            *x = save;
            if (v > best_value)
                best = (uint32_t)to, best_value = v;
        }
        if (best == *x) {
            stride /= 2;
        } else {
            *x = best;
            s->moves++;
        }
    }
}

poise_search_result poise_search(const sweep_result *grid, uint32_t n, uint32_t p,
                                 uint32_t stride_n, uint32_t stride_p, poise_objective better)
{
    poise_search_result s = {0};
    climb(grid, &n, &p, 1, stride_n, better, &s);
    if (p > n)
        p = n;
    climb(grid, &n, &p, 0, stride_p, better, &s);
    s.n = n;
    s.p = p;
    return s;
}
