/* reports/report_json.c: see report_json.h.  Only formats: every figure
 * comes from the analyzer. */
#include "reports/report_json.h"

#include "reports/replay_json.h"

#include <stdlib.h>
#include <string.h>

#include "reports/report_doc.h"
#include "util/version.h"
#include "reports/json_access_map.h"
#include "reports/json_memory.h"
#include "reports/json_bounds.h"
#include "reports/json_metrics.h"
#include "reports/json_out.h"

#define NOT_CLAIMED                                                                              \
    "Counts and rates of a functional model. IPC, speedups, energy, latency, queue occupancy " \
    "and DRAM efficiency need cycle-level timing and are not claimed (docs/metrics.md §11)."

/* The reference LRU L1 (the scheduler's): misses include the bypasses
 * (cg / cv loads), as the replay counts them. */
/* Dimensions reach 2^32 - 1: json_pack's "i" is an int and would wrap. */
static json_t *dim3_json(wst_dim3 d)
{
    return json_pack("[I,I,I]", (json_int_t)d.x, (json_int_t)d.y, (json_int_t)d.z);
}

static json_t *l1_lru(uint64_t hits, uint64_t misses, uint64_t bypasses)
{
    return json_pack("{s:o,s:o,s:o,s:o}", "hits", report_json_u64(hits), "misses",
                     report_json_u64(misses), "bypasses", report_json_u64(bypasses), "hit_rate",
                     report_json_ratio((double)hits, (double)(hits + misses)));
}

static json_t *kernel_sharing(const analysis_kernel *k, uint32_t block)
{
    json_t *o = json_object();
    json_object_set_new(o, "block_bytes", json_integer(block));
    json_object_set_new(o, "blocks", report_json_u64(k->sharing_blocks));
    json_object_set_new(o, "shared_blocks", report_json_u64(k->sharing_shared));
    json_object_set_new(o, "shared_fraction",
                        report_json_ratio((double)k->sharing_shared, (double)k->sharing_blocks));
    json_object_set_new(o, "multi_cta_blocks", report_json_u64(k->sharing_multi_cta));
    json_object_set_new(o, "multi_cta_fraction",
                        report_json_ratio((double)k->sharing_multi_cta, (double)k->sharing_blocks));
    json_object_set_new(o, "cta_pairs", report_json_u64(k->sharing_pairs));
    json_object_set_new(o, "neighbour_pair_share",
                        report_json_ratio((double)k->sharing_neighbour_pairs, (double)k->sharing_pairs));
    return o;
}

static json_t *pc_json(const wst_pc *pc, uint32_t index, const metrics_pc *m, const locality_pc *l,
                       uint32_t line_bytes, double rate)
{
    json_t *o = report_json_metrics_pc(m, line_bytes, rate);
    json_object_set_new(o, "index", json_integer(index));
    json_object_set_new(o, "offset", report_json_u64(pc->offset));
    json_object_set_new(o, "pc_offset", report_json_pc_offset(pc->offset));
    json_object_set_new(o, "sass", report_json_string_or_null(pc->sass));
    json_object_set_new(o, "file", report_json_string_or_null(pc->file));
    json_object_set_new(o, "line", pc->line ? json_integer(pc->line) : json_null());
    json_object_set_new(o, "locality", report_json_locality_pc(l));
    return o;
}

uint32_t report_kernel_pc_count(const analysis *a, const wst_reader *r, uint32_t k)
{
    uint32_t in_trace = wst_reader_trace(r)->kernels[k].pc_count;
    uint32_t measured = metrics_kernel_at(a->metrics, k)->pc_count;
    return in_trace < measured ? in_trace : measured;
}

json_t *report_kernel_pc_json(const analysis *a, const wst_reader *r, uint32_t k, uint32_t i)
{
    const analysis_kernel *ak = analysis_kernel_at(a, k);
    const metrics_kernel *mk = metrics_kernel_at(a->metrics, k);
    const wst_kernel *wk = &wst_reader_trace(r)->kernels[k];
    json_t *pj = pc_json(&wk->pcs[i], i, &mk->pcs[i], &ak->locality[i], a->config.l1.line_bytes,
                         analysis_sample_rate(&a->options));
    const replay_kernel *rk = a->replay ? &hierarchy_results(a->replay)->kernels[k] : NULL;
    if (rk && i < rk->pc_count)
        json_object_set_new(pj, "replay", replay_pc_json(&rk->pcs[i], &rk->locality[i]));
    const memory_kernel *memory = a->memory ? memory_workload_kernel(a->memory, k) : NULL;
    if (memory && memory->seen && i < memory->pc_count)
        json_object_set_new(pj, "memory", memory_pc_json(&memory->pcs[i]));
    return pj;
}

json_t *report_kernel_json(const analysis *a, const wst_reader *r, uint32_t k)
{
    const wst_trace *t = wst_reader_trace(r);
    const gpu_config *c = &a->config;
    uint32_t line = c->l1.line_bytes;
    uint64_t l1_lines = cache_config_lines(&c->l1), l2_lines = cache_config_lines(&c->l2);
    const analysis_kernel *ak = analysis_kernel_at(a, k);
    const metrics_kernel *mk = metrics_kernel_at(a->metrics, k);
    const wst_kernel *wk = &t->kernels[k];
    double rate = analysis_sample_rate(&a->options);
    json_t *m = report_json_metrics_totals(&mk->totals, line, l1_lines, l2_lines, rate);
    locality_totals kernel_locality = {0};
    locality_totals_add(&kernel_locality, ak->locality, ak->pc_count);
    json_object_set_new(m, "locality", report_json_locality_totals(&kernel_locality));
    json_object_set_new(m, "sharing", kernel_sharing(ak, analysis_sharing_block(&a->options, c)));
    json_object_set_new(m, "l1_lru", l1_lru(ak->l1_hits, ak->l1_misses, ak->l1_bypasses));
    const replay_kernel *rk = a->replay ? &hierarchy_results(a->replay)->kernels[k] : NULL;
    if (rk)
        json_object_set_new(m, "replay", replay_counts_json(&rk->counts, hierarchy_results(a->replay)));
    const memory_kernel *memory = a->memory ? memory_workload_kernel(a->memory, k) : NULL;
    if (memory && memory->seen)
        json_object_set_new(m, "memory", memory_json(memory, memory_workload_slices(a->memory)));
    json_t *kj = json_object();
    json_object_set_new(kj, "index", json_integer(k));
    json_object_set_new(kj, "name", report_json_string_or_null(wk->name));
    json_object_set_new(kj, "name_demangled", report_json_kernel_label(wk->name));
    json_object_set_new(kj, "grid", dim3_json(wk->grid));
    json_object_set_new(kj, "block", dim3_json(wk->block));
    json_object_set_new(kj, "shared_mem_bytes", json_integer(wk->shared_mem_bytes));
    json_object_set_new(kj, "registers_per_thread", json_integer(wk->registers_per_thread));
    json_object_set_new(kj, "ctas", json_integer(wk->cta_count));
    json_object_set_new(kj, "metrics", m);
    json_object_set_new(kj, "pcs", json_array()); /* report_kernel_pc_json, one at a time */
    return kj;
}

json_t *report_analysis_json(const analysis *a, const wst_reader *r, const char *trace_path)
{
    const wst_trace *t = wst_reader_trace(r);
    const gpu_config *c = &a->config;
    uint32_t line = c->l1.line_bytes;
    uint64_t l1_lines = cache_config_lines(&c->l1), l2_lines = cache_config_lines(&c->l2);
    uint32_t block = analysis_sharing_block(&a->options, c);
    uint64_t records = 0;
    for (uint32_t k = 0; k < t->kernel_count; k++)
        records += t->kernels[k].record_count;

    json_t *trace = json_object();
    json_object_set_new(trace, "path", json_string(trace_path));
    json_object_set_new(trace, "collector", report_json_string_or_null(t->origin.collector));
    json_object_set_new(trace, "collector_version", report_json_string_or_null(t->origin.collector_version));
    json_object_set_new(trace, "gpu", report_json_string_or_null(t->origin.gpu));
    json_object_set_new(trace, "workload", report_json_string_or_null(t->origin.workload));
    json_object_set_new(trace, "kernels", json_integer(t->kernel_count));
    json_object_set_new(trace, "records", report_json_u64(records));
    json_object_set_new(trace, "file_bytes", report_json_u64(wst_reader_file_bytes(r)));
    if (wst_reader_selection(r)) { /* the kernel filters chose some launches */
        json_object_set_new(trace, "kernel_filter", json_string(wst_reader_selection(r)));
        json_object_set_new(trace, "kernels_in_file", json_integer(wst_reader_kernels_in_file(r)));
    }

    char schedule[32];
    sched_options_format(&a->options.schedule, schedule, sizeof schedule);
    json_t *options = json_object();
    json_object_set_new(options, "schedule", json_string(schedule));
    json_object_set_new(options, "line_bytes", json_integer(line));
    json_object_set_new(options, "sector_bytes", json_integer(32));
    json_object_set_new(options, "half_warp", json_boolean(a->options.half_warp));
    json_object_set_new(options, "include_stores", json_boolean(a->options.include_stores));
    if (a->options.l2_cold) /* only when asked: reports of a warm L2 keep their bytes */
        json_object_set_new(options, "l2_cold", json_true());
    json_object_set_new(options, "cache_ops", json_string(wst_reader_ignores_cache_ops(r) ? "ignore" : "honour"));
    json_object_set_new(options, "sample_rate",
                        json_real(analysis_sample_rate(&a->options)));
    json_object_set_new(options, "exact_distances", report_json_u64(2 * l1_lines));
    json_object_set_new(options, "locality_window",
                        a->options.locality_window ? json_integer(a->options.locality_window)
                                                   : json_string("l1"));

    json_t *summary = report_json_metrics_totals(metrics_summary(a->metrics), line, l1_lines, l2_lines,
                                                 analysis_sample_rate(&a->options));
    json_object_set_new(summary, "locality", report_json_locality_totals(&a->locality));
    json_object_set_new(summary, "sharing", report_json_sharing(sharing_get(a->sharing), block));
    json_object_set_new(summary, "l1_lru", l1_lru(a->l1_hits, a->l1_misses, a->l1_bypasses));
    json_object_set_new(summary, "replay",
                        a->replay ? replay_summary_json(hierarchy_results(a->replay)) : json_null());
    json_object_set_new(summary, "memory",
                        a->memory ? memory_json(memory_workload_summary(a->memory),
                                                memory_workload_slices(a->memory))
                                  : json_null());
    json_t *doc = json_object();
    json_object_set_new(doc, "schema", json_string("warpscope-report"));
    json_object_set_new(doc, "version", json_integer(REPORT_VERSION));
    json_object_set_new(doc, "warpscope_version", json_string(WARPSCOPE_VERSION));
    json_object_set_new(doc, "trace", trace);
    report_json_set_gpu(doc, c);
    json_object_set_new(doc, "options", options);
    json_object_set_new(doc, "not_claimed", json_string(NOT_CLAIMED));
    json_object_set_new(doc, "summary", summary);
    json_t *buckets = json_object(); /* every reuse histogram's (report_json_hist) */
    report_json_add_log2_bounds(buckets, "log2");
    json_object_set_new(doc, "reuse_buckets", buckets);
    json_object_set_new(doc, "kernels", json_array()); /* the spool's (report_json_write_spooled) */
    json_t *access = report_json_access_map(a->access_map, r);
    if (access)
        json_object_set_new(doc, "access_map", access);
    return doc;
}
