/* reports/timed_json.c: see timed_json.h. */
#include "reports/timed_json.h"

#include "reports/json_out.h"
#include "reports/timed_text.h"

static const char *const model_label =
    "warpscope's timed replay (docs/metrics.md §12): the model's cycles, not a GPU's; its "
    "agreement with Accel-Sim is in docs/validation.md";

static json_t *latency_json(const latency_counts *l)
{
    json_t *o = json_object();
    for (int w = 0; w < SERVED_KINDS; w++) {
        json_t *histogram = json_array();
        for (int b = 0; b < LATENCY_BUCKETS; b++)
            json_array_append_new(histogram, report_json_u64(l->histogram[w][b]));
        json_object_set_new(o, served_by_names[w],
                            json_pack("{s:o,s:o,s:o}", "requests", report_json_u64(l->requests[w]),
                                      "mean_cycles",
                                      report_json_ratio((double)l->cycles[w],
                                                        (double)l->requests[w]),
                                      "log2_histogram", histogram));
    }
    return o;
}

static json_t *stalls_json(const uint64_t *stalls)
{
    json_t *o = json_object();
    for (int c = 0; c < STALL_CAUSES; c++)
        json_object_set_new(o, stall_cause_names[c], report_json_u64(stalls[c]));
    return o;
}

json_t *timed_kernel_json(const timed_kernel *k, const latency_counts *latency)
{
    uint64_t cycles = k->end_cycle - k->start_cycle;
    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o}", "start_cycle",
                     report_json_u64(k->start_cycle), "cycles", report_json_u64(cycles),
                     "instructions", report_json_u64(k->instructions), "memory_instructions",
                     report_json_u64(k->memory_instructions), "ipc",
                     report_json_ratio((double)k->instructions, (double)cycles),
                     "issue_cycles", report_json_u64(k->issue_cycles), "stall_cycles",
                     stalls_json(k->stalls), "load_latency", latency_json(latency));
}

static json_t *queues_json(const queue_counts *q, uint32_t n, uint64_t cycles)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < n; i++)
        json_array_append_new(a, json_pack("{s:o,s:o,s:o,s:o}", "requests",
                                           report_json_u64(q[i].requests), "wait_cycles",
                                           report_json_u64(q[i].wait_cycles), "max_wait",
                                           report_json_u64(q[i].max_wait), "mean_occupancy",
                                           report_json_ratio((double)q[i].wait_cycles,
                                                             (double)cycles)));
    return a;
}

json_t *timed_run_json(const replay_results *r)
{
    const timed_kernel *t = &r->timed_total;
    uint64_t cycles = timed_cycles(r);
    timed_kernel whole = *t;
    whole.start_cycle = 0;
    whole.end_cycle = cycles;
    json_t *o = timed_kernel_json(&whole, &r->total.latency);
    json_object_set_new(o, "model", json_string(model_label));
    json_object_set_new(o, "parameters", timing_config_to_json(&r->timing));
    json_t *per = json_array();
    for (uint32_t i = 0; r->scheduler_stalls && i < r->sms * r->schedulers; i++) {
        json_t *one = stalls_json(r->scheduler_stalls + (size_t)i * STALL_CAUSES);
        json_object_set_new(one, "sm", json_integer(i / r->schedulers));
        json_object_set_new(one, "scheduler", json_integer(i % r->schedulers));
        json_array_append_new(per, one);
    }
    json_object_set_new(o, "stall_cycles_per_scheduler", per);
    if (r->l2_queues) {
        json_object_set_new(o, "l2_slice_queues", queues_json(r->l2_queues, r->slices, cycles));
        json_object_set_new(o, "dram_queues", queues_json(r->dram_queues, r->slices, cycles));
    }
    if (r->timed_by_lru)
        json_object_set_new(o, "issue_order",
                            json_string("a timed LRU run's: OPT's hits are the most any policy "
                                        "gets on that order, its clock is LRU's"));
    return o;
}
