/* analyzer/poise.h: Poise's prediction of a warp tuple (S3 §5.5-5.6,
 * docs/metrics.md §9).
 *
 * The features x1..x8 of S3 Table 5.3, from two points of the (N, p) grid
 * (S3: the variables that depend on N and p at (1, 1), the rest at the
 * baseline (N_MAX, N_MAX)):
 *   x1 = h_o        L1 hit rate at the baseline
 *   x2 = h'         L1 hit rate at (1, 1)
 *   x3 = η_o        intra-warp hit rate (intra-warp hits ÷ L1 accesses), baseline
 *   x4 = η'         the same at (1, 1)
 *   x5 = (η' − η_o)²
 *   x6 = I_n (η' − η_o)²        I_n: instructions per global load
 *   x7 = (L' m' − m_o L_o)² / 10^5   L: average memory latency, m: L1 miss rate
 *   x8 = 1
 * and Negative Binomial regression's log link, ln N = Σ α_i x_i and
 * ln p = Σ β_i x_i with the weights of Table 5.3.  The local search then
 * corrects N, then p, by gradient ascent at halving strides (S3 §5.6.2). */
#ifndef WS_POISE_H
#define WS_POISE_H

#include <stdint.h>

#include "analyzer/sweep.h"

#define POISE_FEATURES 8

extern const double poise_alpha[POISE_FEATURES], poise_beta[POISE_FEATURES];

typedef struct poise_inputs {
    double h_o, h_1;     /* L1 hit rates: baseline, (1, 1) */
    double eta_o, eta_1; /* intra-warp hit rates */
    double m_o, m_1;     /* L1 miss rates */
    double l_o, l_1;     /* average memory latencies, cycles */
    double i_n;          /* instructions per global load */
} poise_inputs;

/* The inputs from the grid's (n_max, n_max) and (1, 1) points and I_n. */
poise_inputs poise_inputs_from(const sweep_result *grid, double i_n);
void poise_features(const poise_inputs *in, double x[POISE_FEATURES]);

typedef struct poise_prediction {
    double ln_n, ln_p; /* Σ α x, Σ β x */
    uint32_t n, p;     /* e^ each, rounded, 1 <= p <= N <= n_max */
} poise_prediction;

poise_prediction poise_predict(const double x[POISE_FEATURES], uint32_t n_max);

/* What the search climbs: higher is better. */
typedef double (*poise_objective)(const sweep_point *p);

typedef struct poise_search_result {
    uint32_t n, p;
    uint32_t moves;   /* steps to a better neighbour */
    uint32_t samples; /* points looked at */
} poise_search_result;

/* From (n, p): N with initial stride stride_n (p kept, capped at N), then
 * p with stride_p; a stride halves when neither neighbour is better, and
 * the search ends at stride 0 (S3 §5.6.2). */
poise_search_result poise_search(const sweep_result *grid, uint32_t n, uint32_t p,
                                 uint32_t stride_n, uint32_t stride_p, poise_objective better);

#endif
