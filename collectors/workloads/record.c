/* collectors/workloads/record.c: a workload, the emulator and the .wst
 * writer wired together (what `warpscope record --workload` does). */
#include <stdio.h>
#include <string.h>

#include "collectors/workloads/workloads.h"
#include "formats/wst.h"
#include "util/hash64.h"
#include "util/outset.h"
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
    uint64_t digest; /* record_digest summed over the records written */
} counted_sink;

/* One record's checksum: its kernel, place, instruction and the addresses
 * of its active lanes (what a reader must give back).  Summed over a
 * trace, it does not depend on the order in which CTAs are stored. */
static uint64_t record_digest(uint32_t kernel, const wst_record *r)
{
    uint64_t words[8 + WST_WARP_SIZE];
    size_t n = 0;
    words[n++] = kernel;
    words[n++] = r->cta;
    words[n++] = r->warp;
    words[n++] = r->pc;
    words[n++] = (uint64_t)r->kind | (uint64_t)r->space << 8 | (uint64_t)r->cache_op << 16 |
                 (uint64_t)r->size << 24;
    words[n++] = r->mask;
    for (int lane = 0; lane < WST_WARP_SIZE; lane++)
        if (r->mask >> lane & 1)
            words[n++] = r->addr[lane];
    return hash64(words, n * sizeof words[0], 0x7773745f726f756eULL);
}

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
    c->digest += record_digest(kernel, rec);
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

/* Reads the trace back whole: its kernels, CTAs, records and their digest. */
static int read_back(const char *path, record_check *check, ws_error *err)
{
    /* While the run's outputs wait to appear together, the trace is still
     * at its temporary name (util/outset.h). */
    wst_reader *r = wst_reader_open(ws_outset_path(path), err);
    if (!r)
        return -1;
    const wst_trace *t = wst_reader_trace(r);
    check->kernels = t->kernel_count;
    for (uint32_t k = 0; k < t->kernel_count; k++)
        check->ctas += t->kernels[k].cta_count;
    wst_cursor *c = wst_cursor_all(r, err);
    int64_t n = c ? 0 : -1;
    const wst_record *records;
    uint32_t kernel;
    while (c && (n = wst_cursor_next_batch(c, &records, &kernel, err)) > 0)
        for (int64_t i = 0; i < n; i++) {
            check->records_read++;
            check->digest_read += record_digest(kernel, &records[i]);
        }
    wst_cursor_free(c);
    wst_reader_close(r);
    return n < 0 ? -1 : 0;
}

int record_workload(const char *name, workload_size size, uint64_t seed, int flags,
                    const char *out_path, progress *bar, ws_error *err)
{
    return record_workload_checked(name, size, seed, flags, out_path, bar, NULL, err);
}

int record_workload_checked(const char *name, workload_size size, uint64_t seed, int flags,
                            const char *out_path, progress *bar, record_check *check, ws_error *err)
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
    if (wst_writer_close(writer, err) != 0)
        return -1;
    if (!check)
        return 0;
    memset(check, 0, sizeof *check);
    check->records_written = counted.records;
    check->digest_written = counted.digest;
    if (read_back(out_path, check, err) != 0)
        return -1;
    if (check->records_read != check->records_written ||
        check->digest_read != check->digest_written)
        return ws_fail(err, "read back %llu records of the %llu written, %s",
                       (unsigned long long)check->records_read,
                       (unsigned long long)check->records_written,
                       check->digest_read == check->digest_written ? "" : "with other contents");
    return 0;
}
