/* analyzer/sweep.c: see sweep.h. */
#include "analyzer/sweep.h"

#include <stdlib.h>

#include "formats/trace.h"

uint32_t sweep_default_n_max(const gpu_config *c)
{
    uint32_t schedulers = c->schedulers_per_sm ? c->schedulers_per_sm : 1;
    uint32_t n = c->max_warps_per_sm / schedulers;
    return n ? n : 1;
}

static double ratio(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : -1.0; }

double sweep_hit_rate(const sweep_point *p) { return ratio(p->counts.l1.hits, p->counts.l1.accesses); }
double sweep_polluting_hit_rate(const sweep_point *p)
{
    return ratio(p->counts.polluting_hits, p->counts.polluting_accesses);
}
double sweep_non_polluting_hit_rate(const sweep_point *p)
{
    return ratio(p->counts.non_polluting_hits, p->counts.non_polluting_accesses);
}
double sweep_intra_warp_hit_rate(const sweep_point *p)
{
    return ratio(p->counts.intra_warp_hits, p->counts.l1.accesses);
}
uint64_t sweep_l2_bytes(const sweep_point *p)
{
    return p->counts.traffic.l1_to_l2_read_bytes + p->counts.traffic.l1_to_l2_write_bytes;
}
double sweep_memory_latency(const sweep_point *p)
{
    return ratio(p->counts.load_miss_latency, p->counts.l1.misses);
}
double sweep_fewer_cycles(const sweep_point *p) { return -(double)p->cycles; }


const sweep_point *sweep_at(const sweep_result *r, uint32_t n, uint32_t p)
{
    if (n < 1 || n > r->n_max || p < 1 || p > n)
        return NULL;
    return &r->points[(size_t)(n - 1) * n / 2 + (p - 1)];
}

void sweep_result_free(sweep_result *r)
{
    free(r->points);
    r->points = NULL;
}

int sweep_run(const sched_source *source, const gpu_config *config, const replay_options *ro,
              const hierarchy_options *base, uint32_t n_max, progress *bar, sweep_result *out,
              ws_error *err)
{
    *out = (sweep_result){.n_max = n_max, .count = n_max * (n_max + 1) / 2};
    if (n_max == 0 || n_max > 128)
        return ws_fail(err, "sweep: N runs from 1 to 128, not %u", n_max);
    uint32_t total = out->count + 2; /* the grid, then the two timed corners */
    hierarchy_options *o = calloc(total, sizeof *o);
    hierarchy **hs = calloc(total, sizeof *hs);
    out->points = calloc(out->count, sizeof *out->points);
    int rc = -1;
    if (!o || !hs || !out->points) {
        ws_fail(err, "out of memory");
        goto done;
    }
    for (uint32_t n = 1, i = 0; n <= n_max; n++)
        for (uint32_t p = 1; p <= n; p++, i++) {
            o[i] = *base;
            o[i].warp_order = (warp_order_spec){&warp_order_tuple, n, n};
            o[i].allocate_p = p;
            o[i].collect = COLLECT_NONE; /* hit rates and traffic only */
            out->points[i] = (sweep_point){.n = n, .p = p};
        }
    for (uint32_t k = 0; k < 2; k++) { /* (n_max, n_max) and (1, 1), timed */
        uint32_t n = k == 0 ? n_max : 1;
        hierarchy_options *t = &o[out->count + k];
        *t = *base;
        t->warp_order = (warp_order_spec){&warp_order_tuple, n, n};
        t->allocate_p = n;
        t->collect = COLLECT_NONE;
        t->timed = 1;
    }
    /* The grid in one functional pass, the two corners in the timed
     * replay (docs/metrics.md §12): a run is one or the other. */
    if (replay_run(source, config, ro, o, out->count, hs, bar, err) != 0 ||
        replay_run(source, config, ro, o + out->count, 2, hs + out->count, NULL, err) != 0)
        goto done;
    out->timed = base->timed;
    for (uint32_t i = 0; i < out->count; i++) {
        out->points[i].counts = hierarchy_results(hs[i])->total;
        out->points[i].cycles = replay_results_cycles(hierarchy_results(hs[i]));
    }
    out->timed_base = (sweep_point){.n = n_max, .p = n_max,
                                    .counts = hierarchy_results(hs[out->count])->total,
                                    .cycles = replay_results_cycles(hierarchy_results(hs[out->count]))};
    out->timed_one = (sweep_point){.n = 1, .p = 1,
                                   .counts = hierarchy_results(hs[out->count + 1])->total,
                                   .cycles = replay_results_cycles(hierarchy_results(hs[out->count + 1]))};
    /* The run's global warp-loads are the same at every point (the
     * (n_max, n_max) one counts them); its warp instructions are the
     * trace's records. */
    const replay_counts *all = &out->points[out->count - 1].counts;
    out->global_loads = all->mpli.loads;
    for (uint32_t k = 0; k < source->trace->kernel_count; k++)
        out->warp_instructions += source->trace->kernels[k].record_count;
    rc = 0;
done:
    for (uint32_t i = 0; hs && i < total; i++)
        hierarchy_free(hs[i]);
    free(hs);
    free(o);
    if (rc != 0)
        sweep_result_free(out);
    return rc;
}
