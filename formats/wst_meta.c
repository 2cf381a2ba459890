/* formats/wst_meta.c: see wst_meta.h; the schema is in docs/trace-format.md. */
#include "formats/wst_meta.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "formats/wst.h"
#include "formats/wst_layout.h"
#include "formats/wst_meta_compact.h"
#include "formats/wst_meta_rules.h"
#include "util/grow.h"
#include "util/text.h"

static json_t *string_or_null(const char *s) { return s ? json_string(s) : json_null(); }

static json_t *dim3(wst_dim3 d) { return json_pack("[I,I,I]", (json_int_t)d.x, (json_int_t)d.y, (json_int_t)d.z); }

static json_t *allocations(const wst_trace *trace)
{
    json_t *list = json_array();
    for (uint32_t i = 0; i < trace->allocation_count; i++)
        json_array_append_new(list, json_pack("{s:I,s:I}", "base",
                                              (json_int_t)trace->allocations[i].base, "bytes",
                                              (json_int_t)trace->allocations[i].bytes));
    return list;
}

static json_t *kernel_json(const wst_kernel *kernel)
{
    json_t *pcs = json_array();
    for (uint32_t i = 0; i < kernel->pc_count; i++) {
        const wst_pc *pc = &kernel->pcs[i];
        json_array_append_new(pcs, json_pack("{s:I,s:o,s:o,s:I}", "offset",
                                             (json_int_t)pc->offset, "sass",
                                             string_or_null(pc->sass), "file",
                                             string_or_null(pc->file), "line",
                                             (json_int_t)pc->line));
    }
    json_t *k = json_pack("{s:o,s:o,s:o,s:I,s:I,s:I,s:[I,I,I],s:I,s:o}", "name",
                          string_or_null(kernel->name), "grid", dim3(kernel->grid), "block",
                          dim3(kernel->block), "shared_mem_bytes", (json_int_t)kernel->shared_mem_bytes,
                          "registers_per_thread", (json_int_t)kernel->registers_per_thread, "records",
                          (json_int_t)kernel->record_count, "records_by_kind",
                          (json_int_t)kernel->records_by_kind[0], (json_int_t)kernel->records_by_kind[1],
                          (json_int_t)kernel->records_by_kind[2], "ctas", (json_int_t)kernel->cta_count,
                          "pcs", pcs);
    if (k && kernel->has_timing) /* absent when the collector supplied none: costs nothing */
        json_object_set_new(k, "timing", json_true());
    return k;
}

char *wst_meta_kernel_entry(const wst_kernel *kernel)
{
    json_t *entry = kernel_json(kernel);
    char *dumped = entry ? json_dumps(entry, JSON_COMPACT) : NULL;
    json_decref(entry);
    return dumped;
}

char *wst_meta_outside(const wst_trace *trace, size_t *kernels_at)
{
    const wst_origin *o = &trace->origin;
    json_t *doc = json_pack("{s:s,s:i,s:{s:o,s:o,s:o,s:o},s:[]}", "format", "warpscope-trace",
                            "version", WST_VERSION, "origin", "collector",
                            string_or_null(o->collector), "collector_version",
                            string_or_null(o->collector_version), "gpu", string_or_null(o->gpu),
                            "workload", string_or_null(o->workload), "kernels");
    if (doc && trace->allocation_count) /* absent when the collector does not see them */
        json_object_set_new(doc, "allocations", allocations(trace));
    char *outside = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    const char *at = outside ? json_empty_array_at(outside, "kernels") : NULL;
    if (!at) {
        free(outside);
        return NULL;
    }
    *kernels_at = (size_t)(at - outside) + 1;
    return outside;
}

int wst_meta_by_kind_too_many(const wst_kernel *k, const char *where, ws_error *err)
{
    return ws_fail(err, "metadata: %s: records by kind add up to more than its %llu records", where,
                   (unsigned long long)k->record_count);
}

int wst_meta_check_by_kind(const wst_kernel *k, const char *where, ws_error *err)
{
    uint64_t sum = 0;
    for (int i = 0; i < 3; i++) {
        if (k->records_by_kind[i] > k->record_count - sum)
            return wst_meta_by_kind_too_many(k, where, err);
        sum += k->records_by_kind[i];
    }
    if (sum != k->record_count) /* every record is a load, a store or an atomic */
        return ws_fail(err, "metadata: %s: records by kind add up to %llu, not its %llu records",
                       where, (unsigned long long)sum, (unsigned long long)k->record_count);
    return 0;
}

int wst_meta_check_shape(const wst_kernel *k, const char *where, ws_error *err)
{
    if (!wst_grid_fits(k->grid))
        return ws_fail(err, "metadata: %s: grid (%u,%u,%u) has more than 2^32-1 CTAs", where,
                       k->grid.x, k->grid.y, k->grid.z);
    uint64_t threads = (uint64_t)k->block.x * k->block.y * k->block.z;
    if (threads > 65536)
        return ws_fail(err, "metadata: %s: block of %llu threads", where, (unsigned long long)threads);
    return 0;
}

static int get_u32(json_t *obj, const char *key, uint32_t *out, const char *where, ws_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || !wst_meta_count32_ok(json_integer_value(v)))
        return ws_fail(err, "metadata: %s: '%s' is not a 32-bit count", where, key);
    *out = (uint32_t)json_integer_value(v);
    return 0;
}

static int get_u64(json_t *obj, const char *key, uint64_t *out, const char *where, ws_error *err)
{
    json_t *v = json_object_get(obj, key);
    if (!json_is_integer(v) || json_integer_value(v) < 0)
        return ws_fail(err, "metadata: %s: '%s' is not a count", where, key);
    *out = (uint64_t)json_integer_value(v);
    return 0;
}

/* Optional string: absent or null gives NULL. */
static int get_string(json_t *obj, const char *key, char **out, const char *where, ws_error *err)
{
    json_t *v = json_object_get(obj, key);
    *out = NULL;
    if (!v || json_is_null(v))
        return 0;
    if (!json_is_string(v))
        return ws_fail(err, "metadata: %s: '%s' is not a string", where, key);
    *out = strdup(json_string_value(v));
    if (*out)
        ws_text_mend(*out); /* printed later: no control character reaches a terminal */
    return *out ? 0 : ws_fail(err, "out of memory");
}

static int get_dim3(json_t *obj, const char *key, wst_dim3 *out, const char *where, ws_error *err)
{
    json_t *v = json_object_get(obj, key);
    uint32_t d[3];
    if (!json_is_array(v) || json_array_size(v) != 3)
        return ws_fail(err, "metadata: %s: '%s' is not [x, y, z]", where, key);
    for (int i = 0; i < 3; i++) {
        json_t *e = json_array_get(v, (size_t)i);
        if (!json_is_integer(e) || !wst_meta_dimension_ok(json_integer_value(e)))
            return ws_fail(err, "metadata: %s: '%s' has a dimension outside 1..2^32-1", where, key);
        d[i] = (uint32_t)json_integer_value(e);
    }
    *out = (wst_dim3){d[0], d[1], d[2]};
    return 0;
}

static int decode_pc(json_t *jp, wst_pc *pc, const char *where, ws_error *err)
{
    if (!json_is_object(jp))
        return ws_fail(err, "metadata: %s is not an object", where);
    return get_u64(jp, "offset", &pc->offset, where, err) ||
                   get_string(jp, "sass", &pc->sass, where, err) ||
                   get_string(jp, "file", &pc->file, where, err) ||
                   get_u32(jp, "line", &pc->line, where, err)
               ? -1
               : 0;
}

/* The kernel's fields; its PC table is read elsewhere (add_pc). */
static int decode_kernel(json_t *jk, wst_kernel *k, uint32_t index, ws_error *err)
{
    char where[48];
    snprintf(where, sizeof where, "kernel %u", index);
    if (!json_is_object(jk))
        return ws_fail(err, "metadata: %s is not an object", where);
    json_t *by_kind = json_object_get(jk, "records_by_kind");
    if (get_string(jk, "name", &k->name, where, err) || get_dim3(jk, "grid", &k->grid, where, err) ||
        get_dim3(jk, "block", &k->block, where, err) ||
        get_u32(jk, "shared_mem_bytes", &k->shared_mem_bytes, where, err) ||
        get_u32(jk, "registers_per_thread", &k->registers_per_thread, where, err) ||
        get_u64(jk, "records", &k->record_count, where, err) ||
        get_u32(jk, "ctas", &k->cta_count, where, err))
        return -1;
    if (!json_is_array(by_kind) || json_array_size(by_kind) != 3)
        return ws_fail(err, "metadata: %s: 'records_by_kind' is not [loads, stores, atomics]", where);
    for (int i = 0; i < 3; i++) {
        json_t *e = json_array_get(by_kind, (size_t)i);
        if (!json_is_integer(e) || json_integer_value(e) < 0) /* the sum's message, as it cannot count */
            return wst_meta_by_kind_too_many(k, where, err);
        k->records_by_kind[i] = (uint64_t)json_integer_value(e);
    }
    if (wst_meta_check_by_kind(k, where, err) != 0)
        return -1;
    json_t *timing = json_object_get(jk, "timing"); /* version 4, optional */
    if (timing && !json_is_boolean(timing))
        return ws_fail(err, "metadata: %s: 'timing' is not true or false", where);
    k->has_timing = json_is_true(timing);
    if (wst_meta_check_shape(k, where, err) != 0)
        return -1;
    /* The table's entries were taken out as they were read (add_pc): an
     * empty array is left, or whatever else stood there. */
    json_t *pcs = json_object_get(jk, "pcs");
    if (!json_is_array(pcs) || json_array_size(pcs) != 0)
        return ws_fail(err, "metadata: %s: 'pcs' is not a PC table", where);
    return 0;
}

/* Optional: absent means the collector did not record allocations.  The
 * entries' ranges are checked where they are mapped (formats/alloc_map.c). */
static int decode_allocations(json_t *doc, wst_trace *trace, ws_error *err)
{
    json_t *list = json_object_get(doc, "allocations");
    if (!list)
        return 0;
    if (!json_is_array(list) || json_array_size(list) > WST_MAX_ALLOCATIONS)
        return ws_fail(err, "metadata: 'allocations' is not a list of at most %u allocations",
                       WST_MAX_ALLOCATIONS);
    size_t n = json_array_size(list);
    trace->allocations = calloc(n ? n : 1, sizeof *trace->allocations);
    if (!trace->allocations)
        return ws_fail(err, "out of memory");
    for (size_t i = 0; i < n; i++) {
        json_t *entry = json_array_get(list, i);
        char where[32];
        snprintf(where, sizeof where, "allocation %zu", i);
        wst_allocation *a = &trace->allocations[i];
        if (!json_is_object(entry))
            return ws_fail(err, "metadata: %s is not an object", where);
        if (get_u64(entry, "base", &a->base, where, err) ||
            get_u64(entry, "bytes", &a->bytes, where, err))
            return -1;
        trace->allocation_count++;
    }
    return 0;
}

/* The kernels as the metadata's text is read (util/json_stream.h): each
 * decoded and its JSON freed before the next, so a metadata of many
 * launches is never one JSON document in memory (issue 42). */
typedef struct kernel_list {
    wst_trace *trace;
    size_t capacity;
    /* The PC table of the kernel being read: its entries come one at a
     * time (json_stream_load_nested) before the kernel's own fields. */
    wst_kernel pending;
    size_t pc_capacity;
} kernel_list;

static int add_pc(void *ctx, size_t index, json_t *jp, ws_error *err)
{
    kernel_list *l = ctx;
    wst_kernel *k = &l->pending;
    char where[48];
    snprintf(where, sizeof where, "kernel %u PC %zu", l->trace->kernel_count, index);
    if (index >= WST_MAX_PCS_PER_KERNEL)
        return ws_fail(err, "metadata: kernel %u: 'pcs' is not a PC table of at most %u PCs",
                       l->trace->kernel_count, WST_MAX_PCS_PER_KERNEL);
    if (ws_grow((void **)&k->pcs, &l->pc_capacity, index + 1, sizeof *k->pcs) != 0)
        return ws_fail(err, "out of memory");
    memset(&k->pcs[index], 0, sizeof k->pcs[index]);
    k->pc_count++; /* counted first: an entry that fails half-read is freed with the rest */
    return decode_pc(jp, &k->pcs[index], where, err);
}

static int add_kernel(void *ctx, size_t index, json_t *jk, ws_error *err)
{
    kernel_list *l = ctx;
    wst_trace *trace = l->trace;
    if (index >= WST_MAX_KERNELS)
        return ws_fail(err, "metadata: more than %u kernels", WST_MAX_KERNELS);
    if (ws_grow((void **)&trace->kernels, &l->capacity, index + 1, sizeof *trace->kernels) != 0)
        return ws_fail(err, "out of memory");
    wst_kernel *k = &trace->kernels[index];
    memset(k, 0, sizeof *k);
    trace->kernel_count++; /* counted first: a kernel that fails half-read is freed with the rest */
    /* The kernel takes the PCs read for it (none: an empty table). */
    k->pcs = l->pending.pcs ? l->pending.pcs : calloc(1, sizeof *k->pcs);
    k->pc_count = l->pending.pc_count;
    l->pending = (wst_kernel){0};
    l->pc_capacity = 0;
    if (!k->pcs)
        return ws_fail(err, "out of memory");
    return decode_kernel(jk, k, (uint32_t)index, err);
}

/* The JSON reader (util/json_stream.h) of the text. */
static int decode_json(json_stream_read_fn read, void *read_ctx, unsigned version,
                       wst_trace *trace, ws_error *err)
{
    memset(trace, 0, sizeof *trace);
    /* a string's bytes as JSON writes them: a control character takes 6 */
    static const json_stream_limits limits = {JSON_REJECT_DUPLICATES, 6 * WST_MAX_STRING_BYTES};
    kernel_list list = {.trace = trace};
    json_t *doc = json_stream_load_nested(read, read_ctx, "kernels", add_kernel, &list, "pcs",
                                          add_pc, &limits, err);
    wst_kernel_clear(&list.pending); /* PCs of a kernel that did not end */
    int rc = -1;
    if (!doc) {
        if (strncmp(err->msg, "not JSON", 8) == 0 || strncmp(err->msg, "line ", 5) == 0)
            ws_fail_prefix(err, "metadata: "); /* the text's fault, not the reader's */
        goto out;
    }
    json_t *format = json_object_get(doc, "format");
    json_t *kernels = json_object_get(doc, "kernels");
    json_t *origin = json_object_get(doc, "origin");
    if (!json_is_string(format) || strcmp(json_string_value(format), "warpscope-trace") != 0) {
        ws_fail(err, "metadata: not a warpscope trace document");
        goto out;
    }
    /* The header's version is outside every checksum; the metadata's is
     * inside one, so a damaged header cannot pass for an older version. */
    json_t *written = json_object_get(doc, "version");
    if (!json_is_integer(written) || json_integer_value(written) != (json_int_t)version) {
        ws_fail(err, "metadata: format version does not match the header's (%u)", version);
        goto out;
    }
    if (!json_is_object(origin) || !json_is_array(kernels)) {
        ws_fail(err, "metadata: missing origin or kernel list");
        goto out;
    }
    wst_origin *o = &trace->origin;
    if (get_string(origin, "collector", &o->collector, "origin", err) ||
        get_string(origin, "collector_version", &o->collector_version, "origin", err) ||
        get_string(origin, "gpu", &o->gpu, "origin", err) ||
        get_string(origin, "workload", &o->workload, "origin", err))
        goto out;
    if (!trace->kernels && !(trace->kernels = calloc(1, sizeof *trace->kernels))) {
        ws_fail(err, "out of memory");
        goto out;
    }
    if (decode_allocations(doc, trace, err) != 0)
        goto out;
    rc = 0;
out:
    json_decref(doc);
    if (rc != 0)
        wst_trace_clear(trace);
    return rc;
}

/* The text's head, read whole to try the compact reader on it
 * (wst_meta_compact.h), then, when that declines, given to the JSON
 * reader before the rest of the text: the reads it makes, and so what it
 * reads and where a read fails, are those it would have made alone. */
typedef struct text_head {
    char *bytes;
    size_t len, capacity, at;
    int read_failed; /* the read after the head failed, with `failure` */
    ws_error failure;
    json_stream_read_fn read;
    void *read_ctx;
} text_head;

/* The compact reader is tried on texts of at most this many bytes (bfs's
 * is 14.7 KB): the head held whole is a bounded cost (issue 42). */
#define COMPACT_TEXT_MAX (1u << 20)
/* The JSON reader's block (json_stream_load_nested), so that the head is
 * read in the calls that reader would make. */
#define TEXT_BLOCK (1u << 16)

/* Reads up to COMPACT_TEXT_MAX + 1 bytes (more: not tried) into h; 1 when
 * the text ended within them, else 0 (longer, or a read failed). */
static int read_head(text_head *h)
{
    for (;;) {
        if (ws_grow((void **)&h->bytes, &h->capacity, h->len + TEXT_BLOCK, 1) != 0)
            return 0; /* the JSON reader reads the rest (and says so when memory is short) */
        ssize_t n = h->read(h->read_ctx, h->bytes + h->len, TEXT_BLOCK, &h->failure);
        if (n < 0) {
            h->read_failed = 1;
            return 0;
        }
        if (n == 0)
            return 1;
        h->len += (size_t)n;
        if (h->len > COMPACT_TEXT_MAX)
            return 0;
    }
}

/* The head, then the rest of the text (or the failed read's error). */
static ssize_t read_after_head(void *ctx, char *buf, size_t n, ws_error *err)
{
    text_head *h = ctx;
    if (h->at < h->len) {
        size_t take = h->len - h->at < n ? h->len - h->at : n;
        memcpy(buf, h->bytes + h->at, take);
        h->at += take;
        return (ssize_t)take;
    }
    if (h->read_failed) {
        *err = h->failure;
        return -1;
    }
    return h->read(h->read_ctx, buf, n, err);
}

int wst_meta_decode_stream(json_stream_read_fn read, void *read_ctx, unsigned version,
                           wst_trace *trace, ws_error *err)
{
    text_head head = {.read = read, .read_ctx = read_ctx};
    int rc;
    if (read_head(&head) && wst_meta_decode_compact(head.bytes, head.len, version, trace))
        rc = 0;
    else
        rc = decode_json(read_after_head, &head, version, trace, err);
    free(head.bytes);
    return rc;
}

typedef struct memory_text {
    const char *text;
    size_t left;
} memory_text;

static ssize_t read_memory(void *ctx, char *buf, size_t n, ws_error *err)
{
    (void)err;
    memory_text *m = ctx;
    size_t take = m->left < n ? m->left : n;
    memcpy(buf, m->text, take);
    m->text += take;
    m->left -= take;
    return (ssize_t)take;
}

int wst_meta_decode(const char *text, size_t len, unsigned version, wst_trace *trace,
                    ws_error *err)
{
    memory_text m = {text, len};
    return wst_meta_decode_stream(read_memory, &m, version, trace, err);
}
