/* formats/memtrace.c: see memtrace.h. */
#include "formats/memtrace.h"

#include "util/grow.h"

#include <stdlib.h>
#include <string.h>

wst_memtrace *wst_memtrace_new(const wst_origin *origin)
{
    wst_memtrace *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    if (wst_origin_copy(&m->trace.origin, origin) != 0) {
        free(m);
        return NULL;
    }
    return m;
}

void wst_memtrace_free(wst_memtrace *m)
{
    if (!m)
        return;
    for (uint32_t k = 0; k < m->trace.kernel_count; k++)
        free(m->per_kernel[k].records);
    free(m->per_kernel);
    wst_trace_clear(&m->trace);
    free(m);
}

static int mem_add_kernel(void *ctx, const wst_kernel *kernel, ws_error *err)
{
    wst_memtrace *m = ctx;
    uint32_t n = m->trace.kernel_count;
    wst_kernel *kernels = realloc(m->trace.kernels, (n + 1) * sizeof *kernels);
    if (!kernels)
        return ws_fail(err, "out of memory");
    m->trace.kernels = kernels;
    wst_memkernel_records *per = realloc(m->per_kernel, (n + 1) * sizeof *per);
    if (!per)
        return ws_fail(err, "out of memory");
    m->per_kernel = per;
    memset(&per[n], 0, sizeof per[n]);
    if (wst_kernel_copy(&kernels[n], kernel) != 0)
        return ws_fail(err, "out of memory");
    m->trace.kernel_count = n + 1;
    return (int)n;
}

static int64_t mem_add_pc(void *ctx, uint32_t kernel, const wst_pc *pc, ws_error *err)
{
    wst_memtrace *m = ctx;
    if (kernel >= m->trace.kernel_count)
        return ws_fail(err, "PC for undeclared kernel %u", kernel);
    wst_kernel *k = &m->trace.kernels[kernel];
    wst_pc *pcs = realloc(k->pcs, (k->pc_count + 1) * sizeof *pcs);
    if (!pcs)
        return ws_fail(err, "out of memory");
    k->pcs = pcs;
    pcs[k->pc_count] = *pc;
    pcs[k->pc_count].sass = pc->sass ? strdup(pc->sass) : NULL;
    pcs[k->pc_count].file = pc->file ? strdup(pc->file) : NULL;
    return k->pc_count++;
}

static int mem_add_record(void *ctx, uint32_t kernel, const wst_record *rec, ws_error *err)
{
    wst_memtrace *m = ctx;
    if (kernel >= m->trace.kernel_count)
        return ws_fail(err, "record for undeclared kernel %u", kernel);
    wst_memkernel_records *per = &m->per_kernel[kernel];
    if (ws_grow((void **)&per->records, &per->capacity, per->count + 1, sizeof *per->records))
        return ws_fail(err, "out of memory");
    per->records[per->count++] = *rec;
    wst_kernel *k = &m->trace.kernels[kernel];
    k->record_count++;
    if (rec->kind < 3)
        k->records_by_kind[rec->kind]++;
    return 0;
}

/* Kept as given: the checks are the writer's (tests write a memtrace
 * through it). */
static int mem_add_allocation(void *ctx, const wst_allocation *a, ws_error *err)
{
    wst_trace *t = &((wst_memtrace *)ctx)->trace;
    wst_allocation *grown = realloc(t->allocations, (t->allocation_count + 1) * sizeof *grown);
    if (!grown)
        return ws_fail(err, "out of memory");
    t->allocations = grown;
    t->allocations[t->allocation_count++] = *a;
    return 0;
}

wst_sink wst_memtrace_sink(wst_memtrace *m)
{
    return (wst_sink){.ctx = m,
                      .add_kernel = mem_add_kernel,
                      .add_pc = mem_add_pc,
                      .add_record = mem_add_record,
                      .end_cta = NULL,
                      .add_allocation = mem_add_allocation};
}
