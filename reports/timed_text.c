/* reports/timed_text.c: see timed_text.h. */
#include "reports/timed_text.h"

#include "reports/numfmt.h"

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
    fprintf(out, "  %-22s %.1f cycles mean wait, %s longest; mean occupancy %.2f a queue\n", name,
            requests ? (double)waited / (double)requests : 0.0, GROUPED(longest),
            cycles && n ? (double)waited / (double)cycles / n : 0.0);
}

void timed_text_summary(FILE *out, const replay_results *r)
{
    const timed_kernel *t = &r->timed_total;
    uint64_t cycles = timed_cycles(r), slots = t->issue_cycles;
    for (int c = 0; c < STALL_CAUSES; c++)
        slots += t->stalls[c];
    fprintf(out, "timed replay (the model's figures, not a GPU's: docs/validation.md)\n");
    fprintf(out, "  %-22s %14s  IPC %.3f (%s warp instructions, %s of them memory)\n", "cycles",
            GROUPED(cycles), cycles ? (double)t->instructions / (double)cycles : 0.0,
            GROUPED(t->instructions), GROUPED(t->memory_instructions));
    fprintf(out, "  %-22s issued %s; stalled on memory %s, pipeline %s, throttled %s, "
                 "no warp %s\n",
            "scheduler cycles", SHARE(t->issue_cycles, slots),
            SHARE(t->stalls[STALL_MEMORY], slots), SHARE(t->stalls[STALL_PIPELINE], slots),
            SHARE(t->stalls[STALL_THROTTLED], slots), SHARE(t->stalls[STALL_NO_WARP], slots));
    const latency_counts *l = &r->total.latency;
    fprintf(out, "  %-22s", "load latency (cycles)");
    for (int w = 0; w < SERVED_KINDS; w++)
        if (l->requests[w])
            fprintf(out, " %s %.1f (%s)", served_by_names[w],
                    (double)l->cycles[w] / (double)l->requests[w], GROUPED(l->requests[w]));
    fprintf(out, "\n");
    if (r->l2_queues) {
        print_queues(out, "L2 slice queues", r->l2_queues, r->slices, cycles);
        print_queues(out, "DRAM queues", r->dram_queues, r->slices, cycles);
    }
    if (r->timed_by_lru)
        fprintf(out, "  %-22s a timed LRU run's, whose clock this is: OPT bounds the hits of any "
                     "policy on that order\n", "issue order");
}

void timed_text_table(FILE *out, const char *const *names, const replay_results *const *r,
                      uint32_t count)
{
    fprintf(out, "\n  timed replay (the model's figures, not a GPU's)\n");
    fprintf(out, "  %-18s %10s %13s %8s %7s %13s\n", "policy", "L1 merged", "cycles", "speedup",
            "IPC", "memory stall");
    uint64_t base = timed_cycles(r[0]);
    for (uint32_t i = 0; i < count; i++) {
        const replay_results *x = r[i];
        uint64_t cycles = timed_cycles(x), slots = x->timed_total.issue_cycles;
        for (int c = 0; c < STALL_CAUSES; c++)
            slots += x->timed_total.stalls[c];
        fprintf(out, "  %-18s %10s %13s %7.3fx %7.3f %13s\n", names[i],
                SHARE(x->total.l1.pending_hits, x->total.l1.accesses), GROUPED(cycles),
                cycles ? (double)base / (double)cycles : 0.0,
                cycles ? (double)x->timed_total.instructions / (double)cycles : 0.0,
                SHARE(x->timed_total.stalls[STALL_MEMORY], slots));
    }
}
