/* collectors/workloads/record.c: a workload, the emulator and the .wst
 * writer wired together (what `warpscope record --workload` does). */
#include <stdio.h>

#include "collectors/workloads/workloads.h"
#include "formats/wst.h"
#include "util/version.h"

/* "a, b, c" for error messages. */
static void list_workloads(char *buf, size_t cap)
{
    size_t len = 0;
    buf[0] = '\0';
    for (unsigned i = 0; workload_at(i) && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", i ? ", " : "", workload_at(i)->name);
}

const workload *workload_lookup(const char *name, ws_error *err)
{
    const workload *w = workload_find(name);
    if (!w) {
        char names[512];
        list_workloads(names, sizeof names);
        ws_fail(err, "unknown workload '%s' (workloads: %s)", name, names);
    }
    return w;
}

/* The writer's sink, counting records onto a progress bar: the emulator
 * cannot know a workload's record count before running it. */
typedef struct counted_sink {
    wst_sink inner;
    progress *bar;
    uint64_t records;
} counted_sink;

static int counted_add_kernel(void *ctx, const wst_kernel *kernel, ws_error *err)
{
    counted_sink *c = ctx;
    return c->inner.add_kernel(c->inner.ctx, kernel, err);
}

static int64_t counted_add_pc(void *ctx, uint32_t kernel, const wst_pc *pc, ws_error *err)
{
    counted_sink *c = ctx;
    return c->inner.add_pc(c->inner.ctx, kernel, pc, err);
}

static int counted_add_record(void *ctx, uint32_t kernel, const wst_record *rec, ws_error *err)
{
    counted_sink *c = ctx;
    progress_update(c->bar, ++c->records);
    return c->inner.add_record(c->inner.ctx, kernel, rec, err);
}

static int counted_end_cta(void *ctx, uint32_t kernel, uint32_t cta, ws_error *err)
{
    counted_sink *c = ctx;
    return c->inner.end_cta ? c->inner.end_cta(c->inner.ctx, kernel, cta, err) : 0;
}

static int counted_add_allocation(void *ctx, const wst_allocation *a, ws_error *err)
{
    counted_sink *c = ctx;
    return wst_sink_add_allocation(&c->inner, a, err);
}

int record_workload(const char *name, workload_size size, uint64_t seed, int flags,
                    const char *out_path, progress *bar, ws_error *err)
{
    const workload *w = workload_lookup(name, err);
    if (!w)
        return -1;
    char description[160];
    snprintf(description, sizeof description, "%s --size %s --seed %llu", w->name,
             workload_size_name(size), (unsigned long long)seed);
    wst_origin origin = {.collector = "emu", .collector_version = WARPSCOPE_VERSION,
                         .workload = description};
    wst_writer *writer = wst_writer_open(out_path, &origin, NULL, err);
    if (!writer)
        return -1;
    counted_sink counted = {.inner = wst_writer_sink(writer), .bar = bar};
    wst_sink sink = {.ctx = &counted, .add_kernel = counted_add_kernel, .add_pc = counted_add_pc,
                     .add_record = counted_add_record,
                     .end_cta = counted.inner.end_cta ? counted_end_cta : NULL,
                     .add_allocation = counted_add_allocation};
    /* The arena only reserves address space; pages are committed as used. */
    emu *e = emu_new(&sink, (size_t)16 << 30, err);
    if (e)
        emu_set_timing(e, (flags & RECORD_TIMING) != 0);
    int rc = e ? w->run(e, size, seed, (flags & RECORD_VERIFY) != 0, err) : -1;
    emu_free(e);
    if (rc != 0) {
        wst_writer_abort(writer);
        return -1;
    }
    return wst_writer_close(writer, err);
}
