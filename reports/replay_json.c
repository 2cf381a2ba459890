/* reports/replay_json.c: see replay_json.h. */
#include "reports/replay_json.h"

#include "reports/json_out.h"
#include "reports/timed_json.h"
#include "util/version.h"

/* Sector accounting (docs/metrics.md §7): null on an unsectored level. */
static json_t *sectors_json(const level_counts *l, int sectored)
{
    if (!sectored)
        return json_null();
    uint64_t found = l->sector_hits + l->sector_pending_hits;
    json_t *o = json_object();
    json_object_set_new(o, "requests", report_json_u64(l->sector_requests));
    json_object_set_new(o, "hits", report_json_u64(l->sector_hits));
    json_object_set_new(o, "pending_hits", report_json_u64(l->sector_pending_hits));
    json_object_set_new(o, "misses", report_json_u64(l->sector_requests - found));
    json_object_set_new(o, "hit_rate",
                        report_json_ratio((double)l->sector_hits, (double)l->sector_requests));
    json_object_set_new(o, "hit_rate_with_pending",
                        report_json_ratio((double)found, (double)l->sector_requests));
    return o;
}

static json_t *level_json(const level_counts *l, int sectored)
{
    json_t *o = json_object();
    json_object_set_new(o, "requests", report_json_u64(l->accesses));
    json_object_set_new(o, "hits", report_json_u64(l->hits));
    json_object_set_new(o, "misses", report_json_u64(l->misses));
    json_object_set_new(o, "hit_rate", report_json_ratio((double)l->hits, (double)l->accesses));
    json_object_set_new(o, "hit_rate_with_pending",
                        report_json_ratio((double)(l->hits + l->pending_hits), (double)l->accesses));
    json_object_set_new(o, "bypasses", report_json_u64(l->bypasses));
    json_object_set_new(o, "misses_not_allocated", report_json_u64(l->misses_not_allocated));
    json_object_set_new(o, "sector_misses", report_json_u64(l->sector_misses));
    json_object_set_new(o, "pending_hits", report_json_u64(l->pending_hits));
    json_object_set_new(o, "reservation_fails", report_json_u64(l->reservation_fails));
    json_object_set_new(o, "write_evicts", report_json_u64(l->write_evicts));
    json_object_set_new(o, "writes", report_json_u64(l->writes));
    json_object_set_new(o, "sectors", sectors_json(l, sectored));
    return o;
}

static json_t *traffic_json(const traffic_counts *t)
{
    json_t *o = json_object();
    json_object_set_new(o, "l1_to_l2_requests", report_json_u64(t->l1_to_l2_requests));
    json_object_set_new(o, "l1_to_l2_bytes",
                        report_json_u64(t->l1_to_l2_read_bytes + t->l1_to_l2_write_bytes));
    json_object_set_new(o, "l1_to_l2_read_bytes", report_json_u64(t->l1_to_l2_read_bytes));
    json_object_set_new(o, "l1_to_l2_write_bytes", report_json_u64(t->l1_to_l2_write_bytes));
    json_object_set_new(o, "l2_to_dram_read_bytes", report_json_u64(t->dram_read_bytes));
    json_object_set_new(o, "dram_write_bytes", report_json_u64(t->dram_write_bytes));
    return o;
}

/* S3's split of the L1 load requests by whether their warp may allocate. */
static json_t *allocation_json(const replay_counts *c)
{
    json_t *o = json_object();
    json_object_set_new(o, "polluting_requests", report_json_u64(c->polluting_accesses));
    json_object_set_new(o, "polluting_hit_rate", report_json_ratio((double)c->polluting_hits,
                                                                   (double)c->polluting_accesses));
    json_object_set_new(o, "non_polluting_requests", report_json_u64(c->non_polluting_accesses));
    json_object_set_new(o, "non_polluting_hit_rate",
                        report_json_ratio((double)c->non_polluting_hits,
                                          (double)c->non_polluting_accesses));
    return o;
}

json_t *replay_counts_json(const replay_counts *c, const replay_results *r)
{
    json_t *o = json_object();
    json_object_set_new(o, "l1_policy", json_string(r->l1_policy));
    json_object_set_new(o, "l2_policy", json_string(r->l2_policy));
    json_object_set_new(o, "l1", level_json(&c->l1, r->l1_sectored));
    json_object_set_new(o, "l2", level_json(&c->l2, r->l2_sectored));
    json_object_set_new(o, "traffic", traffic_json(&c->traffic));
    json_object_set_new(o, "mpli", report_json_mpli(&c->mpli));
    json_object_set_new(o, "miss_classes", report_json_miss_classes(&c->miss_classes));
    json_object_set_new(o, "intra_warp_hits", report_json_u64(c->intra_warp_hits));
    json_object_set_new(o, "inter_warp_hits", report_json_u64(c->inter_warp_hits));
    json_object_set_new(o, "urc", report_json_ratio((double)c->remote_held_misses,
                                                    (double)c->l1_load_misses));
    if (c->non_polluting_accesses) /* some warps could not allocate (S3 ch. 5) */
        json_object_set_new(o, "allocation", allocation_json(c));
    return o;
}

/* A policy's own figures (policy.h stats), summed over the level's caches;
 * only policies that keep any add the key. */
static void add_policy_stats(json_t *o, const char *key, const policy_stat *stats, uint32_t n)
{
    if (!n)
        return;
    json_t *figures = json_object();
    for (uint32_t i = 0; i < n; i++)
        json_object_set_new(figures, stats[i].name, report_json_u64(stats[i].value));
    json_object_set_new(o, key, figures);
}

/* S0's classification (docs/metrics.md §9): L2 fills, each private at first, and how
 * many turned shared; and S0 §VI-C's two measurements of shared lines:
 * requests served by an MSHR, and re-references long after the fill.
 * Only when L2 tracked its lines' owners. */
static json_t *l2_sharing_json(const replay_kernel *k)
{
    json_t *o = json_object();
    json_object_set_new(o, "fills", report_json_u64(k->l2_fills));
    json_object_set_new(o, "became_shared", report_json_u64(k->l2_became_shared));
    json_object_set_new(o, "shared_fraction",
                        report_json_ratio((double)k->l2_became_shared, (double)k->l2_fills));
    json_object_set_new(o, "shared_mshr_hits", report_json_u64(k->shared_mshr_hits));
    json_object_set_new(o, "shared_misses", report_json_u64(k->shared_misses));
    json_object_set_new(o, "shared_mshr_hit_share",
                        report_json_ratio((double)k->shared_mshr_hits,
                                          (double)(k->shared_mshr_hits + k->shared_misses)));
    json_object_set_new(o, "shared_rereferences", report_json_u64(k->shared_rereferences));
    json_object_set_new(o, "late_rereference_share",
                        report_json_ratio((double)k->shared_rereferences_late,
                                          (double)k->shared_rereferences));
    return o;
}

/* The CCN's counts of one scope (a kernel, an SM, the run), docs/metrics.md §9: the
 * remote hit rate is S3's h_reuse (hits ÷ requests sent round the ring);
 * the L1->L2 request reduction is the share of the L1 load misses the ring
 * kept from L2.  distance_hits (or NULL) gives the hop histogram. */
static json_t *ccn_counts_json(const ccn_counts *c, const uint64_t *distance_hits, uint32_t sms)
{
    json_t *o = json_object();
    const struct {
        const char *key;
        uint64_t value;
    } counts[] = {{"l1_load_misses", c->misses}, {"candidates", c->candidates},
                  {"requests", c->requests},     {"remote_hits", c->remote_hits},
                  {"throttled", c->throttled},   {"hit_hops", c->hit_hops},
                  {"probe_hops", c->probe_hops}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        json_object_set_new(o, counts[i].key, report_json_u64(counts[i].value));
    const struct {
        const char *key;
        uint64_t num, den;
    } ratios[] = {{"remote_hit_rate", c->remote_hits, c->requests},
                  {"l1_to_l2_request_reduction", c->remote_hits, c->misses},
                  {"mean_hit_hops", c->hit_hops, c->remote_hits}};
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++)
        json_object_set_new(o, ratios[i].key,
                            report_json_ratio((double)ratios[i].num, (double)ratios[i].den));
    json_object_set_new(o, "throttler",
                        json_pack("{s:o,s:o}", "epochs", report_json_u64(c->epochs),
                                  "ring_off_epochs", report_json_u64(c->ring_off_epochs)));
    if (distance_hits) {
        json_t *hops = json_array();
        for (uint32_t d = 1; d < sms; d++)
            json_array_append_new(hops, json_pack("{s:i,s:o}", "hops", (int)(2 * d), "remote_hits",
                                                  report_json_u64(distance_hits[d])));
        json_object_set_new(o, "hop_histogram", hops);
    }
    return o;
}

static json_t *ccn_run_json(const ccn_results *c)
{
    json_t *o = ccn_counts_json(&c->total, c->distance_hits + (size_t)c->kernel_count * c->sms,
                                c->sms);
    const ccn_options *opt = &c->options;
    json_object_set_new(o, "options",
                        json_pack("{s:b,s:b,s:o,s:o,s:f,s:i}", "throttle", opt->throttle,
                                  "promote", opt->promote, "sample_steps",
                                  report_json_u64(opt->sample_steps), "epoch_steps",
                                  report_json_u64(opt->epoch_steps), "min_hit_rate",
                                  opt->min_hit_rate, "hop_cycles", (int)opt->hop_cycles));
    json_t *per_sm = json_array();
    for (uint32_t s = 0; s < c->sms; s++) {
        json_t *sm = ccn_counts_json(&c->per_sm[s], NULL, c->sms);
        const ccn_timeline *t = &c->timelines[s];
        json_t *decided = json_array(), *off = json_array();
        for (uint32_t b = 0; b < t->buckets; b++) {
            json_array_append_new(decided, json_integer(t->decided[b]));
            json_array_append_new(off, json_integer(t->ring_off[b]));
        }
        json_object_set_new(json_object_get(sm, "throttler"), "timeline",
                            json_pack("{s:i,s:o,s:o}", "epochs_per_bucket",
                                      (json_int_t)(t->width ? t->width : 1), "decided", decided,
                                      "ring_off", off));
        json_array_append_new(per_sm, sm);
    }
    json_object_set_new(o, "per_sm", per_sm);
    return o;
}

/* LCM's counts of one scope (a kernel, the run), docs/metrics.md §9: what its monitor
 * decided, how often S2's single monitored warp would have acted alike,
 * and what the coalescer merged (each merged request is an L1 access
 * saved). */
static json_t *lcm_counts_json(const lcm_counts *c)
{
    json_t *o = json_object();
    const struct {
        const char *key;
        uint64_t value;
    } counts[] = {{"loads", c->loads},
                  {"bypassed_loads", c->bypassed_loads},
                  {"bypassed_requests", c->bypassed_requests},
                  {"monitored_warp_kept", c->monitored_kept},
                  {"observations", c->observations},
                  {"monitored_observations", c->monitored_observations},
                  {"turned_streaming", c->turned_streaming},
                  {"turned_back", c->turned_back}};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        json_object_set_new(o, counts[i].key, report_json_u64(counts[i].value));
    json_object_set_new(o, "monitor_agreement",
                        report_json_ratio((double)c->agreed, (double)c->loads));
    json_object_set_new(
        o, "coalescer",
        json_pack("{s:o,s:o,s:o,s:{s:o,s:o,s:o}}", "requests",
                  report_json_u64(c->coalescer_requests), "merged_requests",
                  report_json_u64(c->merged_requests), "l1_requests_saved",
                  report_json_u64(c->merged_requests), "flushes", "conflict",
                  report_json_u64(c->flushes_conflict), "window",
                  report_json_u64(c->flushes_window), "kernel_end",
                  report_json_u64(c->flushes_kernel_end)));
    return o;
}

static json_t *lcm_run_json(const lcm_results *l)
{
    json_t *o = lcm_counts_json(&l->total);
    const lcm_options *opt = &l->options;
    json_object_set_new(o, "options",
                        json_pack("{s:b,s:b,s:s,s:i,s:i}", "bypass", opt->bypass, "coalesce",
                                  opt->coalesce, "monitor", lcm_monitor_name(opt->monitor),
                                  "threshold", (int)opt->threshold, "window", (int)opt->window));
    return o;
}

static json_t *lcm_pc_json(const lcm_pc *pc)
{
    json_t *generations = json_object();
    for (int c = 0; c < LOCALITY_CLASSES; c++)
        json_object_set_new(generations, locality_class_name((locality_class)c),
                            report_json_u64(pc->generations[c]));
    return json_pack("{s:o,s:o,s:o,s:o}", "loads", report_json_u64(pc->loads), "bypassed_loads",
                     report_json_u64(pc->bypassed_loads), "merged_requests",
                     report_json_u64(pc->merged_requests), "observations", generations);
}

json_t *replay_totals_json(const replay_results *r)
{
    json_t *o = replay_counts_json(&r->total, r);
    if (r->sharing_tracked) {
        replay_kernel sum = {0};
        for (uint32_t k = 0; k < r->kernel_count; k++) {
            const replay_kernel *rk = &r->kernels[k];
            sum.l2_fills += rk->l2_fills;
            sum.l2_became_shared += rk->l2_became_shared;
            sum.shared_mshr_hits += rk->shared_mshr_hits;
            sum.shared_misses += rk->shared_misses;
            sum.shared_rereferences += rk->shared_rereferences;
            sum.shared_rereferences_late += rk->shared_rereferences_late;
        }
        json_object_set_new(o, "l2_sharing", l2_sharing_json(&sum));
    }
    if (r->ccn)
        json_object_set_new(o, "ccn", ccn_run_json(r->ccn));
    if (r->lcm)
        json_object_set_new(o, "lcm", lcm_run_json(r->lcm));
    add_policy_stats(o, "l1_policy_figures", r->l1_policy_stats, r->l1_policy_stat_count);
    add_policy_stats(o, "l2_policy_figures", r->l2_policy_stats, r->l2_policy_stat_count);
    return o;
}

json_t *replay_summary_json(const replay_results *r)
{
    json_t *o = replay_totals_json(r);
    json_t *per_sm = json_array(), *holders = json_array();
    for (uint32_t s = 0; s < r->sms; s++) {
        json_array_append_new(per_sm, json_pack("{s:o,s:o}", "hits", report_json_u64(r->sm_hits[s]),
                                                "misses", report_json_u64(r->sm_misses[s])));
        /* Cell (x, y): the share of SM x's μRC candidates (global loads that
         * looked L1 up and missed) whose line SM y held: μRC's denominator,
         * row by row (docs/metrics.md §5). */
        json_t *row = json_array();
        for (uint32_t y = 0; y < r->sms; y++)
            json_array_append_new(row, report_json_ratio((double)r->remote_holders[(size_t)s * r->sms + y],
                                                         (double)r->sm_load_misses[s]));
        json_array_append_new(holders, row);
    }
    json_object_set_new(o, "l1_per_sm", per_sm);
    json_object_set_new(o, "remote_holders", holders);
    /* Undefined is null, and averages skip it (docs/metrics.md §5). */
    double end_sum = 0;
    uint32_t defined = 0;
    for (uint32_t k = 0; k < r->kernel_count; k++)
        if (r->kernels[k].end_lines) {
            end_sum += (double)r->kernels[k].end_copies / (double)r->kernels[k].end_lines;
            defined++;
        }
    json_t *replication = json_object();
    json_object_set_new(replication, "kernel_end", report_json_ratio(end_sum, defined));
    json_object_set_new(replication, "time_average",
                        report_json_ratio(r->replication_sum, (double)r->replication_samples));
    json_object_set_new(o, "replication", replication);
    return o;
}

json_t *replay_pc_json(const replay_pc *pc, const locality_pc *generations)
{
    json_t *o = json_object();
    json_object_set_new(o, "l1_requests", report_json_u64(pc->accesses));
    json_object_set_new(o, "l1_hits", report_json_u64(pc->hits));
    json_object_set_new(o, "l1_misses", report_json_u64(pc->misses));
    json_object_set_new(o, "hit_rate", report_json_ratio((double)pc->hits, (double)pc->accesses));
    json_object_set_new(o, "bypasses", report_json_u64(pc->bypasses));
    json_object_set_new(o, "intra_warp_hits", report_json_u64(pc->intra_warp_hits));
    json_object_set_new(o, "inter_warp_hits", report_json_u64(pc->inter_warp_hits));
    json_object_set_new(o, "l1_to_l2_read_bytes", report_json_u64(pc->traffic_bytes));
    json_object_set_new(o, "mpli", report_json_mpli(&pc->mpli));
    if (generations)
        json_object_set_new(o, "locality", report_json_locality_pc(generations));
    return o;
}

void replay_document_body(json_t *doc, const replay_results *r, const wst_trace *t,
                          json_deferred_set *later)
{
    json_t *kernels = json_array();
    for (uint32_t k = 0; k < r->kernel_count; k++) {
        const replay_kernel *rk = &r->kernels[k];
        json_t *pcs = json_array();
        for (uint32_t i = 0; i < rk->pc_count; i++) {
            json_t *pc = replay_pc_json(&rk->pcs[i], rk->locality ? &rk->locality[i] : NULL);
            json_object_set_new(pc, "index", json_integer(i));
            if (r->lcm && i < r->lcm->kernels[k].pc_count)
                json_object_set_new(pc, "lcm", lcm_pc_json(&r->lcm->kernels[k].pcs[i]));
            if (i < t->kernels[k].pc_count) {
                const wst_pc *wp = &t->kernels[k].pcs[i];
                json_object_set_new(pc, "offset", report_json_u64(wp->offset));
                json_object_set_new(pc, "pc_offset", report_json_pc_offset(wp->offset));
                json_object_set_new(pc, "sass", report_json_string_or_null(wp->sass));
            }
            json_array_append_new(pcs, pc);
        }
        json_t *kj = replay_counts_json(&rk->counts, r);
        json_object_set_new(kj, "index", json_integer(k));
        json_object_set_new(kj, "name", report_json_string_or_null(t->kernels[k].name));
        json_object_set_new(kj, "name_demangled", report_json_kernel_label(t->kernels[k].name));
        json_object_set_new(kj, "replication_end",
                            report_json_ratio((double)rk->end_copies, (double)rk->end_lines));
        if (r->sharing_tracked)
            json_object_set_new(kj, "l2_sharing", l2_sharing_json(rk));
        if (r->ccn)
            json_object_set_new(kj, "ccn", ccn_counts_json(&r->ccn->kernels[k],
                                                           r->ccn->distance_hits + (size_t)k * r->sms,
                                                           r->sms));
        if (r->lcm)
            json_object_set_new(kj, "lcm", lcm_counts_json(&r->lcm->kernels[k].counts));
        if (r->timed)
            json_object_set_new(kj, "timed", timed_kernel_json(rk, later));
        json_object_set_new(kj, "pcs", pcs);
        json_array_append_new(kernels, kj);
    }
    json_object_set_new(doc, "summary", replay_summary_json(r));
    if (r->timed)
        json_object_set_new(doc, "timed", timed_run_json(r, later));
    json_object_set_new(doc, "kernels", kernels);
}
