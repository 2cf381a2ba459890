/* analyzer/memory_workload.c: see memory_workload.h. */
#include "analyzer/memory_workload.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/kernel_slots.h"
#include "analyzer/request.h"
#include "formats/trace.h"
#include "util/counts.h"

/* Only the last KERNEL_SLOTS kernels are kept (analyzer/kernel_slots.h):
 * their figures are added to the run's at their end. */
struct memory_workload {
    memory_kernel kernels[KERNEL_SLOTS];
    uint32_t kernel_index[KERNEL_SLOTS]; /* which kernel each holds */
    uint32_t kernel_count, slices;
    memory_kernel *current; /* the kernel being replayed, or NULL between kernels */
    memory_kernel kernels_sum; /* every ended kernel */
    /* What belongs to no kernel: the L2 flushes' write-backs. */
    memory_kind_counts outside[MEMORY_KINDS];
    memory_kernel summary;
};

const char *memory_kind_key(memory_kind kind)
{
    static const char *const keys[MEMORY_KINDS] = {"loads", "stores", "atomics", "write_backs"};
    return kind < MEMORY_KINDS ? keys[kind] : "?";
}

static memory_kind kind_of(const replay_issue *is)
{
    return is->kind == WST_LOAD ? MEMORY_LOADS : is->kind == WST_STORE ? MEMORY_STORES : MEMORY_ATOMICS;
}

memory_workload *memory_workload_new(uint32_t kernel_count, uint32_t l2_slices, ws_error *err)
{
    memory_workload *m = calloc(1, sizeof *m);
    if (!m || !(m->kernels_sum.slice_requests = calloc(l2_slices + 1, sizeof(uint64_t))) ||
        !(m->summary.slice_requests = calloc(l2_slices + 1, sizeof(uint64_t)))) {
        memory_workload_free(m);
        return ws_fail(err, "out of memory"), NULL;
    }
    m->kernel_count = kernel_count;
    m->slices = l2_slices;
    return m;
}

void memory_workload_free(memory_workload *m)
{
    if (!m)
        return;
    for (int i = 0; i < KERNEL_SLOTS; i++) {
        free(m->kernels[i].slice_requests);
        free(m->kernels[i].pcs);
    }
    free(m->kernels_sum.slice_requests);
    free(m->summary.slice_requests);
    free(m);
}

/* ---- the hooks ---- */

static int kernel_begin(void *ctx, uint32_t kernel, uint32_t pc_count, ws_error *err)
{
    memory_workload *m = ctx;
    if (kernel >= m->kernel_count)
        return ws_fail(err, "memory workload: kernel %u of %u", kernel, m->kernel_count);
    memory_kernel *k = &m->kernels[kernel % KERNEL_SLOTS];
    m->kernel_index[kernel % KERNEL_SLOTS] = kernel;
    free(k->slice_requests);
    free(k->pcs);
    *k = (memory_kernel){.pc_count = pc_count, .seen = 1};
    if (!(k->slice_requests = calloc(m->slices + 1, sizeof *k->slice_requests)) ||
        !(k->pcs = calloc(pc_count + 1, sizeof *k->pcs)))
        return ws_fail(err, "out of memory");
    m->current = k;
    return 0;
}

static int kernel_end(void *ctx, ws_error *err)
{
    (void)err;
    memory_workload *m = ctx;
    if (m->current) {
        m->kernels_sum.seen = 1;
        counts_add(m->kernels_sum.kinds, m->current->kinds, sizeof m->kernels_sum.kinds);
        counts_add(m->kernels_sum.slice_requests, m->current->slice_requests,
                   m->slices * sizeof *m->kernels_sum.slice_requests);
    }
    m->current = NULL;
    return 0;
}

/* docs/metrics.md §7: the excess is what the requests ask beyond the ideal
 * (request_sectors_of, the one definition). */
static void requests(void *ctx, const replay_issue *is, const ws_request *rq, int n)
{
    memory_workload *m = ctx;
    memory_kernel *k = m->current;
    if (!k)
        return;
    request_sectors s = request_sectors_of(rq, n);
    uint64_t sectors = s.sectors, bytes = s.bytes, ideal = s.ideal;
    memory_kind kind = kind_of(is);
    memory_kind_counts *c = &k->kinds[kind];
    c->l1.requests += (uint64_t)n;
    c->l1.sectors += sectors;
    c->l1.bytes += bytes;
    c->l1_ideal_sectors += ideal;
    if (is->pc < k->pc_count) {
        memory_pc *pc = &k->pcs[is->pc];
        pc->instructions++;
        pc->requests += (uint64_t)n;
        pc->sectors += sectors;
        pc->ideal_sectors += ideal;
        pc->kind = is->kind;
    }
}

/* Only loads look L1 up and hit (hierarchy.h). */
static int hit(void *ctx, const replay_issue *is, uint64_t line, uint32_t owner, ws_error *err)
{
    (void)line, (void)owner, (void)err;
    memory_workload *m = ctx;
    if (m->current)
        m->current->kinds[kind_of(is)].l1_hits++;
    return 0;
}

static void add_flow(memory_flow *f, uint64_t bytes)
{
    f->requests++;
    f->sectors += bytes / REQUEST_SECTOR_BYTES;
    f->bytes += bytes;
}

static void transfer(void *ctx, const replay_issue *is, const memory_transfer *t)
{
    memory_workload *m = ctx;
    memory_kind kind = t->write_back || !is ? MEMORY_WRITE_BACKS : kind_of(is);
    memory_kind_counts *c = is && m->current ? &m->current->kinds[kind] : &m->outside[kind];
    switch (t->link) {
    case LINK_L1_TO_L2:
        add_flow(&c->l1_to_l2, t->bytes);
        break;
    case LINK_L2_LOOKUP:
        c->l2_requests++;
        c->l2_hits += t->hit;
        if (m->current && t->slice < m->slices)
            m->current->slice_requests[t->slice]++;
        break;
    case LINK_L2_TO_DRAM:
        add_flow(&c->l2_to_dram, t->bytes);
        break;
    }
}

l1_observer memory_workload_observer(memory_workload *m)
{
    return (l1_observer){.ctx = m, .kernel_begin = kernel_begin, .kernel_end = kernel_end,
                         .hit = hit, .requests = requests, .transfer = transfer};
}

/* ---- results ---- */

uint32_t memory_workload_slices(const memory_workload *m)
{
    return m->slices;
}

const memory_kernel *memory_workload_kernel(const memory_workload *m, uint32_t kernel)
{
    const memory_kernel *k = &m->kernels[kernel % KERNEL_SLOTS];
    return k->seen && m->kernel_index[kernel % KERNEL_SLOTS] == kernel ? k : NULL;
}

const memory_kernel *memory_workload_summary(memory_workload *m)
{
    memory_kernel *s = &m->summary;
    memset(s->kinds, 0, sizeof s->kinds);
    memset(s->slice_requests, 0, m->slices * sizeof *s->slice_requests);
    counts_add(s->kinds, m->outside, sizeof s->kinds);
    s->seen = m->kernels_sum.seen;
    counts_add(s->kinds, m->kernels_sum.kinds, sizeof s->kinds);
    counts_add(s->slice_requests, m->kernels_sum.slice_requests, m->slices * sizeof *s->slice_requests);
    return s;
}
