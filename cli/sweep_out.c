/* cli/sweep_out.c: see sweep_out.h. */
#include "cli/sweep_out.h"

#include <math.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/csv_out.h"
#include "reports/html_sweep.h"
#include "reports/json_out.h"
#include "util/outfile.h"
#include "util/version.h"
#include "reports/term.h"

/* S3 §5.7: search strides (ε_N, ε_p) = (2, 4) gave the best speedups. */
enum { DEFAULT_STRIDE_N = 2, DEFAULT_STRIDE_P = 4 };

static double hit_rate(const sweep_point *p) { return sweep_hit_rate(p); }
static double less_traffic(const sweep_point *p) { return -(double)sweep_l2_bytes(p); }

/* The grid's best point by an objective (ties: the larger N, then p: the
 * most parallelism for the same figure). */
static const sweep_point *best(const sweep_result *g, poise_objective f)
{
    const sweep_point *b = &g->points[0];
    for (uint32_t i = 1; i < g->count; i++)
        if (f(&g->points[i]) >= f(b))
            b = &g->points[i];
    return b;
}

sweep_summary sweep_summarize(const sweep_result *g, const replay_args *a)
{
    sweep_summary v = {.best_hits = best(g, hit_rate), .best_traffic = best(g, less_traffic),
                       .stride_n = a->strides_set ? a->stride_n : DEFAULT_STRIDE_N,
                       .stride_p = a->strides_set ? a->stride_p : DEFAULT_STRIDE_P};
    double i_n = g->global_loads ? (double)g->warp_instructions / (double)g->global_loads : 1;
    v.in = poise_inputs_from(g, i_n);
    poise_features(&v.in, v.x);
    v.predicted = poise_predict(v.x, g->n_max);
    v.by_hits = poise_search(g, v.predicted.n, v.predicted.p, v.stride_n, v.stride_p, hit_rate);
    v.by_traffic =
        poise_search(g, v.predicted.n, v.predicted.p, v.stride_n, v.stride_p, less_traffic);
    if (g->timed) { /* S3 §5.7 judges by IPC: the timed grid can too */
        v.best_cycles = best(g, sweep_fewer_cycles);
        v.by_cycles = poise_search(g, v.predicted.n, v.predicted.p, v.stride_n, v.stride_p,
                                   sweep_fewer_cycles);
    }
    return v;
}

static json_t *rate(double v) { return v < 0 ? json_null() : json_real(v); }

static json_t *point_json(const sweep_point *p)
{
    json_t *o = json_object();
    json_object_set_new(o, "n", json_integer(p->n));
    json_object_set_new(o, "p", json_integer(p->p));
    json_object_set_new(o, "l1_requests", report_json_u64(p->counts.l1.accesses));
    json_object_set_new(o, "l1_hits", report_json_u64(p->counts.l1.hits));
    json_object_set_new(o, "l1_hit_rate", rate(sweep_hit_rate(p)));
    json_object_set_new(o, "polluting_hit_rate", rate(sweep_polluting_hit_rate(p)));
    json_object_set_new(o, "non_polluting_hit_rate", rate(sweep_non_polluting_hit_rate(p)));
    json_object_set_new(o, "intra_warp_hits", report_json_u64(p->counts.intra_warp_hits));
    json_object_set_new(o, "intra_warp_hit_rate", rate(sweep_intra_warp_hit_rate(p)));
    json_object_set_new(o, "l1_to_l2_requests", report_json_u64(p->counts.traffic.l1_to_l2_requests));
    json_object_set_new(o, "l1_to_l2_bytes", report_json_u64(sweep_l2_bytes(p)));
    json_object_set_new(o, "dram_read_bytes", report_json_u64(p->counts.traffic.dram_read_bytes));
    json_object_set_new(o, "memory_latency", rate(sweep_memory_latency(p)));
    if (p->cycles) /* a timed grid's point (docs/metrics.md §12) */
        json_object_set_new(o, "cycles", report_json_u64(p->cycles));
    return o;
}

/* A point of the grid, named by (n, p), with its figures. */
static json_t *at_json(const sweep_result *g, uint32_t n, uint32_t p)
{
    return point_json(sweep_at(g, n, p));
}

static json_t *search_json(const sweep_result *g, const poise_search_result *s)
{
    json_t *o = at_json(g, s->n, s->p);
    json_object_set_new(o, "moves", json_integer(s->moves));
    json_object_set_new(o, "samples", json_integer(s->samples));
    return o;
}

static json_t *poise_json(const sweep_result *g, const sweep_summary *v, const replay_args *a)
{
    static const char *const names[POISE_FEATURES] = {
        "x1_h_o", "x2_h_1", "x3_eta_o", "x4_eta_1", "x5_eta_gain_sq", "x6_in_eta_gain_sq",
        "x7_latency_term", "x8_intercept"};
    json_t *features = json_object();
    for (int i = 0; i < POISE_FEATURES; i++)
        json_object_set_new(features, names[i], json_real(v->x[i]));
    json_t *inputs = json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "h_o", v->in.h_o, "h_1",
                               v->in.h_1, "eta_o", v->in.eta_o, "eta_1", v->in.eta_1, "m_o",
                               v->in.m_o, "m_1", v->in.m_1, "l_o", v->in.l_o, "l_1", v->in.l_1,
                               "i_n", v->in.i_n);
    json_t *o = json_object();
    json_object_set_new(o, "measured_at", json_pack("{s:[i,i],s:[i,i]}", "baseline", g->n_max,
                                                    g->n_max, "throttled", 1, 1));
    /* x7's miss rates and latencies: the corners in the timed replay
     * (docs/metrics.md §12), whatever the grid's model. */
    json_object_set_new(o, "latency_model", json_string("timed"));
    json_object_set_new(o, "grid_model", json_string(a->hierarchy.timed ? "timed" : "functional"));
    json_object_set_new(o, "inputs", inputs);
    json_object_set_new(o, "features", features);
    json_t *pred = at_json(g, v->predicted.n, v->predicted.p);
    json_object_set_new(pred, "ln_n", json_real(v->predicted.ln_n));
    json_object_set_new(pred, "ln_p", json_real(v->predicted.ln_p));
    json_object_set_new(o, "predicted", pred);
    json_object_set_new(o, "strides", json_pack("{s:i,s:i}", "n", v->stride_n, "p", v->stride_p));
    json_object_set_new(o, "searched", json_pack("{s:o,s:o}", "hit_rate",
                                                 search_json(g, &v->by_hits), "traffic",
                                                 search_json(g, &v->by_traffic)));
    if (g->timed)
        json_object_set_new(json_object_get(o, "searched"), "cycles",
                            search_json(g, &v->by_cycles));
    return o;
}

static json_t *sweep_json(const sweep_result *g, const sweep_summary *v, const replay_args *a)
{
    json_t *points = json_array();
    for (uint32_t i = 0; i < g->count; i++)
        json_array_append_new(points, point_json(&g->points[i]));
    json_t *doc = json_object();
    replay_args_document(doc, a, "warpscope-sweep");
    /* The warp order is each point's tuple: the schedule names the CTA
     * dispatch and "tuple". */
    sched_options run = a->replay.schedule;
    run.warp = &warp_order_tuple;
    run.warp_n = run.warp_p = g->n_max;
    char schedule[32];
    sched_options_format(&run, schedule, sizeof schedule);
    char *comma = strchr(schedule, ',');
    if (comma)
        snprintf(comma, sizeof schedule - (size_t)(comma - schedule), ",tuple:N,p");
    json_object_set_new(doc, "schedule", json_string(schedule));
    json_object_set_new(doc, "n_max", json_integer(g->n_max));
    json_object_set_new(doc, "warp_instructions", report_json_u64(g->warp_instructions));
    json_object_set_new(doc, "global_loads", report_json_u64(g->global_loads));
    json_object_set_new(doc, "baseline", at_json(g, g->n_max, g->n_max));
    json_object_set_new(doc, "best", json_pack("{s:o,s:o}", "hit_rate", point_json(v->best_hits),
                                               "traffic", point_json(v->best_traffic)));
    if (v->best_cycles)
        json_object_set_new(json_object_get(doc, "best"), "cycles", point_json(v->best_cycles));
    json_object_set_new(doc, "poise", poise_json(g, v, a));
    json_object_set_new(doc, "points", points);
    return doc;
}

/* An undefined figure (-1) is an empty CSV field. */
static double undefined_empty(double v) { return v < 0 ? NAN : v; }

static int write_csv(const sweep_result *g, const char *dir)
{
    ws_error err;
    if (ws_make_dir(dir, &err) != 0)
        return cli_fail(NULL, &err);
    char path[4096];
    snprintf(path, sizeof path, "%s/sweep.csv", dir);
    static const char *const header[] = {
        "n", "p", "l1_requests", "l1_hits", "l1_hit_rate", "polluting_hit_rate",
        "non_polluting_hit_rate", "intra_warp_hits", "intra_warp_hit_rate", "l1_to_l2_requests",
        "l1_to_l2_bytes", "dram_read_bytes", "memory_latency_cycles"};
    csv_table *t = csv_table_open(path, header, sizeof header / sizeof header[0], &err);
    if (!t)
        return cli_fail(NULL, &err);
    for (uint32_t i = 0; i < g->count; i++) {
        const sweep_point *p = &g->points[i];
        csv_row_u64(t, p->n);
        csv_row_u64(t, p->p);
        csv_row_u64(t, p->counts.l1.accesses);
        csv_row_u64(t, p->counts.l1.hits);
        const double rates[] = {sweep_hit_rate(p), sweep_polluting_hit_rate(p),
                                sweep_non_polluting_hit_rate(p)};
        for (int k = 0; k < 3; k++)
            csv_row_double(t, undefined_empty(rates[k]));
        csv_row_u64(t, p->counts.intra_warp_hits);
        csv_row_double(t, undefined_empty(sweep_intra_warp_hit_rate(p)));
        csv_row_u64(t, p->counts.traffic.l1_to_l2_requests);
        csv_row_u64(t, sweep_l2_bytes(p));
        csv_row_u64(t, p->counts.traffic.dram_read_bytes);
        csv_row_double(t, undefined_empty(sweep_memory_latency(p)));
        csv_row_end(t);
    }
    return csv_table_commit(t, &err) == 0 ? 0 : cli_fail(NULL, &err);
}

int sweep_write(const sweep_result *grid, const sweep_summary *s, const replay_args *a)
{
    ws_error err;
    int status = 0;
    json_t *doc = a->json || a->html ? sweep_json(grid, s, a) : NULL;
    if (a->json && report_json_write(a->json, doc, &err) != 0)
        status = cli_fail(a->json, &err);
    if (status == 0 && a->html && html_sweep_write(doc, a->html, &err) != 0)
        status = cli_fail(a->html, &err);
    json_decref(doc);
    if (status == 0 && a->csv)
        status = write_csv(grid, a->csv);
    return status;
}

static void point_row(term_table *t, const char *what, const sweep_point *p,
                      const sweep_point *base)
{
    double l2 = (double)sweep_l2_bytes(p), l2_base = (double)sweep_l2_bytes(base);
    term_table_cell(t, "%s", what);
    term_table_cell(t, "(%2u, %2u)", p->n, p->p);
    term_table_cell(t, "%.1f%%", 100 * fmax(sweep_hit_rate(p), 0));
    term_table_cell(t, "%.1f%%", 100 * fmax(sweep_polluting_hit_rate(p), 0));
    term_table_cell(t, "%.3fx", l2_base > 0 ? l2 / l2_base : 0);
}

void sweep_print(FILE *out, const sweep_result *g, const sweep_summary *s)
{
    const sweep_summary v = *s;
    const sweep_point *base = sweep_at(g, g->n_max, g->n_max);
    fprintf(out, "sweep: %u warp tuples (N, p), N up to %u, from one decode\n", g->count, g->n_max);
    term_table *t = term_table_new(2);
    term_table_column(t, "point", TERM_LEFT, 0);
    term_table_column(t, "(N, p)", TERM_LEFT, 0);
    term_table_column(t, "L1 hit", TERM_RIGHT, 3);
    term_table_column(t, "polluting", TERM_RIGHT, 1);
    term_table_column(t, "L1->L2", TERM_RIGHT, 2);
    point_row(t, "baseline (all warps)", base, base);
    point_row(t, "best by L1 hit rate", v.best_hits, base);
    point_row(t, "best by L1->L2 traffic", v.best_traffic, base);
    point_row(t, "Poise predicted", sweep_at(g, v.predicted.n, v.predicted.p), base);
    point_row(t, "Poise searched (hit rate)", sweep_at(g, v.by_hits.n, v.by_hits.p), base);
    point_row(t, "Poise searched (traffic)", sweep_at(g, v.by_traffic.n, v.by_traffic.p), base);
    term_table_print(t, out, term_width(out));
    term_table_free(t);
    if (v.best_cycles) { /* timed: S3's own objective, cycles (IPC) */
        const sweep_point *c = sweep_at(g, v.by_cycles.n, v.by_cycles.p);
        term_printf(out, 4, "  best by cycles (timed): (%u, %u), speedup %.3fx over the baseline; "
                            "Poise searched (cycles): (%u, %u), speedup %.3fx",
                    v.best_cycles->n, v.best_cycles->p,
                    v.best_cycles->cycles ? (double)base->cycles / (double)v.best_cycles->cycles : 0,
                    c->n, c->p, c->cycles ? (double)base->cycles / (double)c->cycles : 0);
    }
    term_printf(out, 2,
                "  polluting: the hit rate of the p warps that allocate in L1; L1->L2: "
                "bytes relative to the baseline");
    term_printf(out, 2,
                "  Poise's latency feature comes from the timed replay (L_o %.0f, L' %.0f "
                "cycles); I_n = %.2f warp instructions per global load (the timed replay's, "
                "gaps included)",
                v.in.l_o, v.in.l_1, v.in.i_n);
}
