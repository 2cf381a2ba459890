/* formats/trace_api.c: see trace_api.h.  A thin layer: it opens a
 * wst_reader, keeps the path for its messages, and copies decoded records
 * into the flat ws_api_record. */
#include "formats/trace_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/wst.h"
#include "util/demangle.h"

struct ws_api_trace {
    wst_reader *reader;
    char *path;
};

struct ws_api_cursor {
    ws_api_trace *trace;
    wst_cursor *cursor;
    const wst_record *batch;
    int64_t batch_count, batch_next;
    uint32_t batch_kernel;
};

static void say(char *err, size_t cap, const char *path, const char *msg)
{
    if (err && cap)
        snprintf(err, cap, "%s: %s", path ? path : "?", msg);
}

int ws_api_version(void) { return WS_API_VERSION; }

size_t ws_api_record_size(void) { return sizeof(ws_api_record); }

#define FIELD(f) {#f, offsetof(ws_api_record, f)}
static const struct {
    const char *name;
    size_t offset;
} record_fields[] = {
    FIELD(kernel), FIELD(cta),   FIELD(warp),      FIELD(pc_index), FIELD(pc_offset),
    FIELD(kind),   FIELD(space), FIELD(cache_op),  FIELD(size),     FIELD(mask),
    FIELD(sm),     FIELD(gap),   FIELD(waits),     FIELD(has_waits), FIELD(has_time),
    FIELD(reserved), FIELD(timestamp), FIELD(addr),
};

long ws_api_record_field_offset(const char *name)
{
    for (size_t i = 0; name && i < sizeof record_fields / sizeof record_fields[0]; i++)
        if (strcmp(record_fields[i].name, name) == 0)
            return (long)record_fields[i].offset;
    return -1;
}

ws_api_trace *ws_trace_open(const char *path, char *err, size_t err_cap)
{
    if (!path) {
        say(err, err_cap, "?", "no path given");
        return NULL;
    }
    ws_api_trace *t = calloc(1, sizeof *t);
    char *copy = strdup(path);
    if (!t || !copy) {
        free(t);
        free(copy);
        say(err, err_cap, path, "out of memory");
        return NULL;
    }
    ws_error e = {{0}};
    t->reader = wst_reader_open(path, &e);
    if (!t->reader) {
        say(err, err_cap, path, e.msg);
        free(copy);
        free(t);
        return NULL;
    }
    t->path = copy;
    return t;
}

void ws_trace_close(ws_api_trace *t)
{
    if (!t)
        return;
    wst_reader_close(t->reader);
    free(t->path);
    free(t);
}

static const wst_trace *model(const ws_api_trace *t) { return wst_reader_trace(t->reader); }

static const wst_kernel *kernel_at(const ws_api_trace *t, uint32_t k)
{
    return t && k < model(t)->kernel_count ? &model(t)->kernels[k] : NULL;
}

const char *ws_trace_origin(const ws_api_trace *t, const char *field)
{
    const wst_origin *o = &model(t)->origin;
    if (!field)
        return NULL;
    if (strcmp(field, "collector") == 0)
        return o->collector;
    if (strcmp(field, "collector_version") == 0)
        return o->collector_version;
    if (strcmp(field, "gpu") == 0)
        return o->gpu;
    if (strcmp(field, "workload") == 0)
        return o->workload;
    return NULL;
}

unsigned ws_trace_format_version(const ws_api_trace *t) { return wst_reader_version(t->reader); }

uint64_t ws_trace_file_bytes(const ws_api_trace *t) { return wst_reader_file_bytes(t->reader); }

uint32_t ws_trace_kernel_count(const ws_api_trace *t) { return model(t)->kernel_count; }

const char *ws_trace_kernel_name(const ws_api_trace *t, uint32_t k)
{
    const wst_kernel *kernel = kernel_at(t, k);
    return kernel ? kernel->name : NULL;
}

int ws_trace_kernel_dims(const ws_api_trace *t, uint32_t k, uint32_t grid[3], uint32_t block[3])
{
    const wst_kernel *kernel = kernel_at(t, k);
    if (!kernel)
        return -1;
    const wst_dim3 *dims[2] = {&kernel->grid, &kernel->block};
    uint32_t *out[2] = {grid, block};
    for (int i = 0; i < 2; i++) {
        out[i][0] = dims[i]->x;
        out[i][1] = dims[i]->y;
        out[i][2] = dims[i]->z;
    }
    return 0;
}

int ws_trace_kernel_counts(const ws_api_trace *t, uint32_t k, uint64_t counts[6],
                           uint32_t shape[2])
{
    const wst_kernel *kernel = kernel_at(t, k);
    if (!kernel)
        return -1;
    counts[0] = kernel->record_count;
    for (int i = 0; i < 3; i++)
        counts[1 + i] = kernel->records_by_kind[i];
    counts[4] = kernel->cta_count;
    counts[5] = kernel->pc_count;
    shape[0] = kernel->shared_mem_bytes;
    shape[1] = kernel->registers_per_thread;
    return 0;
}

uint32_t ws_trace_kernel_ctas(const ws_api_trace *t, uint32_t k, uint32_t *ids, uint32_t cap)
{
    uint32_t count = 0;
    const uint32_t *ctas = kernel_at(t, k) ? wst_reader_ctas(t->reader, k, &count) : NULL;
    if (ctas && ids)
        memcpy(ids, ctas, sizeof *ids * (count < cap ? count : cap));
    return count;
}

int ws_trace_pc(const ws_api_trace *t, uint32_t k, uint32_t i, uint64_t *offset,
                const char **sass, const char **file, uint32_t *line)
{
    const wst_kernel *kernel = kernel_at(t, k);
    if (!kernel || i >= kernel->pc_count)
        return -1;
    const wst_pc *pc = &kernel->pcs[i];
    *offset = pc->offset;
    *sass = pc->sass;
    *file = pc->file;
    *line = pc->line;
    return 0;
}

ws_api_cursor *ws_trace_cursor(ws_api_trace *t, uint32_t k, int64_t cta, char *err,
                               size_t err_cap)
{
    if (!kernel_at(t, k)) {
        say(err, err_cap, t ? t->path : NULL, "no such kernel");
        return NULL;
    }
    if (cta > UINT32_MAX) {
        say(err, err_cap, t->path, "CTA id out of range");
        return NULL;
    }
    ws_api_cursor *c = calloc(1, sizeof *c);
    if (!c) {
        say(err, err_cap, t->path, "out of memory");
        return NULL;
    }
    ws_error e = {{0}};
    c->trace = t;
    c->cursor = cta < 0 ? wst_cursor_kernel(t->reader, k, &e)
                        : wst_cursor_cta(t->reader, k, (uint32_t)cta, &e);
    if (!c->cursor) {
        say(err, err_cap, t->path, e.msg);
        free(c);
        return NULL;
    }
    return c;
}

static void flatten(const wst_trace *trace, uint32_t kernel, const wst_record *r,
                    ws_api_record *out)
{
    const wst_kernel *k = &trace->kernels[kernel];
    *out = (ws_api_record){
        .kernel = kernel,
        .cta = r->cta,
        .warp = r->warp,
        .pc_index = r->pc,
        .pc_offset = r->pc < k->pc_count ? k->pcs[r->pc].offset : 0,
        .kind = r->kind,
        .space = r->space,
        .cache_op = r->cache_op,
        .size = r->size,
        .mask = r->mask,
        .sm = r->has_sm ? (int32_t)r->sm : -1,
        .gap = r->gap,
        .waits = r->has_waits ? r->waits : 0,
        .has_waits = r->has_waits,
        .has_time = r->has_time,
        .timestamp = r->has_time ? r->timestamp : 0,
    };
    for (int lane = 0; lane < WST_WARP_SIZE; lane++)
        if (r->mask >> lane & 1)
            out->addr[lane] = r->addr[lane];
}

int64_t ws_cursor_read(ws_api_cursor *c, ws_api_record *out, size_t cap, char *err,
                       size_t err_cap)
{
    const wst_trace *trace = model(c->trace);
    size_t filled = 0;
    while (filled < cap) {
        if (c->batch_next == c->batch_count) {
            ws_error e = {{0}};
            int64_t n = wst_cursor_next_batch(c->cursor, &c->batch, &c->batch_kernel, &e);
            if (n < 0) {
                say(err, err_cap, c->trace->path, e.msg);
                return -1;
            }
            if (n == 0)
                break;
            c->batch_count = n;
            c->batch_next = 0;
        }
        flatten(trace, c->batch_kernel, &c->batch[c->batch_next++], &out[filled++]);
    }
    return (int64_t)filled;
}

void ws_cursor_close(ws_api_cursor *c)
{
    if (!c)
        return;
    wst_cursor_free(c->cursor);
    free(c);
}

void ws_demangle(const char *mangled, char *dst, size_t cap) { demangle_short(mangled, dst, cap); }
