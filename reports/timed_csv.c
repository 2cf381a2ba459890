/* reports/timed_csv.c: see timed_csv.h. */
#include "reports/timed_csv.h"

#include "reports/csv_keys.h"
#include "reports/timed_text.h"

/* Scheduler-cycles: the issue and stall cycles of every scheduler. */
static uint64_t scheduler_cycles(const timed_kernel *k)
{
    uint64_t all = k->issue_cycles;
    for (int c = 0; c < STALL_CAUSES; c++)
        all += k->stalls[c];
    return all;
}

static void stall_cells(csv_table *t, const timed_kernel *k)
{
    double all = (double)scheduler_cycles(k);
    for (int c = 0; c < STALL_CAUSES; c++)
        csv_row_ratio(t, (double)k->stalls[c], all);
}

static void latency_cell(csv_table *t, const latency_counts *l)
{
    uint64_t requests = 0, cycles = 0;
    for (int w = 0; w < SERVED_KINDS; w++) {
        requests += l->requests[w];
        cycles += l->cycles[w];
    }
    csv_row_ratio(t, (double)cycles, (double)requests);
}

void timed_csv_cells(csv_table *t, const replay_results *r, uint64_t base_cycles)
{
    uint64_t cycles = timed_cycles(r);
    csv_row_u64(t, cycles);
    csv_row_ratio(t, (double)r->timed_total.instructions, (double)cycles);
    csv_row_ratio(t, (double)base_cycles, (double)cycles);
    stall_cells(t, &r->timed_total);
    csv_row_u64(t, r->total.l2.pending_hits);
    latency_cell(t, &r->total.latency);
}

int timed_csv_kernels(const char *dir, const char *const *names,
                      const replay_results *const *results, uint32_t count,
                      const wst_trace *trace, ws_error *err)
{
    static const char *const header[] = {
        "policy", CSV_KERNEL_COLUMNS, "start_cycle", "cycles", "instructions", "memory_instructions",
        "ipc", "stall_memory", "stall_pipeline", "stall_throttled", "stall_no_warp",
        "l1_hits", "l1_pending_hits", "l1_misses", "l2_hits", "l2_pending_hits", "l2_misses",
        "mean_load_latency"};
    csv_table *t = csv_table_open_in(dir, "timed_kernels.csv", header,
                                     sizeof header / sizeof header[0], err);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < count; i++)
        for (uint32_t k = 0; k < results[i]->kernel_count; k++) {
            const replay_kernel *rk = &results[i]->kernels[k];
            const timed_kernel *tk = &rk->timed;
            uint64_t cycles = tk->end_cycle - tk->start_cycle;
            csv_row_str(t, names[i]);
            csv_row_kernel(t, trace, k);
            csv_row_u64(t, tk->start_cycle);
            csv_row_u64(t, cycles);
            csv_row_u64(t, tk->instructions);
            csv_row_u64(t, tk->memory_instructions);
            csv_row_ratio(t, (double)tk->instructions, (double)cycles);
            stall_cells(t, tk);
            const replay_counts *c = &rk->counts;
            csv_row_u64(t, c->l1.hits);
            csv_row_u64(t, c->l1.pending_hits);
            csv_row_u64(t, c->l1.misses);
            csv_row_u64(t, c->l2.hits);
            csv_row_u64(t, c->l2.pending_hits);
            csv_row_u64(t, c->l2.misses);
            latency_cell(t, &c->latency);
            csv_row_end(t);
        }
    return csv_table_commit(t, err);
}
