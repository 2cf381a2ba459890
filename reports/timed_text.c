/* reports/timed_text.c: see timed_text.h. */
#include "reports/timed_text.h"

#include "reports/numfmt.h"
#include "reports/term.h"

#define GROUPED(v) numfmt_grouped(v).s
#define SHARE(num, den) numfmt_share((double)(num), (double)(den)).s

uint64_t timed_cycles(const replay_results *r) { return replay_results_cycles(r); }

static void print_queues(FILE *out, const char *name, const queue_counts *q, uint32_t n,
                         uint64_t cycles)
{
    uint64_t requests = 0, waited = 0, longest = 0;
    for (uint32_t i = 0; i < n; i++) {
        requests += q[i].requests;
        waited += q[i].wait_cycles;
        longest = q[i].max_wait > longest ? q[i].max_wait : longest;
    }
    term_field(out, name, "%.1f cycles mean wait, %s longest; mean occupancy %.2f a queue",
               requests ? (double)waited / (double)requests : 0.0, GROUPED(longest),
               cycles && n ? (double)waited / (double)cycles / n : 0.0);
}

void timed_text_summary(FILE *out, const replay_results *r)
{
    const timed_kernel *t = &r->timed_total;
    uint64_t cycles = timed_cycles(r), slots = t->issue_cycles;
    for (int c = 0; c < STALL_CAUSES; c++)
        slots += t->stalls[c];
    term_printf(out, 2, "timed replay (the model's figures, not a GPU's: docs/validation.md)");
    term_field(out, "cycles", "%14s  IPC %.3f (%s warp instructions, %s of them memory)",
               GROUPED(cycles), cycles ? (double)t->instructions / (double)cycles : 0.0,
               GROUPED(t->instructions), GROUPED(t->memory_instructions));
    term_field(out, "scheduler cycles",
               "issued %s; stalled on memory %s, pipeline %s, throttled %s, no warp %s",
               SHARE(t->issue_cycles, slots), SHARE(t->stalls[STALL_MEMORY], slots),
               SHARE(t->stalls[STALL_PIPELINE], slots), SHARE(t->stalls[STALL_THROTTLED], slots),
               SHARE(t->stalls[STALL_NO_WARP], slots));
    const latency_counts *l = &r->total.latency;
    char latency[256] = "";
    size_t used = 0;
    for (int w = 0; w < SERVED_KINDS && used < sizeof latency; w++)
        if (l->requests[w]) {
            int n =
                snprintf(latency + used, sizeof latency - used, "%s%s %.1f (%s)", used ? " " : "",
                         served_by_names[w], (double)l->cycles[w] / (double)l->requests[w],
                         GROUPED(l->requests[w]));
            used += n > 0 ? (size_t)n : 0;
        }
    term_field(out, "load latency (cycles)", "%s", latency);
    if (r->l2_queues) {
        print_queues(out, "L2 slice queues", r->l2_queues, r->slices, cycles);
        print_queues(out, "DRAM queues", r->dram_queues, r->slices, cycles);
    }
    if (r->timed_by_lru)
        term_field(out, "issue order",
                   "a timed LRU run's, whose clock this is: OPT bounds the hits of any "
                   "policy on that order");
}

void timed_text_table(FILE *out, const char *const *names, const replay_results *const *r,
                      uint32_t count)
{
    fprintf(out, "\n  timed replay (the model's figures, not a GPU's)\n");
    term_table *table = term_table_new(2);
    term_table_column(table, "policy", TERM_LEFT, 0);
    term_table_column(table, "cycles", TERM_RIGHT, 5);
    term_table_column(table, "speedup", TERM_RIGHT, 4);
    term_table_column(table, "IPC", TERM_RIGHT, 2);
    term_table_column(table, "memory stall", TERM_RIGHT, 3);
    uint64_t base = timed_cycles(r[0]);
    for (uint32_t i = 0; i < count; i++) {
        const replay_results *x = r[i];
        uint64_t cycles = timed_cycles(x), slots = x->timed_total.issue_cycles;
        for (int c = 0; c < STALL_CAUSES; c++)
            slots += x->timed_total.stalls[c];
        term_table_cell(table, "%s", names[i]);
        term_table_cell(table, "%s", GROUPED(cycles));
        term_table_cell(table, "%.3fx", cycles ? (double)base / (double)cycles : 0.0);
        term_table_cell(table, "%.3f",
                        cycles ? (double)x->timed_total.instructions / (double)cycles : 0.0);
        term_table_cell(table, "%s", SHARE(x->timed_total.stalls[STALL_MEMORY], slots));
    }
    term_table_print(table, out, term_width(out));
    term_table_free(table);
}
