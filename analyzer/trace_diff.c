/* analyzer/trace_diff.c: see trace_diff.h. */
#include "analyzer/trace_diff.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/packed_record.h"
#include "util/demangle.h"

static const char *const field_names[DIFF_FIELDS] = {
    "kernels", "name", "grid", "block", "cta", "records", "pc",
    "kind",    "space", "size", "cache_op", "mask", "address"};

const char *diff_field_name(diff_field field)
{
    return (unsigned)field < DIFF_FIELDS ? field_names[field] : "?";
}

/* One trace's part: the kernel being compared and one CTA of it. */
typedef struct side {
    wst_reader *reader;
    const wst_trace *trace;
    const wst_kernel *kernel;
    cta_buffer cta;
    uint32_t *paired; /* DIFF_PCS_PAIRED, per PC: the other trace's PC + 1, 0 = none yet */
} side;

typedef struct differ {
    side sides[2];
    const diff_options *options;
    diff_report_fn report;
    void *ctx;
    diff_summary *summary;
    diff_event at; /* where the comparison is */
} differ;

static void report_text(differ *d, diff_field field, const char *a, const char *b)
{
    diff_event e = d->at;
    e.field = field;
    snprintf(e.a, sizeof e.a, "%s", a);
    snprintf(e.b, sizeof e.b, "%s", b);
    d->summary->by_field[field]++;
    d->summary->differences++;
    d->report(d->ctx, &e);
}

/* Both values printed by fmt, which takes one uint64_t. */
static void report_u64(differ *d, diff_field field, const char *fmt, uint64_t a, uint64_t b)
{
    char ta[32], tb[32];
    snprintf(ta, sizeof ta, fmt, a);
    snprintf(tb, sizeof tb, fmt, b);
    report_text(d, field, ta, tb);
}

/* ---- kernels ---- */

/* Names as the reports show them, demangled without parameters: the
 * emulator names kernels as C functions, a GPU reports them mangled. */
static int same_name(const char *a, const char *b)
{
    demangled da, db;
    int plain_a = demangle(a, &da) != 0, plain_b = demangle(b, &db) != 0;
    int same = strcmp(plain_a ? a : da.name, plain_b ? b : db.name) == 0;
    if (!plain_a)
        demangled_free(&da);
    if (!plain_b)
        demangled_free(&db);
    return same;
}

/* Reports a grid or block that differs; 1 if it does. */
static int dims_differ(differ *d, diff_field field, wst_dim3 a, wst_dim3 b)
{
    if (a.x == b.x && a.y == b.y && a.z == b.z)
        return 0;
    char ta[48], tb[48];
    snprintf(ta, sizeof ta, "(%u,%u,%u)", a.x, a.y, a.z);
    snprintf(tb, sizeof tb, "(%u,%u,%u)", b.x, b.y, b.z);
    report_text(d, field, ta, tb);
    return 1;
}

/* ---- records ---- */

static void compare_pcs(differ *d, const wst_record *ra, const wst_record *rb)
{
    const wst_pc *pa = &d->sides[0].kernel->pcs[ra->pc], *pb = &d->sides[1].kernel->pcs[rb->pc];
    if (d->options->pcs == DIFF_PCS_OFFSET) {
        if (pa->offset != pb->offset)
            report_u64(d, DIFF_PC, "0x%" PRIx64, pa->offset, pb->offset);
        return;
    }
    uint32_t *a_to_b = &d->sides[0].paired[ra->pc], *b_to_a = &d->sides[1].paired[rb->pc];
    if (!*a_to_b && !*b_to_a) { /* first meeting: they pair */
        *a_to_b = rb->pc + 1;
        *b_to_a = ra->pc + 1;
        return;
    }
    if (*a_to_b == rb->pc + 1 && *b_to_a == ra->pc + 1)
        return;
    char ta[64], tb[64];
    int n = snprintf(ta, sizeof ta, "0x%" PRIx64, pa->offset);
    if (*a_to_b)
        snprintf(ta + n, sizeof ta - (size_t)n, " (paired with 0x%" PRIx64 ")",
                 d->sides[1].kernel->pcs[*a_to_b - 1].offset);
    n = snprintf(tb, sizeof tb, "0x%" PRIx64, pb->offset);
    if (*b_to_a)
        snprintf(tb + n, sizeof tb - (size_t)n, " (paired with 0x%" PRIx64 ")",
                 d->sides[0].kernel->pcs[*b_to_a - 1].offset);
    report_text(d, DIFF_PC, ta, tb);
}

typedef enum { KEY_RAW, KEY_ALLOCATION, KEY_SHAPE } key_kind;

/* What is compared of one lane's address (docs/diff.md). */
typedef struct address_key {
    key_kind kind;
    uint64_t value;  /* the address; the ordinal; the distance from the lowest lane */
    uint64_t offset; /* inside the allocation */
} address_key;

static address_key key_of(const differ *d, int s, const wst_record *r, int lane)
{
    uint64_t address = r->addr[lane];
    /* Local memory is per thread, laid out by the collector: only its
     * pattern across the lanes is the workload's. */
    if (d->summary->addresses == DIFF_SHAPE || r->space == WST_LOCAL)
        return (address_key){KEY_SHAPE, address - r->addr[__builtin_ctz(r->mask)], 0};
    uint32_t ordinal;
    uint64_t offset;
    if (d->summary->addresses == DIFF_BY_ALLOCATION &&
        wst_reader_allocation_of(d->sides[s].reader, address, &ordinal, &offset))
        return (address_key){KEY_ALLOCATION, ordinal, offset};
    return (address_key){KEY_RAW, address, 0};
}

static void format_key(address_key k, char *buf, size_t cap)
{
    if (k.kind == KEY_ALLOCATION) {
        snprintf(buf, cap, "alloc#%" PRIu64 "+0x%" PRIx64, k.value, k.offset);
    } else if (k.kind == KEY_SHAPE) {
        int below = (int64_t)k.value < 0;
        snprintf(buf, cap, "base%c0x%" PRIx64, below ? '-' : '+', below ? 0 - k.value : k.value);
    } else {
        snprintf(buf, cap, "0x%" PRIx64, k.value);
    }
}

/* The first lane active in both whose addresses differ. */
static void compare_addresses(differ *d, const wst_record *ra, const wst_record *rb)
{
    for (uint32_t bits = ra->mask & rb->mask; bits; bits &= bits - 1) {
        int lane = __builtin_ctz(bits);
        address_key ka = key_of(d, 0, ra, lane), kb = key_of(d, 1, rb, lane);
        if (ka.kind == kb.kind && ka.value == kb.value && ka.offset == kb.offset)
            continue;
        char ta[48], tb[48];
        format_key(ka, ta, sizeof ta);
        format_key(kb, tb, sizeof tb);
        d->at.lane = lane;
        report_text(d, DIFF_ADDRESS, ta, tb);
        d->at.lane = -1;
        return;
    }
}

static void compare_record(differ *d, const wst_record *ra, const wst_record *rb)
{
    uint64_t before = d->summary->differences;
    compare_pcs(d, ra, rb);
    if (ra->kind != rb->kind)
        report_text(d, DIFF_KIND, wst_kind_name(ra->kind), wst_kind_name(rb->kind));
    if (ra->space != rb->space)
        report_text(d, DIFF_SPACE, wst_space_name(ra->space), wst_space_name(rb->space));
    if (ra->size != rb->size)
        report_u64(d, DIFF_SIZE, "%" PRIu64 " B", ra->size, rb->size);
    /* Only when both recorded one: a collector that records none means
     * "unknown", not `ca`. */
    if (ra->cache_op && rb->cache_op && ra->cache_op != rb->cache_op)
        report_text(d, DIFF_CACHE_OP, wst_cache_op_name(ra->cache_op),
                    wst_cache_op_name(rb->cache_op));
    if (ra->mask != rb->mask)
        report_u64(d, DIFF_MASK, "0x%08" PRIx64, ra->mask, rb->mask);
    compare_addresses(d, ra, rb);
    d->summary->records_compared++;
    d->summary->records_differing += d->summary->differences != before;
}

/* ---- CTAs and warps ---- */

static int compare_cta(differ *d, uint32_t kernel, uint32_t cta, int *bad, ws_error *err)
{
    for (int s = 0; s < 2; s++)
        if (cta_buffer_read(&d->sides[s].cta, d->sides[s].reader, kernel, cta, err) != 0) {
            *bad = s;
            return -1;
        }
    d->summary->ctas_compared++;
    const cta_buffer *a = &d->sides[0].cta, *b = &d->sides[1].cta;
    for (uint32_t w = 0; w < a->warps; w++) {
        uint32_t na = a->starts[w + 1] - a->starts[w], nb = b->starts[w + 1] - b->starts[w];
        if (!na && !nb)
            continue;
        d->summary->warps_compared++;
        d->at.warp = w;
        if (na != nb) {
            report_u64(d, DIFF_RECORDS, "%" PRIu64, na, nb);
            d->summary->left_out[0] += na - (na < nb ? na : nb);
            d->summary->left_out[1] += nb - (na < nb ? na : nb);
        }
        for (uint32_t i = 0; i < na && i < nb; i++) {
            wst_record ra, rb;
            packed_cta_expand(&a->records, a->starts[w] + i, cta, &ra);
            packed_cta_expand(&b->records, b->starts[w] + i, cta, &rb);
            d->at.record = i;
            compare_record(d, &ra, &rb);
        }
        d->at.record = -1;
    }
    d->at.warp = -1;
    return 0;
}

/* A CTA with records in trace s only. */
static int cta_in_one(differ *d, int s, uint32_t kernel, uint32_t cta, int *bad, ws_error *err)
{
    wst_cursor *c = wst_cursor_cta(d->sides[s].reader, kernel, cta, err);
    if (!c) {
        *bad = s;
        return -1;
    }
    uint64_t records = wst_cursor_records_left(c);
    wst_cursor_free(c);
    char text[32];
    snprintf(text, sizeof text, "%" PRIu64 " records", records);
    report_text(d, DIFF_CTA, s == 0 ? text : "none", s == 0 ? "none" : text);
    d->summary->left_out[s] += records;
    return 0;
}

/* CTAs of both traces in id order, merging their sorted lists. */
static int compare_ctas(differ *d, uint32_t kernel, int *bad, ws_error *err)
{
    uint32_t na, nb, i = 0, j = 0;
    const uint32_t *ca = wst_reader_ctas(d->sides[0].reader, kernel, &na);
    const uint32_t *cb = wst_reader_ctas(d->sides[1].reader, kernel, &nb);
    int rc = 0;
    while (rc == 0 && (i < na || j < nb)) {
        if (j == nb || (i < na && ca[i] < cb[j])) {
            d->at.cta = ca[i];
            rc = cta_in_one(d, 0, kernel, ca[i++], bad, err);
        } else if (i == na || cb[j] < ca[i]) {
            d->at.cta = cb[j];
            rc = cta_in_one(d, 1, kernel, cb[j++], bad, err);
        } else {
            d->at.cta = ca[i];
            rc = compare_cta(d, kernel, ca[i], bad, err);
            i++, j++;
        }
    }
    d->at.cta = -1;
    return rc;
}

static int compare_kernel(differ *d, uint32_t k, int *bad, ws_error *err)
{
    const wst_kernel *ka = &d->sides[0].trace->kernels[k], *kb = &d->sides[1].trace->kernels[k];
    d->at = (diff_event){.kernel = k, .cta = -1, .warp = -1, .record = -1, .lane = -1};
    if (ka->name && kb->name && !same_name(ka->name, kb->name)) {
        char ta[128], tb[128];
        demangle_short(ka->name, ta, sizeof ta);
        demangle_short(kb->name, tb, sizeof tb);
        report_text(d, DIFF_NAME, ta, tb);
    }
    /* Another shape numbers CTAs and warps otherwise: nothing below matches. */
    int grid = dims_differ(d, DIFF_GRID, ka->grid, kb->grid);
    int block = dims_differ(d, DIFF_BLOCK, ka->block, kb->block);
    if (grid || block) {
        d->summary->left_out[0] += ka->record_count;
        d->summary->left_out[1] += kb->record_count;
        return 0;
    }
    d->summary->kernels_compared++;
    uint32_t warps = (ka->block.x * ka->block.y * ka->block.z + WST_WARP_SIZE - 1) / WST_WARP_SIZE;
    int rc = 0;
    for (int s = 0; s < 2 && rc == 0; s++) {
        side *sd = &d->sides[s];
        sd->kernel = s == 0 ? ka : kb;
        rc = cta_buffer_init(&sd->cta, warps, err);
        if (rc == 0 && !(sd->paired = calloc(sd->kernel->pc_count + 1, sizeof *sd->paired)))
            rc = ws_fail(err, "out of memory");
    }
    if (rc == 0)
        rc = compare_ctas(d, k, bad, err);
    for (int s = 0; s < 2; s++) {
        cta_buffer_free(&d->sides[s].cta);
        free(d->sides[s].paired);
        d->sides[s].paired = NULL;
    }
    return rc;
}

int trace_diff(wst_reader *const traces[2], const diff_options *options, diff_report_fn report,
               void *ctx, diff_summary *summary, int *bad, ws_error *err)
{
    memset(summary, 0, sizeof *summary);
    differ d = {.options = options, .report = report, .ctx = ctx, .summary = summary};
    for (int s = 0; s < 2; s++) {
        side *sd = &d.sides[s];
        sd->reader = traces[s];
        sd->trace = wst_reader_trace(traces[s]);
        summary->kernels[s] = sd->trace->kernel_count;
        summary->allocations[s] = sd->trace->allocation_count;
    }
    summary->addresses = options->ignore_bases                            ? DIFF_SHAPE
                         : summary->allocations[0] && summary->allocations[1] ? DIFF_BY_ALLOCATION
                                                                             : DIFF_RAW;
    uint32_t common = summary->kernels[0] < summary->kernels[1] ? summary->kernels[0]
                                                                 : summary->kernels[1];
    d.at = (diff_event){.kernel = -1, .cta = -1, .warp = -1, .record = -1, .lane = -1};
    if (summary->kernels[0] != summary->kernels[1]) {
        report_u64(&d, DIFF_KERNELS, "%" PRIu64, summary->kernels[0], summary->kernels[1]);
        for (int s = 0; s < 2; s++)
            for (uint32_t k = common; k < summary->kernels[s]; k++)
                summary->left_out[s] += d.sides[s].trace->kernels[k].record_count;
    }
    int rc = 0;
    for (uint32_t k = 0; k < common && rc == 0; k++)
        rc = compare_kernel(&d, k, bad, err);
    return rc;
}
