/* analyzer/mem_timing.c: see mem_timing.h (docs/metrics.md §12). */
#include "analyzer/mem_timing.h"

#include <stdlib.h>

const char *const served_by_names[SERVED_KINDS] = {"l1", "l1_merge", "remote_l1", "l2", "dram"};

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

uint32_t mem_timing_slices(const mem_timing *t) { return t->slices; }
const queue_counts *mem_timing_l2_queues(const mem_timing *t) { return t->l2; }
const queue_counts *mem_timing_dram_queues(const mem_timing *t) { return t->dram; }
