/* analyzer/mem_timing.c: see mem_timing.h (docs/metrics.md §12). */
#include "analyzer/mem_timing.h"

#include <stdlib.h>

#include "util/fastdiv.h"

const char *const served_by_names[SERVED_KINDS] = {"l1", "l1_merge", "remote_l1", "l2", "dram"};

struct mem_timing {
    uint32_t slices, l2_rate, dram_rate;
    fastdiv by_l2_rate, by_dram_rate; /* a slot's cycle without a 64-bit division */
    /* Each queue's next free slot, in its own units: 1 ÷ l2_rate cycles
     * for a slice, 1 ÷ dram_rate cycles (one byte) for a channel. */
    uint64_t *l2_next, *dram_next;
    queue_counts *l2, *dram;
};

mem_timing *mem_timing_new(const gpu_config *c, ws_error *err)
{
    mem_timing *t = calloc(1, sizeof *t);
    uint32_t n = c->l2.slices;
    if (!t || !(t->l2_next = calloc(n, sizeof *t->l2_next)) ||
        !(t->dram_next = calloc(n, sizeof *t->dram_next)) || !(t->l2 = calloc(n, sizeof *t->l2)) ||
        !(t->dram = calloc(n, sizeof *t->dram))) {
        mem_timing_free(t);
        return ws_fail(err, "out of memory"), NULL;
    }
    t->slices = n;
    t->l2_rate = c->timing.l2_requests_per_cycle;
    t->dram_rate = c->timing.dram_bytes_per_cycle;
    t->by_l2_rate = fastdiv_of(t->l2_rate);
    t->by_dram_rate = fastdiv_of(t->dram_rate);
    return t;
}

void mem_timing_free(mem_timing *t)
{
    if (!t)
        return;
    free(t->l2_next);
    free(t->dram_next);
    free(t->l2);
    free(t->dram);
    free(t);
}

/* Takes `units` of a queue from `arrive` (in cycles); returns the cycle
 * its slot starts. */
static uint64_t book(uint64_t *next, queue_counts *q, uint32_t rate, fastdiv by_rate,
                     uint64_t arrive, uint64_t units)
{
    uint64_t from = arrive * rate > *next ? arrive * rate : *next;
    *next = from + units;
    uint64_t start = fastdiv_quotient(by_rate, from), wait = start - arrive;
    q->requests++;
    q->wait_cycles += wait;
    if (wait > q->max_wait)
        q->max_wait = wait;
    return start;
}

uint64_t mem_timing_l2(mem_timing *t, uint32_t slice, uint64_t arrive, uint32_t units)
{
    return book(&t->l2_next[slice], &t->l2[slice], t->l2_rate, t->by_l2_rate, arrive, units);
}

uint64_t mem_timing_dram(mem_timing *t, uint32_t slice, uint64_t arrive, uint64_t bytes)
{
    return book(&t->dram_next[slice], &t->dram[slice], t->dram_rate, t->by_dram_rate, arrive,
                bytes);
}

uint32_t mem_timing_slices(const mem_timing *t) { return t->slices; }
const queue_counts *mem_timing_l2_queues(const mem_timing *t) { return t->l2; }
const queue_counts *mem_timing_dram_queues(const mem_timing *t) { return t->dram; }
