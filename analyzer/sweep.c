/* analyzer/sweep.c: see sweep.h. */
#include "analyzer/sweep.h"

#include <stdlib.h>

#include "analyzer/l2_touch.h"
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

/* Balances the grid's points over ranks by whole N (one issue stream each,
 * N points on it): the largest N first, each to the least loaded rank. */
static uint32_t n_owner(uint32_t n_max, uint32_t n, uint32_t ranks)
{
    uint64_t load[SWEEP_MAX_RANKS] = {0};
    uint32_t owner = 0;
    for (uint32_t m = n_max; m >= n; m--) {
        owner = 0;
        for (uint32_t r = 1; r < ranks; r++)
            if (load[r] < load[owner])
                owner = r;
        load[owner] += m;
    }
    return owner;
}

uint32_t sweep_owner(uint32_t n_max, uint32_t index, uint32_t ranks)
{
    if (ranks <= 1)
        return 0;
    if (ranks > SWEEP_MAX_RANKS)
        ranks = SWEEP_MAX_RANKS;
    uint32_t count = n_max * (n_max + 1) / 2;
    if (index >= count) /* the timed corners: the last ranks, which the greedy loads least */
        return (ranks - 1 - (index - count) % ranks);
    uint32_t n = 1;
    while (index >= n)
        index -= n, n++;
    return n_owner(n_max, n, ranks);
}

/* Whether the grid's hierarchies (like g) may share their streams' L2
 * (analyzer/l2_touch.h): 1 or 0, -1 with err set.  An L2 that holds the
 * trace's footprint spares each point its own L2 slices, the same figures
 * (a third of gemm medium's sweep: bench/RESULTS.md, "Replay"). */
static int grid_l2_by_touch(const sched_source *source, const replay_options *ro,
                            const hierarchy_options *g, ws_error *err)
{
    hierarchy_options resolved = *g;
    if (hierarchy_resolve_policies(&resolved, err) != 0)
        return -1;
    if (!hierarchy_l2_by_touch_exact(&resolved))
        return 0;
    return l2_touch_fits(source, &resolved.config, ro->half_warp, err);
}

int sweep_run_share(const sched_source *source, const gpu_config *config, const replay_options *ro,
                    const hierarchy_options *base, uint32_t n_max, uint32_t rank, uint32_t ranks,
                    progress *bar, sweep_result *out, ws_error *err)
{
    *out = (sweep_result){.n_max = n_max, .count = n_max * (n_max + 1) / 2};
    if (n_max == 0 || n_max > 128)
        return ws_fail(err, "sweep: N runs from 1 to 128, not %u", n_max);
    uint32_t total = out->count + 2; /* the grid, then the two timed corners */
    hierarchy_options *o = calloc(total, sizeof *o);
    hierarchy **hs = calloc(total, sizeof *hs);
    uint32_t *mine = calloc(total, sizeof *mine); /* the indices this rank replays */
    out->points = calloc(out->count, sizeof *out->points);
    int rc = -1;
    if (!o || !hs || !mine || !out->points) {
        ws_fail(err, "out of memory");
        goto done;
    }
    out->timed_base = (sweep_point){.n = n_max, .p = n_max};
    out->timed_one = (sweep_point){.n = 1, .p = 1};
    uint32_t grid_mine = 0, corners_mine = 0;
    for (uint32_t n = 1, i = 0; n <= n_max; n++)
        for (uint32_t p = 1; p <= n; p++, i++) {
            out->points[i] = (sweep_point){.n = n, .p = p};
            if (sweep_owner(n_max, i, ranks) != rank)
                continue;
            hierarchy_options *g = &o[grid_mine];
            *g = *base;
            g->warp_order = (warp_order_spec){&warp_order_tuple, n, n};
            g->allocate_p = p;
            g->collect = COLLECT_GRID; /* the point's reported figures only */
            mine[grid_mine++] = i;
        }
    for (uint32_t k = 0; k < 2; k++) { /* (n_max, n_max) and (1, 1), timed */
        if (sweep_owner(n_max, out->count + k, ranks) != rank)
            continue;
        uint32_t n = k == 0 ? n_max : 1;
        hierarchy_options *t = &o[grid_mine + corners_mine];
        *t = *base;
        t->warp_order = (warp_order_spec){&warp_order_tuple, n, n};
        t->allocate_p = n;
        t->collect = COLLECT_NONE;
        t->timed = 1;
        mine[grid_mine + corners_mine++] = out->count + k;
    }
    /* The grid in one functional pass, the two corners in the timed
     * replay (docs/metrics.md §12): a run is one or the other. */
    replay_options grid_ro = *ro;
    int by_touch = grid_mine ? grid_l2_by_touch(source, ro, &o[0], err) : 0;
    if (by_touch < 0)
        goto done;
    grid_ro.l2_by_touch = out->l2_by_touch = by_touch;
    if ((grid_mine && replay_run(source, config, &grid_ro, o, grid_mine, hs, bar, err) != 0) ||
        (corners_mine && replay_run(source, config, ro, o + grid_mine, corners_mine, hs + grid_mine,
                                    NULL, err) != 0))
        goto done;
    out->timed = base->timed;
    for (uint32_t j = 0; j < grid_mine + corners_mine; j++) {
        const replay_results *res = hierarchy_results(hs[j]);
        sweep_point *at = mine[j] < out->count    ? &out->points[mine[j]]
                          : mine[j] == out->count ? &out->timed_base
                                                  : &out->timed_one;
        at->counts = res->total;
        at->cycles = replay_results_cycles(res);
        at->instructions = res->timed ? res->timed_total.instructions : 0;
    }
    rc = 0;
done:
    for (uint32_t i = 0; hs && i < total; i++)
        hierarchy_free(hs[i]);
    free(hs);
    free(o);
    free(mine);
    if (rc != 0)
        sweep_result_free(out);
    return rc;
}

void sweep_result_complete(sweep_result *r, const wst_trace *t)
{
    /* The run's global warp-loads are the same at every point (the
     * (n_max, n_max) one counts them).  Its warp instructions are the
     * model's: the timed corner issues the records and the gaps of
     * non-memory instructions between them (docs/metrics.md §12), which is
     * what S3's I_n counts; a trace without gaps gives its records. */
    const replay_counts *all = &r->points[r->count - 1].counts;
    r->global_loads = all->mpli.loads;
    r->warp_instructions = r->timed_base.instructions;
    if (r->warp_instructions == 0)
        for (uint32_t k = 0; k < t->kernel_count; k++)
            r->warp_instructions += t->kernels[k].record_count;
}

int sweep_run(const sched_source *source, const gpu_config *config, const replay_options *ro,
              const hierarchy_options *base, uint32_t n_max, progress *bar, sweep_result *out,
              ws_error *err)
{
    if (sweep_run_share(source, config, ro, base, n_max, 0, 1, bar, out, err) != 0)
        return -1;
    sweep_result_complete(out, source->trace);
    return 0;
}
