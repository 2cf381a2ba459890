/* tests/test_wst_meta_compact.c: the reader of the writer's compact
 * metadata (formats/wst_meta_compact.h) against the JSON reader, on random
 * documents as the writer dumps them and on mutations of them: whatever
 * the compact reader takes, the JSON reader takes too and fills the same
 * trace; the writer's own text it always takes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/wst.h"
#include "formats/wst_meta.h"
#include "formats/wst_meta_compact.h"
#include "tests/trace_gen.h"

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static void expect_same_trace(const wst_trace *a, const wst_trace *b, const char *text)
{
    cr_assert(same_text(a->origin.collector, b->origin.collector) &&
                  same_text(a->origin.collector_version, b->origin.collector_version) &&
                  same_text(a->origin.gpu, b->origin.gpu) &&
                  same_text(a->origin.workload, b->origin.workload),
              "origin: %s", text);
    cr_assert_eq(a->kernel_count, b->kernel_count, "%s", text);
    cr_assert_not_null(a->kernels);
    cr_assert_not_null(b->kernels);
    for (uint32_t k = 0; k < a->kernel_count; k++) {
        const wst_kernel *x = &a->kernels[k], *y = &b->kernels[k];
        cr_assert(same_text(x->name, y->name) && memcmp(&x->grid, &y->grid, sizeof x->grid) == 0 &&
                      memcmp(&x->block, &y->block, sizeof x->block) == 0 &&
                      x->shared_mem_bytes == y->shared_mem_bytes &&
                      x->registers_per_thread == y->registers_per_thread &&
                      x->record_count == y->record_count &&
                      memcmp(x->records_by_kind, y->records_by_kind, sizeof x->records_by_kind) == 0 &&
                      x->cta_count == y->cta_count && x->has_timing == y->has_timing &&
                      x->pc_count == y->pc_count,
                  "kernel %u: %s", k, text);
        cr_assert_not_null(x->pcs);
        cr_assert_not_null(y->pcs);
        for (uint32_t i = 0; i < x->pc_count; i++)
            cr_assert(x->pcs[i].offset == y->pcs[i].offset && x->pcs[i].line == y->pcs[i].line &&
                          same_text(x->pcs[i].sass, y->pcs[i].sass) &&
                          same_text(x->pcs[i].file, y->pcs[i].file),
                      "kernel %u PC %u: %s", k, i, text);
    }
    cr_assert_eq(a->allocation_count, b->allocation_count, "%s", text);
    cr_assert_eq(a->allocations == NULL, b->allocations == NULL, "%s", text);
    for (uint32_t i = 0; i < a->allocation_count; i++)
        cr_assert(a->allocations[i].base == b->allocations[i].base &&
                      a->allocations[i].bytes == b->allocations[i].bytes,
                  "allocation %u: %s", i, text);
}

/* A string: mostly printable ASCII, at times a character the writer
 * escapes or a non-ASCII one, or NULL. */
static char *random_text(uint64_t *rng)
{
    if (test_rand(rng) % 5 == 0)
        return NULL;
    static const char odd[] = {'"', '\\', '\n', 0x7f, 0x01, '/'};
    size_t len = test_rand(rng) % 12;
    char *s = malloc(len + 3);
    cr_assert_not_null(s);
    size_t n = 0;
    for (size_t i = 0; i < len; i++)
        s[n++] = test_rand(rng) % 128 ? (char)(' ' + test_rand(rng) % 95)
                                     : odd[test_rand(rng) % sizeof odd];
    if (test_rand(rng) % 64 == 0) { /* é in UTF-8 */
        s[n++] = (char)0xc3;
        s[n++] = (char)0xa9;
    }
    s[n] = '\0';
    return s;
}

/* A value of each kind of field, at times outside its rule. */
static uint64_t random_count(uint64_t *rng)
{
    switch (test_rand(rng) % 16) {
    case 0: return 0;
    case 1: return UINT32_MAX;
    case 2: return (uint64_t)UINT32_MAX + 1;
    case 3: return test_rand(rng) >> 1; /* below 2^63: 19 digits at times */
    case 4: return INT64_MAX;
    default: return test_rand(rng) % 1000;
    }
}

static uint32_t random_dim(uint64_t *rng)
{
    return test_rand(rng) % 48 ? 1 + (uint32_t)(test_rand(rng) % 64)
                              : (uint32_t)(test_rand(rng) % 2 ? 0 : 70000 + test_rand(rng) % 9);
}

static void random_trace(uint64_t *rng, wst_trace *t)
{
    memset(t, 0, sizeof *t);
    t->origin = (wst_origin){random_text(rng), random_text(rng), random_text(rng), random_text(rng)};
    t->kernel_count = (uint32_t)(test_rand(rng) % 4);
    t->kernels = calloc(t->kernel_count + 1, sizeof *t->kernels);
    for (uint32_t k = 0; k < t->kernel_count; k++) {
        wst_kernel *x = &t->kernels[k];
        x->name = random_text(rng);
        x->grid = (wst_dim3){random_dim(rng), random_dim(rng), random_dim(rng)};
        x->block = (wst_dim3){random_dim(rng), random_dim(rng), 1};
        x->shared_mem_bytes = (uint32_t)random_count(rng);
        x->registers_per_thread = (uint32_t)(test_rand(rng) % 64);
        for (int i = 0; i < 3; i++)
            x->records_by_kind[i] = test_rand(rng) % 8 ? test_rand(rng) % 100 : random_count(rng);
        x->record_count = x->records_by_kind[0] + x->records_by_kind[1] + x->records_by_kind[2] +
                          (test_rand(rng) % 16 == 0); /* at times one past the sum */
        x->cta_count = (uint32_t)(test_rand(rng) % 9);
        x->has_timing = (uint8_t)(test_rand(rng) % 2);
        x->pc_count = (uint32_t)(test_rand(rng) % 5);
        x->pcs = calloc(x->pc_count + 1, sizeof *x->pcs);
        for (uint32_t i = 0; i < x->pc_count; i++)
            x->pcs[i] = (wst_pc){random_count(rng), random_text(rng), random_text(rng),
                                 (uint32_t)(test_rand(rng) % 500)};
    }
    if (test_rand(rng) % 2) {
        t->allocation_count = (uint32_t)(1 + test_rand(rng) % 3);
        t->allocations = calloc(t->allocation_count, sizeof *t->allocations);
        for (uint32_t i = 0; i < t->allocation_count; i++)
            t->allocations[i] = (wst_allocation){random_count(rng), random_count(rng)};
    }
}

/* The text as the writer composes it (formats/wst_write.c): the outside,
 * the kernels' entries comma-separated inside its "kernels" array. */
static char *writer_text(const wst_trace *t)
{
    size_t at = 0;
    char *outside = wst_meta_outside(t, &at);
    cr_assert_not_null(outside);
    size_t cap = strlen(outside) + 1, len = at;
    char *text = malloc(cap);
    memcpy(text, outside, at);
    for (uint32_t k = 0; k < t->kernel_count; k++) {
        char *entry = wst_meta_kernel_entry(&t->kernels[k]);
        cr_assert_not_null(entry);
        cap += strlen(entry) + 1;
        text = realloc(text, cap);
        if (k)
            text[len++] = ',';
        memcpy(text + len, entry, strlen(entry));
        len += strlen(entry);
        free(entry);
    }
    strcpy(text + len, outside + at);
    free(outside);
    return text;
}

/* The compact reader's answer on text against the JSON reader's (the same
 * text and a trailing blank, which the compact form has not).  Returns
 * whether the compact reader took it. */
static int compare_readers(const char *text, size_t len)
{
    char *spaced = malloc(len + 2);
    memcpy(spaced, text, len);
    spaced[len] = ' ';
    spaced[len + 1] = '\0';
    wst_trace fast, json;
    ws_error err = {{0}};
    int taken = wst_meta_decode_compact(text, len, WST_VERSION, &fast);
    int json_rc = wst_meta_decode(spaced, len + 1, WST_VERSION, &json, &err);
    if (taken) {
        cr_assert_eq(json_rc, 0, "compact took what JSON refuses (%s): %.*s", err.msg, (int)len,
                     text);
        expect_same_trace(&fast, &json, spaced);
        wst_trace_clear(&fast);
    }
    if (json_rc == 0)
        wst_trace_clear(&json);
    free(spaced);
    return taken;
}

Test(wst_meta_compact, takes_what_the_json_reader_takes_and_fills_the_same_trace)
{
    uint64_t rng = 42;
    int taken = 0, plain = 0;
    for (int round = 0; round < 400; round++) {
        wst_trace t;
        random_trace(&rng, &t);
        char *text = writer_text(&t);
        size_t len = strlen(text);
        /* The writer's form with nothing escaped: the compact reader must
         * take it whenever the JSON reader does. */
        int escaped = strchr(text, '\\') != NULL;
        for (const char *p = text; *p && !escaped; p++)
            escaped = (unsigned char)*p >= 0x80;
        int took = compare_readers(text, len);
        if (!escaped) {
            wst_trace json;
            ws_error err = {{0}};
            char *spaced = malloc(len + 2);
            snprintf(spaced, len + 2, "%s ", text);
            if (wst_meta_decode(spaced, len + 1, WST_VERSION, &json, &err) == 0) {
                cr_expect(took, "the writer's text declined: %s", text);
                wst_trace_clear(&json);
                plain++;
            }
            free(spaced);
        }
        taken += took;
        /* Mutations: a byte changed, dropped or doubled. */
        for (int m = 0; m < 30 && len > 0; m++) {
            char *copy = malloc(len + 2);
            memcpy(copy, text, len + 1);
            size_t at = (size_t)(test_rand(&rng) % len), n = len;
            static const char bytes[] = "0123456789,:{}[]\"-.e tn";
            switch (test_rand(&rng) % 3) {
            case 0: copy[at] = bytes[test_rand(&rng) % (sizeof bytes - 1)]; break;
            case 1: memmove(copy + at, copy + at + 1, len - at), n--; break;
            default: memmove(copy + at + 1, copy + at, len - at + 1), n++; break;
            }
            taken += compare_readers(copy, n);
            free(copy);
        }
        free(text);
        wst_trace_clear(&t);
    }
    cr_expect_gt(plain, 100, "too few documents the JSON reader takes: %d", plain);
    cr_expect_gt(taken, plain, "the mutations were never taken: %d", taken);
}

Test(wst_meta_compact, declines_what_the_json_reader_refuses)
{
    static const char *const refused[] = {
        /* the version differs from the header's */
        "{\"format\":\"warpscope-trace\",\"version\":1,\"origin\":{\"collector\":null,"
        "\"collector_version\":null,\"gpu\":null,\"workload\":null},\"kernels\":[]}",
        /* a leading zero */
        "{\"format\":\"warpscope-trace\",\"version\":04,\"origin\":{\"collector\":null,"
        "\"collector_version\":null,\"gpu\":null,\"workload\":null},\"kernels\":[]}",
        /* records by kind short of the records */
        "{\"format\":\"warpscope-trace\",\"version\":4,\"origin\":{\"collector\":null,"
        "\"collector_version\":null,\"gpu\":null,\"workload\":null},\"kernels\":[{\"name\":\"k\","
        "\"grid\":[1,1,1],\"block\":[32,1,1],\"shared_mem_bytes\":0,\"registers_per_thread\":0,"
        "\"records\":3,\"records_by_kind\":[1,1,0],\"ctas\":1,\"pcs\":[]}]}",
        /* a block of 65,537 threads */
        "{\"format\":\"warpscope-trace\",\"version\":4,\"origin\":{\"collector\":null,"
        "\"collector_version\":null,\"gpu\":null,\"workload\":null},\"kernels\":[{\"name\":\"k\","
        "\"grid\":[1,1,1],\"block\":[65537,1,1],\"shared_mem_bytes\":0,\"registers_per_thread\":0,"
        "\"records\":0,\"records_by_kind\":[0,0,0],\"ctas\":1,\"pcs\":[]}]}",
        /* a line past 32 bits */
        "{\"format\":\"warpscope-trace\",\"version\":4,\"origin\":{\"collector\":null,"
        "\"collector_version\":null,\"gpu\":null,\"workload\":null},\"kernels\":[{\"name\":\"k\","
        "\"grid\":[1,1,1],\"block\":[32,1,1],\"shared_mem_bytes\":0,\"registers_per_thread\":0,"
        "\"records\":0,\"records_by_kind\":[0,0,0],\"ctas\":1,\"pcs\":[{\"offset\":0,"
        "\"sass\":null,\"file\":null,\"line\":4294967296}]}]}",
        /* text after the document */
        "{\"format\":\"warpscope-trace\",\"version\":4,\"origin\":{\"collector\":null,"
        "\"collector_version\":null,\"gpu\":null,\"workload\":null},\"kernels\":[]}x",
    };
    cr_assert_eq(WST_VERSION, 4, "the cases are written for version 4");
    for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
        wst_trace t, json;
        ws_error err = {{0}};
        cr_expect_eq(wst_meta_decode_compact(refused[i], strlen(refused[i]), WST_VERSION, &t), 0,
                     "case %zu taken", i);
        cr_expect_neq(wst_meta_decode(refused[i], strlen(refused[i]), WST_VERSION, &json, &err), 0,
                      "case %zu: the JSON reader takes it", i);
    }
}

Test(wst_meta_compact, a_hand_written_document_reads_as_written)
{
    const char *text =
        "{\"format\":\"warpscope-trace\",\"version\":4,\"origin\":{\"collector\":\"emu\","
        "\"collector_version\":\"0.1.0\",\"gpu\":null,\"workload\":\"w\\u0001\"},\"kernels\":[]}";
    wst_trace t;
    /* An escape: declined, and the JSON reader reads it. */
    cr_expect_eq(wst_meta_decode_compact(text, strlen(text), 4, &t), 0);
    text = "{\"format\":\"warpscope-trace\",\"version\":4,\"origin\":{\"collector\":\"emu\","
           "\"collector_version\":\"0.1.0\",\"gpu\":null,\"workload\":\"w\x7f\"},\"kernels\":[{"
           "\"name\":\"k\",\"grid\":[2,3,1],\"block\":[16,16,1],\"shared_mem_bytes\":48,"
           "\"registers_per_thread\":0,\"records\":7,\"records_by_kind\":[4,2,1],\"ctas\":6,"
           "\"pcs\":[{\"offset\":16,\"sass\":\"LDG.E\",\"file\":null,\"line\":9}],"
           "\"timing\":true}],\"allocations\":[{\"base\":4096,\"bytes\":256}]}";
    cr_assert_eq(wst_meta_decode_compact(text, strlen(text), 4, &t), 1);
    cr_expect_str_eq(t.origin.workload, "w?", "DEL mended as the JSON reader mends it");
    cr_expect_null(t.origin.gpu);
    cr_assert_eq(t.kernel_count, 1);
    const wst_kernel *k = &t.kernels[0];
    cr_expect(k->grid.x == 2 && k->grid.y == 3 && k->block.y == 16 && k->shared_mem_bytes == 48);
    cr_expect(k->record_count == 7 && k->records_by_kind[2] == 1 && k->cta_count == 6);
    cr_expect(k->has_timing);
    cr_assert_eq(k->pc_count, 1);
    cr_expect(k->pcs[0].offset == 16 && k->pcs[0].line == 9 && !k->pcs[0].file);
    cr_expect_str_eq(k->pcs[0].sass, "LDG.E");
    cr_assert_eq(t.allocation_count, 1);
    cr_expect(t.allocations[0].base == 4096 && t.allocations[0].bytes == 256);
    wst_trace_clear(&t);
}

/* A reader of text in pieces of `piece` bytes that fails after `fail_at`
 * bytes (0: never). */
typedef struct piece_reader {
    const char *text;
    size_t len, at, piece, fail_at;
} piece_reader;

static ssize_t read_pieces(void *ctx, char *buf, size_t n, ws_error *err)
{
    piece_reader *r = ctx;
    if (r->fail_at && r->at >= r->fail_at)
        return ws_fail(err, "the disk is on fire");
    size_t take = r->len - r->at;
    take = take < n ? take : n;
    take = take < r->piece ? take : r->piece;
    memcpy(buf, r->text + r->at, take);
    r->at += take;
    return (ssize_t)take;
}

static const char small_doc[] =
    "{\"format\":\"warpscope-trace\",\"version\":4,\"origin\":{\"collector\":null,"
    "\"collector_version\":null,\"gpu\":null,\"workload\":null},\"kernels\":[]}";

Test(wst_meta_compact, a_read_that_fails_is_reported_where_it_failed)
{
    wst_trace t;
    ws_error err = {{0}};
    piece_reader r = {small_doc, strlen(small_doc), 0, 7, 21};
    cr_expect_neq(wst_meta_decode_stream(read_pieces, &r, 4, &t, &err), 0);
    cr_expect_str_eq(err.msg, "the disk is on fire");
    /* A launch that is not JSON, read before the failed read, is the
     * error (the JSON reader parses each launch as it ends). */
    const char *bad = "{\"kernels\":[{\"a\":1x}],\"format\":\"warpscope-trace\",\"version\":4}";
    piece_reader b = {bad, strlen(bad), 0, 16, 48};
    cr_expect_neq(wst_meta_decode_stream(read_pieces, &b, 4, &t, &err), 0);
    cr_expect(strncmp(err.msg, "metadata: not JSON: line 1 column 19", 36) == 0, "%s", err.msg);
    piece_reader whole = {small_doc, strlen(small_doc), 0, 5, 0};
    cr_expect_eq(wst_meta_decode_stream(read_pieces, &whole, 4, &t, &err), 0, "%s", err.msg);
    wst_trace_clear(&t);
}

/* A text past the head the compact reader is tried on (1 MiB) is read by
 * the JSON reader whole: its head, then the rest. */
Test(wst_meta_compact, a_text_past_the_compact_readers_head_reads_whole)
{
    wst_kernel k = {.name = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}, .pc_count = 40000};
    k.pcs = calloc(k.pc_count, sizeof *k.pcs);
    for (uint32_t i = 0; i < k.pc_count; i++)
        k.pcs[i] = (wst_pc){.offset = 16ull * i, .sass = "LDG.E.64", .line = i};
    wst_trace t = {.kernels = &k, .kernel_count = 1};
    char *text = writer_text(&t);
    free(k.pcs);
    cr_assert_gt(strlen(text), 1u << 20);
    wst_trace read;
    ws_error err = {{0}};
    piece_reader r = {text, strlen(text), 0, 4096, 0};
    cr_assert_eq(wst_meta_decode_stream(read_pieces, &r, WST_VERSION, &read, &err), 0, "%s",
                 err.msg);
    cr_expect_eq(read.kernel_count, 1);
    cr_assert_eq(read.kernels[0].pc_count, 40000);
    cr_expect_eq(read.kernels[0].pcs[39999].offset, 16ull * 39999);
    cr_expect_str_eq(read.kernels[0].pcs[39999].sass, "LDG.E.64");
    wst_trace_clear(&read);
    free(text);
}
