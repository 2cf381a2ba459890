/* reports/timed_json.c: see timed_json.h. */
#include "reports/timed_json.h"

#include "reports/json_out.h"
#include "reports/timed_text.h"

static const char *const model_label =
    "warpscope's timed replay (docs/metrics.md §12): the model's cycles, not a GPU's; its "
    "agreement with Accel-Sim is in docs/validation.md";

static void write_u64_member(json_writer *w, const char *key, uint64_t v)
{
    json_write_key(w, key);
    report_write_u64(w, v);
}

static void write_latency(json_writer *w, const latency_counts *l)
{
    json_write_object(w);
    for (int s = 0; s < SERVED_KINDS; s++) {
        json_write_key(w, served_by_names[s]);
        json_write_object(w);
        write_u64_member(w, "requests", l->requests[s]);
        json_write_key(w, "mean_cycles");
        report_write_ratio(w, (double)l->cycles[s], (double)l->requests[s]);
        json_write_key(w, "log2_histogram");
        json_write_array(w);
        for (int b = 0; b < LATENCY_BUCKETS; b++)
            report_write_u64(w, l->histogram[s][b]);
        json_write_array_end(w);
        json_write_object_end(w);
    }
    json_write_object_end(w);
}

/* The causes' members of a stalls object, without its braces. */
static void write_stall_members(json_writer *w, const uint64_t *stalls)
{
    for (int c = 0; c < STALL_CAUSES; c++)
        write_u64_member(w, stall_cause_names[c], stalls[c]);
}

/* A kernel's members, without the braces: a run's object goes on. */
static void write_kernel_members(json_writer *w, const timed_kernel *k,
                                 const latency_counts *latency)
{
    uint64_t cycles = k->end_cycle - k->start_cycle;
    write_u64_member(w, "start_cycle", k->start_cycle);
    write_u64_member(w, "cycles", cycles);
    write_u64_member(w, "instructions", k->instructions);
    write_u64_member(w, "memory_instructions", k->memory_instructions);
    json_write_key(w, "ipc");
    report_write_ratio(w, (double)k->instructions, (double)cycles);
    write_u64_member(w, "issue_cycles", k->issue_cycles);
    json_write_key(w, "stall_cycles");
    json_write_object(w);
    write_stall_members(w, k->stalls);
    json_write_object_end(w);
    json_write_key(w, "load_latency");
    write_latency(w, latency);
}

void timed_kernel_write(json_writer *w, const timed_kernel *k, const latency_counts *latency)
{
    json_write_object(w);
    write_kernel_members(w, k, latency);
    json_write_object_end(w);
}

static void write_replay_kernel(json_writer *w, const void *rk)
{
    const replay_kernel *k = rk;
    timed_kernel_write(w, &k->timed, &k->counts.latency);
}

json_t *timed_kernel_json(const replay_kernel *rk, json_deferred_set *later)
{
    return json_deferred_value(later, write_replay_kernel, rk);
}

static void write_queues(json_writer *w, const queue_counts *q, uint32_t n, uint64_t cycles)
{
    json_write_array(w);
    for (uint32_t i = 0; i < n; i++) {
        json_write_object(w);
        write_u64_member(w, "requests", q[i].requests);
        write_u64_member(w, "wait_cycles", q[i].wait_cycles);
        write_u64_member(w, "max_wait", q[i].max_wait);
        json_write_key(w, "mean_occupancy");
        report_write_ratio(w, (double)q[i].wait_cycles, (double)cycles);
        json_write_object_end(w);
    }
    json_write_array_end(w);
}

void timed_run_write(json_writer *w, const replay_results *r)
{
    uint64_t cycles = timed_cycles(r);
    timed_kernel whole = r->timed_total;
    whole.start_cycle = 0;
    whole.end_cycle = cycles;
    json_write_object(w);
    write_kernel_members(w, &whole, &r->total.latency);
    json_write_key(w, "model");
    json_write_string(w, model_label);
    json_write_key(w, "parameters");
    json_t *parameters = timing_config_to_json(&r->timing);
    json_write_tree(w, parameters, NULL, NULL);
    json_decref(parameters);
    json_write_key(w, "stall_cycles_per_scheduler");
    json_write_array(w);
    for (uint32_t i = 0; r->scheduler_stalls && i < r->sms * r->schedulers; i++) {
        json_write_object(w);
        write_stall_members(w, r->scheduler_stalls + (size_t)i * STALL_CAUSES);
        json_write_key(w, "sm");
        json_write_integer(w, i / r->schedulers);
        json_write_key(w, "scheduler");
        json_write_integer(w, i % r->schedulers);
        json_write_object_end(w);
    }
    json_write_array_end(w);
    if (r->l2_queues) {
        json_write_key(w, "l2_slice_queues");
        write_queues(w, r->l2_queues, r->slices, cycles);
        json_write_key(w, "dram_queues");
        write_queues(w, r->dram_queues, r->slices, cycles);
    }
    if (r->timed_by_lru) {
        json_write_key(w, "issue_order");
        json_write_string(w, "a timed LRU run's: OPT's hits are the most any policy gets on that "
                             "order, its clock is LRU's");
    }
    json_write_object_end(w);
}

static void write_run(json_writer *w, const void *r) { timed_run_write(w, r); }

json_t *timed_run_json(const replay_results *r, json_deferred_set *later)
{
    return json_deferred_value(later, write_run, r);
}
