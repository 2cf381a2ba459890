/* reports/json_metrics.c: see json_metrics.h. */
#include "reports/json_metrics.h"

#include <math.h>

#include "reports/json_bounds.h"
#include "reports/json_out.h"

json_t *report_json_hist(const reuse_pair *pair, int with_exact, double rate)
{
    const reuse_hist *d = &pair->distance;
    json_t *o = json_object();
    json_object_set_new(o, "requests", report_json_u64(d->total));
    if (rate < 1.0)
        json_object_set_new(o, "unsampled", report_json_u64(d->skipped));
    json_object_set_new(o, "cold", report_json_u64(d->cold));
    if (with_exact)
        json_object_set_new(o, "exact", report_json_u64_sparse(d->exact, d->exact_limit));
    /* Sparse, and the buckets' bounds once per report ("reuse_buckets"):
     * dense with their bounds, a PC's histograms took 6 KB of JSON. */
    json_object_set_new(o, "log2", report_json_u64_sparse(d->log2, REUSE_HIST_BUCKETS));
    json_object_set_new(o, "reuse_time_log2",
                        report_json_u64_sparse(pair->time.log2, REUSE_HIST_BUCKETS));
    return o;
}

static json_t *mrc_point(const reuse_hist *hist, uint32_t line_bytes, uint64_t lines, double rate)
{
    json_t *p = json_object();
    json_object_set_new(p, "lines", report_json_u64(lines));
    json_object_set_new(p, "bytes", report_json_u64(lines * line_bytes));
    double ratio = reuse_hist_miss_ratio(hist, lines, rate);
    json_object_set_new(p, "miss_ratio", isnan(ratio) ? json_null() : json_real(ratio));
    json_object_set_new(p, "exact", json_boolean(rate >= 1.0 && reuse_hist_exact_at(hist, lines)));
    json_object_set_new(p, "resolved", json_boolean(reuse_hist_resolves(rate, lines)));
    return p;
}

json_t *report_json_mrc(const reuse_hist *hist, uint32_t line_bytes, uint64_t capacity_lines,
                        double rate)
{
    json_t *a = json_array();
    int configured_done = 0;
    for (uint64_t lines = 1; lines <= 4 * capacity_lines; lines *= 2) {
        if (!configured_done && capacity_lines < lines) {
            json_array_append_new(a, mrc_point(hist, line_bytes, capacity_lines, rate));
            configured_done = 1;
        }
        json_array_append_new(a, mrc_point(hist, line_bytes, lines, rate));
        configured_done |= lines == capacity_lines;
    }
    return a;
}

static json_t *utilization(const metrics_counts *c, uint32_t line_bytes)
{
    json_t *u = json_object();
    json_object_set_new(u, "line", report_json_ratio((double)c->bytes_used,
                                                     (double)c->requests * line_bytes));
    json_object_set_new(u, "sector", report_json_ratio((double)c->bytes_used,
                                                       (double)c->sectors * REQUEST_SECTOR_BYTES));
    json_object_set_new(u, "instruction_hist", report_json_u64_array(c->u_hist, METRICS_U_BINS));
    report_json_add_fraction_bounds(u, "instruction_hist", METRICS_U_BINS);
    return u;
}

json_t *report_json_metrics_totals(const metrics_totals *t, uint32_t line_bytes,
                                   uint64_t l1_lines, uint64_t l2_lines, double rate)
{
    json_t *instructions = json_object();
    json_object_set_new(instructions, "loads", report_json_u64(t->loads));
    json_object_set_new(instructions, "stores", report_json_u64(t->stores));
    json_object_set_new(instructions, "atomics", report_json_u64(t->atomics));
    json_object_set_new(instructions, "counted", report_json_u64(t->counts.executions));
    json_object_set_new(instructions, "requests", report_json_u64(t->counts.requests));

    json_t *u = utilization(&t->counts, line_bytes);
    json_t *line_u = json_object();
    for (int g = 0; g < GRANULARITIES; g++)
        json_object_set_new(line_u, reuse_granularity_name((reuse_granularity)g),
                            report_json_u64_array(t->line_u_hist[g], METRICS_U_BINS));
    json_object_set_new(u, "line_hist", line_u);
    report_json_add_fraction_bounds(u, "line_hist", METRICS_U_BINS);

    json_t *reuse = json_object();
    for (int g = 0; g < GRANULARITIES; g++) {
        json_t *scopes = json_object();
        for (int s = 0; s < SCOPES; s++)
            json_object_set_new(scopes, reuse_scope_name((reuse_scope)s),
                                report_json_hist(&t->reuse[g][s], 1, rate));
        json_object_set_new(reuse, reuse_granularity_name((reuse_granularity)g), scopes);
    }
    json_t *mrc = json_object();
    json_object_set_new(mrc, "l1", report_json_mrc(&t->reuse[GRAN_LINE][SCOPE_PER_SM].distance,
                                                   line_bytes, l1_lines, rate));
    json_object_set_new(mrc, "l2", report_json_mrc(&t->reuse[GRAN_LINE][SCOPE_GLOBAL].distance,
                                                   line_bytes, l2_lines, rate));

    json_t *o = json_object();
    json_object_set_new(o, "instructions", instructions);
    json_object_set_new(o, "utilization", u);
    json_object_set_new(o, "req_hist", report_json_u64_array(t->req_hist, COALESCE_MAX_REQUESTS + 1));
    report_json_add_index_bounds(o, "req_hist", COALESCE_MAX_REQUESTS + 1);
    json_object_set_new(o, "coherent_loads", report_json_u64(t->counts.coherent));
    json_object_set_new(o, "divergent_loads", report_json_u64(t->counts.divergent));
    json_object_set_new(o, "reuse", reuse);
    json_object_set_new(o, "mrc", mrc);
    return o;
}

json_t *report_json_metrics_pc(const metrics_pc *pc, uint32_t line_bytes, double rate)
{
    json_t *reuse = json_object();
    for (int s = 0; s < SCOPES; s++) {
        reuse_pair pair;
        metrics_pc_reuse(pc, (reuse_scope)s, &pair);
        json_object_set_new(reuse, reuse_scope_name((reuse_scope)s), report_json_hist(&pair, 0, rate));
    }
    json_t *o = json_object();
    json_object_set_new(o, "executions", report_json_u64(pc->counts.executions));
    json_object_set_new(o, "requests", report_json_u64(pc->counts.requests));
    json_object_set_new(o, "utilization", utilization(&pc->counts, line_bytes));
    json_object_set_new(o, "coherent", report_json_u64(pc->counts.coherent));
    json_object_set_new(o, "divergent", report_json_u64(pc->counts.divergent));
    json_object_set_new(o, "reuse", reuse);
    return o;
}
