/* formats/wst_meta_compact.c: see wst_meta_compact.h; the document's
 * schema is docs/trace-format.md, "Metadata", and its order of keys that
 * of wst_meta_outside and wst_meta_kernel_entry (formats/wst_meta.c). */
#include "formats/wst_meta_compact.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formats/wst_layout.h"
#include "formats/wst_meta_rules.h"
#include "util/grow.h"
#include "util/text.h"

typedef struct cursor {
    const char *p, *end;
} cursor;

/* Each reader below returns 1 when the text at c is in the writer's form
 * (c moved past it), else 0. */

static int literal(cursor *c, const char *text, size_t len)
{
    if ((size_t)(c->end - c->p) < len || memcmp(c->p, text, len) != 0)
        return 0;
    c->p += len;
    return 1;
}
#define LITERAL(c, text) literal(c, text, sizeof text - 1)

/* A non-negative integer as jansson dumps one: no sign, no leading zero,
 * at most 2^63 - 1 (jansson's integers; 19 digits cannot wrap 64 bits). */
static int count(cursor *c, uint64_t *out)
{
    const char *p = c->p;
    uint64_t v = 0;
    while (p < c->end && *p >= '0' && *p <= '9' && p - c->p < 20)
        v = v * 10 + (uint64_t)(*p++ - '0');
    size_t digits = (size_t)(p - c->p);
    if (digits == 0 || digits > 19 || (digits > 1 && *c->p == '0') || v > INT64_MAX)
        return 0;
    if (p < c->end && (*p == '.' || *p == 'e' || *p == 'E')) /* a real number */
        return 0;
    c->p = p;
    *out = v;
    return 1;
}

static int count32(cursor *c, uint32_t *out)
{
    uint64_t v;
    if (!count(c, &v) || !wst_meta_count32_ok((long long)v))
        return 0;
    *out = (uint32_t)v;
    return 1;
}

/* A string of printable ASCII (and DEL) without escapes, at most the JSON
 * reader's limit long (6 × WST_MAX_STRING_BYTES as written), malloc'd and
 * mended as the JSON reader mends it; `null` gives NULL. */
static int text_or_null(cursor *c, char **out)
{
    *out = NULL;
    if (LITERAL(c, "null"))
        return 1;
    if (c->p == c->end || *c->p != '"')
        return 0;
    const char *start = ++c->p;
    while (c->p < c->end && *c->p != '"') {
        unsigned char b = (unsigned char)*c->p++;
        if (b < 0x20 || b >= 0x80 || b == '\\')
            return 0;
    }
    size_t len = (size_t)(c->p - start);
    if (c->p == c->end || len > 6 * (size_t)WST_MAX_STRING_BYTES || !(*out = malloc(len + 1)))
        return 0;
    c->p++;
    memcpy(*out, start, len);
    (*out)[len] = '\0';
    ws_text_mend(*out); /* printed later: as the JSON reader leaves it */
    return 1;
}

static int dim3(cursor *c, wst_dim3 *out)
{
    uint64_t d[3];
    for (int i = 0; i < 3; i++)
        if (!literal(c, i ? "," : "[", 1) || !count(c, &d[i]) ||
            !wst_meta_dimension_ok((long long)d[i]))
            return 0;
    *out = (wst_dim3){(uint32_t)d[0], (uint32_t)d[1], (uint32_t)d[2]};
    return LITERAL(c, "]");
}

/* `[` then elements read by `element` until `]`, at most `limit`. */
typedef int (*element_fn)(cursor *c, void *ctx, size_t index);

static int list(cursor *c, size_t limit, element_fn element, void *ctx, size_t *n)
{
    *n = 0;
    if (!LITERAL(c, "["))
        return 0;
    if (LITERAL(c, "]"))
        return 1;
    do {
        if (*n >= limit || !element(c, ctx, *n))
            return 0;
        ++*n;
    } while (LITERAL(c, ","));
    return LITERAL(c, "]");
}

/* A table being read (a kernel's PCs, the trace's kernels): its array,
 * count and capacity. */
typedef struct table {
    void **array;
    uint32_t *count;
    size_t capacity;
} table;

/* Entry `index` of t, zeroed and counted (counted first: an entry that
 * fails half-read is freed with the rest); NULL out of memory. */
static void *table_entry(table *t, size_t index, size_t size)
{
    if (ws_grow(t->array, &t->capacity, index + 1, size) != 0)
        return NULL;
    void *entry = (char *)*t->array + index * size;
    memset(entry, 0, size);
    ++*t->count;
    return entry;
}

static int pc_entry(cursor *c, void *ctx, size_t index)
{
    wst_pc *pc = table_entry(ctx, index, sizeof *pc);
    return pc && LITERAL(c, "{\"offset\":") && count(c, &pc->offset) &&
           LITERAL(c, ",\"sass\":") && text_or_null(c, &pc->sass) && LITERAL(c, ",\"file\":") &&
           text_or_null(c, &pc->file) && LITERAL(c, ",\"line\":") && count32(c, &pc->line) &&
           LITERAL(c, "}");
}

static int kernel_entry(cursor *c, void *ctx, size_t index)
{
    wst_kernel *k = table_entry(ctx, index, sizeof *k);
    if (!k)
        return 0;
    ws_error ignored;
    table pcs = {(void **)&k->pcs, &k->pc_count, 0};
    size_t pc_count;
    if (!(LITERAL(c, "{\"name\":") && text_or_null(c, &k->name) && LITERAL(c, ",\"grid\":") &&
          dim3(c, &k->grid) && LITERAL(c, ",\"block\":") && dim3(c, &k->block) &&
          LITERAL(c, ",\"shared_mem_bytes\":") && count32(c, &k->shared_mem_bytes) &&
          LITERAL(c, ",\"registers_per_thread\":") && count32(c, &k->registers_per_thread) &&
          LITERAL(c, ",\"records\":") && count(c, &k->record_count) &&
          LITERAL(c, ",\"records_by_kind\":[") && count(c, &k->records_by_kind[0]) &&
          LITERAL(c, ",") && count(c, &k->records_by_kind[1]) && LITERAL(c, ",") &&
          count(c, &k->records_by_kind[2]) && LITERAL(c, "],\"ctas\":") &&
          count32(c, &k->cta_count) && LITERAL(c, ",\"pcs\":") &&
          list(c, WST_MAX_PCS_PER_KERNEL, pc_entry, &pcs, &pc_count)))
        return 0;
    k->has_timing = (uint8_t)LITERAL(c, ",\"timing\":true");
    if (!k->pcs && !(k->pcs = calloc(1, sizeof *k->pcs))) /* an empty table, as the JSON reader's */
        return 0;
    return LITERAL(c, "}") && wst_meta_check_by_kind(k, "", &ignored) == 0 &&
           wst_meta_check_shape(k, "", &ignored) == 0;
}

static int allocation_entry(cursor *c, void *ctx, size_t index)
{
    wst_allocation *a = &((wst_allocation *)ctx)[index];
    return LITERAL(c, "{\"base\":") && count(c, &a->base) && LITERAL(c, ",\"bytes\":") &&
           count(c, &a->bytes) && LITERAL(c, "}");
}

/* `,"allocations":[...]`: as many entries as there are commas at its
 * depth at most, so the table is sized before it is read. */
static int allocations(cursor *c, wst_trace *trace)
{
    if (!LITERAL(c, ",\"allocations\":"))
        return 1; /* absent: the collector did not record them */
    size_t most = 1;
    for (const char *p = c->p; p < c->end; p++)
        most += *p == ',';
    if (most > WST_MAX_ALLOCATIONS)
        most = WST_MAX_ALLOCATIONS;
    size_t n;
    if (!(trace->allocations = calloc(most, sizeof *trace->allocations)) ||
        !list(c, most, allocation_entry, trace->allocations, &n))
        return 0;
    trace->allocation_count = (uint32_t)n;
    return 1;
}

static int document(cursor *c, unsigned version, wst_trace *trace)
{
    uint64_t written;
    wst_origin *o = &trace->origin;
    table kernels = {(void **)&trace->kernels, &trace->kernel_count, 0};
    size_t kernel_count;
    if (!(LITERAL(c, "{\"format\":\"warpscope-trace\",\"version\":") && count(c, &written) &&
          written == version && LITERAL(c, ",\"origin\":{\"collector\":") &&
          text_or_null(c, &o->collector) && LITERAL(c, ",\"collector_version\":") &&
          text_or_null(c, &o->collector_version) && LITERAL(c, ",\"gpu\":") &&
          text_or_null(c, &o->gpu) && LITERAL(c, ",\"workload\":") &&
          text_or_null(c, &o->workload) && LITERAL(c, "},\"kernels\":") &&
          list(c, WST_MAX_KERNELS, kernel_entry, &kernels, &kernel_count)))
        return 0;
    if (!trace->kernels && !(trace->kernels = calloc(1, sizeof *trace->kernels)))
        return 0;
    return allocations(c, trace) && LITERAL(c, "}") && c->p == c->end;
}

int wst_meta_decode_compact(const char *text, size_t len, unsigned version, wst_trace *trace)
{
    memset(trace, 0, sizeof *trace);
    cursor c = {text, text + len};
    if (document(&c, version, trace))
        return 1;
    wst_trace_clear(trace);
    return 0;
}
