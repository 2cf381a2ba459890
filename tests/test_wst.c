/* tests/test_wst.c: .wst write-then-read is the identity (docs/trace-format.md
 * property), per CTA and per kernel, with forced small chunks, frames and
 * flushes, on random traces, looping ones (the history modes) and every
 * embedded workload; and version 1 files still read. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "formats/packed_record.h"
#include "formats/wst.h"
#include "formats/wst_layout.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"
#include "tests/workload_record.h"
#include "collectors/workloads/workloads.h"

/* Expected records of (kernel, cta) in arrival order. */
static size_t expected_cta(const wst_memtrace *m, uint32_t kernel, uint32_t cta,
                           const wst_record **out, size_t cap)
{
    size_t n = 0;
    const wst_memkernel_records *per = &m->per_kernel[kernel];
    for (size_t i = 0; i < per->count; i++)
        if (per->records[i].cta == cta && n < cap)
            out[n++] = &per->records[i];
    return n;
}

/* Record i of a and record j of b pack alike: every field, their lanes
 * (pooled when neither affine nor tiled) and timestamps. */
static void check_packed_equal(const packed_cta *a, size_t i, const packed_cta *b, size_t j)
{
    const packed_record *x = &a->records[i], *y = &b->records[j];
    cr_assert(x->pc == y->pc && x->mask == y->mask && x->warp == y->warp && x->sm == y->sm &&
                  x->bits == y->bits && x->cache_op == y->cache_op && x->size == y->size &&
                  x->tile_log2 == y->tile_log2,
              "packed record %zu: head differs", i);
    cr_assert_eq(packed_cta_timestamp(a, i), packed_cta_timestamp(b, j));
    if (packed_affine(x) || packed_tiled(x)) {
        cr_assert(x->base == y->base && x->stride == y->stride, "packed record %zu: stride", i);
        return;
    }
    unsigned lanes = (unsigned)__builtin_popcount(x->mask);
    cr_assert_eq(memcmp(a->lanes + x->base, b->lanes + y->base, lanes * sizeof *a->lanes), 0,
                 "packed record %zu: lanes", i);
}

/* The packed path (cta_grouping_read, decoding straight to packed
 * records) gives (kernel, cta) exactly as packing its decoded records. */
static void check_packed_cta(wst_reader *r, uint32_t kernel, uint32_t cta,
                             const wst_record *const *expected, size_t n)
{
    packed_cta want = {0}, got = {0};
    ws_error err;
    for (size_t i = 0; i < n; i++) {
        wst_record rec = *expected[i];
        if (wst_reader_ignores_cache_ops(r))
            rec.cache_op = WST_OP_DEFAULT;
        cr_assert_eq(packed_cta_append(&want, &rec, 1, &err), 0, "%s", err.msg);
    }
    const wst_kernel *k = &wst_reader_trace(r)->kernels[kernel];
    uint32_t warps = (k->block.x * k->block.y * k->block.z + 31) / 32;
    uint32_t *starts = calloc(warps + 1, sizeof *starts);
    cta_grouping g = {.records = &got, .starts = starts, .warps = warps, .kernel = kernel,
                      .cta = cta};
    wst_cursor *c = wst_cursor_cta(r, kernel, cta, &err);
    cr_assert_eq(cta_grouping_read(&g, c, &err), 0, "%s", err.msg);
    wst_cursor_free(c);
    cr_assert_eq(got.count, n);
    for (size_t i = 0; i < n; i++)
        check_packed_equal(&got, i, &want, i);
    free(starts);
    packed_cta_free(&want);
    packed_cta_free(&got);
}

/* The trace at path holds exactly m's kernels, allocations and records,
 * each CTA's in m's arrival order. */
static void check_same_trace(const char *path, const wst_memtrace *m, unsigned version)
{
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_eq(wst_reader_version(r), version);
    const wst_trace *t = wst_reader_trace(r);
    cr_assert_eq(t->kernel_count, m->trace.kernel_count);
    if (m->trace.origin.workload) /* a workload recorded into memory has none */
        cr_assert_str_eq(t->origin.workload, m->trace.origin.workload);
    cr_assert_eq(t->allocation_count, m->trace.allocation_count);
    for (uint32_t i = 0; i < t->allocation_count; i++) {
        cr_assert_eq(t->allocations[i].base, m->trace.allocations[i].base);
        cr_assert_eq(t->allocations[i].bytes, m->trace.allocations[i].bytes);
    }
    size_t most = 1;
    for (uint32_t k = 0; k < m->trace.kernel_count; k++)
        most += m->per_kernel[k].count;
    const wst_record **expected = malloc(most * sizeof *expected);
    for (uint32_t k = 0; k < t->kernel_count; k++) {
        const wst_kernel *got = &t->kernels[k], *want = &m->trace.kernels[k];
        cr_assert_str_eq(got->name, want->name);
        cr_assert_eq(got->grid.x, want->grid.x);
        cr_assert_eq(got->block.x, want->block.x);
        cr_assert_eq(got->shared_mem_bytes, want->shared_mem_bytes);
        cr_assert_eq(got->registers_per_thread, want->registers_per_thread);
        cr_assert_eq(got->record_count, want->record_count);
        cr_assert_eq(got->has_timing, want->has_timing);
        cr_assert_eq(got->pc_count, want->pc_count);
        for (uint32_t p = 0; p < got->pc_count; p++) {
            cr_assert_eq(got->pcs[p].offset, want->pcs[p].offset);
            cr_assert_eq(got->pcs[p].line, want->pcs[p].line);
            cr_assert_eq(got->pcs[p].sass == NULL, want->pcs[p].sass == NULL);
            if (got->pcs[p].sass)
                cr_assert_str_eq(got->pcs[p].sass, want->pcs[p].sass);
        }
        uint32_t cta_count;
        const uint32_t *ctas = wst_reader_ctas(r, k, &cta_count);
        uint64_t seen = 0;
        for (uint32_t c = 0; c < cta_count; c++) {
            size_t n = expected_cta(m, k, ctas[c], expected, most);
            wst_cursor *cur = wst_cursor_cta(r, k, ctas[c], &err);
            wst_record rec;
            uint32_t kernel;
            size_t i = 0;
            int rc;
            while ((rc = wst_cursor_next(cur, &rec, &kernel, &err)) == 1) {
                cr_assert_lt(i, n);
                cr_assert_eq(kernel, k);
                cr_assert(test_records_equal(&rec, expected[i]), "kernel %u CTA %u record %zu",
                          k, ctas[c], i);
                i++;
            }
            cr_assert_eq(rc, 0, "%s", err.msg);
            cr_assert_eq(i, n);
            seen += i;
            wst_cursor_free(cur);
            check_packed_cta(r, k, ctas[c], expected, n);
        }
        cr_assert_eq(seen, want->record_count);
    }
    /* The whole-trace cursor sees every record once. */
    wst_cursor *all = wst_cursor_all(r, &err);
    const wst_record *batch;
    uint32_t kernel;
    int64_t n;
    uint64_t total = 0;
    while ((n = wst_cursor_next_batch(all, &batch, &kernel, &err)) > 0)
        total += (uint64_t)n;
    cr_assert_eq(n, 0);
    uint64_t expected_total = 0;
    for (uint32_t k = 0; k < m->trace.kernel_count; k++)
        expected_total += m->per_kernel[k].count;
    cr_assert_eq(total, expected_total);
    wst_cursor_free(all);
    wst_reader_close(r);
    free(expected);
}

static void check_memtrace_roundtrip(wst_memtrace *m, const wst_writer_options *opts)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.wst");
    cr_assert_eq(test_write_memtrace(m, path, opts), 0);
    check_same_trace(path, m, WST_VERSION);
    wst_memtrace_free(m);
    free(path);
    test_tmpdir_cleanup(dir);
}

static void check_roundtrip(uint64_t seed, const wst_writer_options *opts)
{
    check_memtrace_roundtrip(test_random_trace(seed, 4, 3000), opts);
}

/* wst_writer_end_kernel after each kernel (as import does, issue 42): the
 * kernel's entry is spooled and its unflushed CTAs flushed then, and the
 * trace reads back as one written whole; an ended kernel takes no more PCs
 * or records. */
Test(wst, kernels_ended_as_they_come_read_back_the_same)
{
    wst_memtrace *m = test_random_trace(7, 5, 2000);
    char *dir = test_tmpdir(), *path = test_path(dir, "t.wst");
    ws_error err;
    wst_writer *w = wst_writer_open(path, &m->trace.origin, NULL, &err);
    cr_assert_not_null(w, "%s", err.msg);
    for (uint32_t i = 0; i < m->trace.allocation_count; i++)
        cr_assert_geq(wst_writer_add_allocation(w, &m->trace.allocations[i], &err), 0);
    for (uint32_t k = 0; k < m->trace.kernel_count; k++) {
        cr_assert_eq(wst_writer_add_kernel(w, &m->trace.kernels[k], &err), (int)k, "%s", err.msg);
        const wst_memkernel_records *per = &m->per_kernel[k];
        for (size_t i = 0; i < per->count; i++)
            cr_assert_eq(wst_writer_add_record(w, k, &per->records[i], &err), 0, "%s", err.msg);
        cr_assert_eq(wst_writer_end_kernel(w, k, &err), 0, "%s", err.msg);
        if (per->count) {
            cr_assert_eq(wst_writer_add_record(w, k, &per->records[0], &err), -1);
            cr_expect(strstr(err.msg, "has ended"), "%s", err.msg);
        }
        wst_pc pc = {.offset = 0x10};
        cr_assert_eq(wst_writer_add_pc(w, k, &pc, &err), -1);
    }
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    check_same_trace(path, m, WST_VERSION);
    wst_memtrace_free(m);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* A second selection chooses among the kernels of the first: kernels 1, 2
 * and 3 of four (kernel 0's chunks are left out), then the last two of
 * those, are kernels 2 and 3, every record of them and nothing else. */
Test(wst, keeping_kernels_twice_keeps_a_selection_of_a_selection)
{
    wst_memtrace *m = test_random_trace(7, 4, 500);
    char *dir = test_tmpdir(), *path = test_path(dir, "t.wst");
    cr_assert_eq(test_write_memtrace(m, path, NULL), 0);
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    const uint8_t first[4] = {0, 1, 1, 1}, second[3] = {0, 1, 1};
    cr_assert_eq(wst_reader_keep_kernels(r, first, "-k a", &err), 0, "%s", err.msg);
    cr_assert_eq(wst_reader_keep_kernels(r, second, "-k b", &err), 0, "%s", err.msg);
    const wst_trace *t = wst_reader_trace(r);
    cr_assert_eq(t->kernel_count, 2);
    cr_assert_eq(wst_reader_kernels_in_file(r), 4);
    cr_assert_str_eq(wst_reader_selection(r), "-k b");
    uint64_t per_kernel[2] = {0};
    wst_cursor *all = wst_cursor_all(r, &err);
    const wst_record *batch;
    uint32_t kernel;
    int64_t n;
    while ((n = wst_cursor_next_batch(all, &batch, &kernel, &err)) > 0) {
        cr_assert_lt(kernel, 2);
        per_kernel[kernel] += (uint64_t)n;
    }
    cr_assert_eq(n, 0, "%s", err.msg);
    for (uint32_t k = 0; k < 2; k++) {
        cr_assert_str_eq(t->kernels[k].name, m->trace.kernels[k + 2].name);
        cr_assert_eq(per_kernel[k], m->per_kernel[k + 2].count);
    }
    wst_cursor_free(all);
    wst_reader_close(r);
    wst_memtrace_free(m);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(wst, roundtrip_default_options) { check_roundtrip(1, NULL); }

Test(wst, roundtrip_many_small_chunks)
{
    wst_writer_options o = {.chunk_records = 7};
    check_roundtrip(2, &o);
}

Test(wst, roundtrip_under_memory_pressure)
{
    /* A tiny budget forces the largest buffers out early, many times. */
    wst_writer_options o = {.chunk_records = 1000, .memory_budget = 4096, .compression_level = 1};
    check_roundtrip(3, &o);
}

Test(wst, roundtrip_small_frames)
{
    wst_writer_options o = {.chunk_records = 50, .frame_bytes = 700};
    check_roundtrip(4, &o);
}

/* --cache-op ignore reaches the packed path too: every record packs with
 * the default operator. */
Test(wst, packed_path_ignores_cache_ops_when_asked)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.wst");
    wst_memtrace *m = test_random_trace(7, 2, 800);
    cr_assert_eq(test_write_memtrace(m, path, NULL), 0);
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    wst_reader_ignore_cache_ops(r);
    size_t most = m->per_kernel[0].count + m->per_kernel[1].count, operated = 0;
    const wst_record **expected = malloc(most * sizeof *expected);
    for (uint32_t k = 0; k < 2; k++) {
        uint32_t cta_count;
        const uint32_t *ctas = wst_reader_ctas(r, k, &cta_count);
        for (uint32_t c = 0; c < cta_count; c++) {
            size_t n = expected_cta(m, k, ctas[c], expected, most);
            for (size_t i = 0; i < n; i++)
                operated += expected[i]->cache_op != WST_OP_DEFAULT;
            check_packed_cta(r, k, ctas[c], expected, n);
        }
    }
    cr_assert_gt(operated, 0, "the trace has records with a cache operator");
    free(expected);
    wst_reader_close(r);
    wst_memtrace_free(m);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* A chunk of more records than the packed path decodes in one call
 * (65,536): the CTA is read in two calls, the history carried between. */
Test(wst, roundtrip_chunk_past_one_packed_batch)
{
    wst_writer_options o = {.chunk_records = 1u << 20, .memory_budget = 256u << 20};
    check_memtrace_roundtrip(test_looping_trace(8, 4, 4, 4500), &o);
}

/* Warps × PCs > 1024: history slots collide and are taken over. */
Test(wst, roundtrip_looping_warps)
{
    check_memtrace_roundtrip(test_looping_trace(5, 64, 24, 12), NULL);
    wst_writer_options o = {.chunk_records = 33, .frame_bytes = 4096, .memory_budget = 8192};
    check_memtrace_roundtrip(test_looping_trace(6, 8, 5, 40), &o);
}

Test(wst, roundtrip_tiled_warps)
{
    check_memtrace_roundtrip(test_tiled_trace(3, 8, 40), NULL);
    wst_writer_options o = {.chunk_records = 13};
    check_memtrace_roundtrip(test_tiled_trace(4, 3, 30), &o);
}

Test(wst, roundtrip_every_workload)
{
    wst_writer_options o = {.chunk_records = 300, .frame_bytes = 16384};
    for (unsigned i = 0; workload_at(i); i++) {
        const char *name = workload_at(i)->name;
        check_memtrace_roundtrip(test_record_workload(name, SIZE_SMALL, 1, 0), NULL);
        check_memtrace_roundtrip(test_record_workload(name, SIZE_SMALL, 2, 0), &o);
    }
}

/* CTAs interleaved as a GPU collector delivers them: each CTA's chunks lie
 * in many frames, and each frame holds chunks of many CTAs.  Reading CTA
 * after CTA must still decompress each frame once, not once a chunk. */
Test(wst, interleaved_ctas_decompress_each_frame_once)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.wst");
    wst_memtrace *m = test_random_trace(7, 3, 4000);
    wst_writer_options o = {.chunk_records = 20, .frame_bytes = 2048};
    cr_assert_eq(test_write_memtrace(m, path, &o), 0);
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_gt(wst_reader_frame_count(r), 50);
    size_t spread = 0; /* chunks whose CTA's previous chunk is in another frame */
    for (size_t i = 1; i < wst_reader_chunk_count(r); i++)
        spread += wst_reader_chunk(r, i)->cta != wst_reader_chunk(r, i - 1)->cta;
    cr_assert_gt(spread, wst_reader_chunk_count(r) / 2, "the CTAs interleave");
    for (uint32_t k = 0; k < wst_reader_trace(r)->kernel_count; k++) {
        uint32_t count;
        const uint32_t *ctas = wst_reader_ctas(r, k, &count);
        for (uint32_t c = 0; c < count; c++) {
            wst_cursor *cur = wst_cursor_cta(r, k, ctas[c], &err);
            const wst_record *batch;
            int64_t n;
            while ((n = wst_cursor_next_batch(cur, &batch, NULL, &err)) > 0)
                ;
            cr_assert_eq(n, 0, "%s", err.msg);
            wst_cursor_free(cur);
        }
    }
    cr_assert_eq(wst_reader_frames_decompressed(r), wst_reader_frame_count(r));
    wst_reader_close(r);
    wst_memtrace_free(m);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* Every record of CTA `cta` of kernel k, read through its own cursor. */
static wst_record *cta_records(wst_reader *r, uint32_t k, uint32_t cta, size_t *count)
{
    ws_error err;
    wst_cursor *cur = wst_cursor_cta(r, k, cta, &err);
    cr_assert_not_null(cur, "%s", err.msg);
    wst_record *all = NULL;
    size_t n = 0;
    const wst_record *batch;
    int64_t got;
    while ((got = wst_cursor_next_batch(cur, &batch, NULL, &err)) > 0) {
        all = realloc(all, (n + (size_t)got) * sizeof *all);
        memcpy(all + n, batch, (size_t)got * sizeof *all);
        n += (size_t)got;
    }
    cr_assert_eq(got, 0, "%s", err.msg);
    wst_cursor_free(cur);
    *count = n;
    return all;
}

/* A trace of many small frames, its CTAs interleaved across them. */
static wst_reader *small_frames_reader(const char *path)
{
    wst_memtrace *m = test_random_trace(7, 3, 4000);
    wst_writer_options o = {.chunk_records = 20, .frame_bytes = 2048};
    cr_assert_eq(test_write_memtrace(m, path, &o), 0);
    wst_memtrace_free(m);
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    return r;
}

/* With no budget the cache keeps only the frame last used: reading CTA
 * after CTA decompresses a frame each time the next chunk lies in another
 * frame than the chunk before (the first included), and the records are
 * those a reader with the whole budget gives.  A stale entry (a replaced
 * frame still found under its old number) would give wrong records. */
Test(wst, frame_cache_without_budget_replaces_the_frame_last_used)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.wst");
    wst_reader *whole = small_frames_reader(path), *tight = small_frames_reader(path);
    wst_reader_set_cache_budget(tight, 0);
    uint64_t expected = 0, previous = UINT64_MAX, largest = 0;
    for (size_t f = 0; f < wst_reader_frame_count(tight); f++)
        if (wst_reader_frame(tight, f)->raw_bytes > largest)
            largest = wst_reader_frame(tight, f)->raw_bytes;
    for (uint32_t k = 0; k < wst_reader_trace(tight)->kernel_count; k++) {
        uint32_t count;
        const uint32_t *ctas = wst_reader_ctas(tight, k, &count);
        for (uint32_t c = 0; c < count; c++) {
            for (size_t i = 0; i < wst_reader_chunk_count(tight); i++) {
                const wst_chunk_info *chunk = wst_reader_chunk(tight, i);
                if (chunk->kernel == k && chunk->cta == ctas[c]) {
                    expected += chunk->frame != previous;
                    previous = chunk->frame;
                }
            }
            size_t n_whole, n_tight;
            wst_record *a = cta_records(whole, k, ctas[c], &n_whole);
            wst_record *b = cta_records(tight, k, ctas[c], &n_tight);
            cr_assert_eq(n_tight, n_whole);
            for (size_t i = 0; i < n_whole; i++)
                cr_assert(test_records_equal(&a[i], &b[i]), "kernel %u CTA %u record %zu", k,
                          ctas[c], i);
            free(a);
            free(b);
            cr_assert_lt(wst_reader_cache_bytes(tight), 2 * largest + 4096,
                         "one frame kept: %zu bytes", wst_reader_cache_bytes(tight));
        }
    }
    cr_assert_gt(expected, wst_reader_frame_count(tight), "frames are needed again");
    cr_expect_eq(wst_reader_frames_decompressed(tight), expected);
    cr_expect_eq(wst_reader_frames_decompressed(whole), wst_reader_frame_count(whole));
    wst_reader_close(whole);
    wst_reader_close(tight);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* A frame a cursor decodes from stays while another cursor, interleaved
 * with it, needs other frames: with no budget the cache grows past it
 * rather than replace it, and both cursors read their own records. */
Test(wst, frame_cache_keeps_the_frames_cursors_pin)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.wst");
    wst_reader *whole = small_frames_reader(path), *tight = small_frames_reader(path);
    wst_reader_set_cache_budget(tight, 0);
    uint32_t count;
    const uint32_t *ctas = wst_reader_ctas(tight, 0, &count);
    cr_assert_geq(count, 2);
    size_t n[2];
    wst_record *want[2] = {cta_records(whole, 0, ctas[0], &n[0]),
                           cta_records(whole, 0, ctas[1], &n[1])};
    ws_error err;
    wst_cursor *cur[2] = {wst_cursor_cta(tight, 0, ctas[0], &err),
                          wst_cursor_cta(tight, 0, ctas[1], &err)};
    size_t at[2] = {0, 0};
    for (int live = 2; live;) {
        live = 0;
        for (int i = 0; i < 2; i++) {
            wst_record rec;
            int64_t got = wst_cursor_next_into(cur[i], &rec, 1, NULL, &err);
            cr_assert_geq(got, 0, "%s", err.msg);
            if (got == 0)
                continue;
            live++;
            cr_assert_lt(at[i], n[i]);
            cr_assert(test_records_equal(&rec, &want[i][at[i]]), "cursor %d record %zu", i, at[i]);
            at[i]++;
        }
    }
    cr_expect_eq(at[0], n[0]);
    cr_expect_eq(at[1], n[1]);
    for (int i = 0; i < 2; i++) {
        wst_cursor_free(cur[i]);
        free(want[i]);
    }
    wst_reader_close(whole);
    wst_reader_close(tight);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* A CTA still running flushes its full chunks into frames of their own;
 * the chunks of CTAs that have ended share a frame. */
Test(wst, running_ctas_chunks_stand_alone_ended_ones_share)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.wst");
    ws_error err;
    wst_origin origin = {.collector = "test"};
    wst_writer_options o = {.chunk_records = 4};
    wst_writer *w = wst_writer_open(path, &origin, &o, &err);
    wst_kernel k = {.name = "k", .grid = {3, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 0);
    wst_pc pc = {.offset = 0};
    cr_assert_eq(wst_writer_add_pc(w, 0, &pc, &err), 0);
    wst_record r;
    memset(&r, 0, sizeof r);
    r.size = 4;
    r.mask = 1;
    for (int i = 0; i < 10; i++) { /* CTAs 0 and 1 interleaved: two full chunks each */
        r.cta = (uint32_t)(i % 2);
        r.addr[0] = 0x1000 + 4u * (unsigned)i;
        cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0, "%s", err.msg);
    }
    cr_assert_eq(wst_writer_end_cta(w, 0, 0, &err), 0);
    cr_assert_eq(wst_writer_end_cta(w, 0, 1, &err), 0);
    r.cta = 2;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), 0); /* left for close */
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);
    wst_reader *rd = wst_reader_open(path, &err);
    cr_assert_not_null(rd, "%s", err.msg);
    /* Chunks of 4, 4 (running), then CTA 0's and 1's last record and CTA
     * 2's (ended) in one frame. */
    cr_assert_eq(wst_reader_chunk_count(rd), 5);
    cr_assert_eq(wst_reader_frame_count(rd), 3);
    cr_assert_eq(wst_reader_frame(rd, 0)->chunks, 1);
    cr_assert_eq(wst_reader_frame(rd, 1)->chunks, 1);
    cr_assert_eq(wst_reader_frame(rd, 2)->chunks, 3);
    wst_reader_close(rd);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* tests/fixtures/wst-v1 and wst-v2 were written by the version 1 and 2
 * writers: random.wst from test_random_trace(20261125, 3, 600) in chunks
 * of 50 records, and lud-small.wst by `warpscope record --workload lud
 * --size small` (whose 2D blocks version 3 codes as tiles). */
static char *old_version_fixture(unsigned version, const char *name)
{
    char sub[16];
    snprintf(sub, sizeof sub, "wst-v%u", version);
    char *dir = test_path(test_fixture_dir(), sub);
    char *path = test_path(dir, name);
    free(dir);
    return path;
}

static void reads_old_version(unsigned version)
{
    char *path = old_version_fixture(version, "random.wst");
    wst_memtrace *m = test_random_trace(20261125, 3, 600);
    check_same_trace(path, m, version);
    wst_memtrace_free(m);
    free(path);
    path = old_version_fixture(version, "lud-small.wst");
    m = test_record_workload("lud", SIZE_SMALL, 1, 0);
    check_same_trace(path, m, version);
    wst_memtrace_free(m);
    free(path);
}

Test(wst, reads_version_1) { reads_old_version(1); }
Test(wst, reads_version_2) { reads_old_version(2); }
/* wst-v3 was written by the version 3 writer (commit be13b8d) as above. */
Test(wst, reads_version_3) { reads_old_version(3); }

/* Timing (docs/metrics.md §12) written and read back exactly, through
 * whole records and the packed form, extremes included, in frames that
 * mix timed and untimed chunks. */
Test(wst, timing_roundtrip)
{
    wst_memtrace *m = test_random_trace(41, 3, 3000);
    test_add_timing(m, 41);
    check_memtrace_roundtrip(m, NULL);
}

Test(wst, timing_roundtrip_small_chunks)
{
    wst_memtrace *m = test_random_trace(42, 2, 2000);
    test_add_timing(m, 42);
    for (size_t i = 0; i < m->per_kernel[0].count; i += 2) /* every other record untimed */
        m->per_kernel[0].records[i].gap = m->per_kernel[0].records[i].has_waits = 0;
    wst_writer_options o = {.chunk_records = 7};
    check_memtrace_roundtrip(m, &o);
}

/* A trace without timing is laid out as version 3 laid it out: the same
 * bytes but the version, so the same size as the version 3 fixture. */
Test(wst, untimed_trace_costs_nothing)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "t.wst");
    wst_memtrace *m = test_random_trace(20261125, 3, 600);
    wst_writer_options o = {.chunk_records = 50};
    cr_assert_eq(test_write_memtrace(m, path, &o), 0);
    char *v3 = old_version_fixture(3, "random.wst");
    size_t written = 0, old = 0;
    free(test_read_file(path, &written));
    free(test_read_file(v3, &old));
    cr_assert_eq(written, old);
    wst_memtrace_free(m);
    free(v3);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(wst, empty_trace_and_missing_cta)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "empty.wst");
    ws_error err;
    wst_writer *w = wst_writer_open(path, NULL, NULL, &err);
    wst_kernel k = {.name = "k", .grid = {2, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 0);
    cr_assert_eq(wst_writer_close(w, &err), 0);
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    cr_assert_eq(wst_reader_trace(r)->kernel_count, 1);
    cr_assert_eq(wst_reader_chunk_count(r), 0);
    wst_cursor *c = wst_cursor_cta(r, 0, 1, &err);
    wst_record rec;
    cr_assert_eq(wst_cursor_next(c, &rec, NULL, &err), 0);
    wst_cursor_free(c);
    cr_assert_null(wst_cursor_kernel(r, 5, &err));
    wst_reader_close(r);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(wst, writer_rejects_invalid_records)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "bad.wst");
    ws_error err;
    wst_writer *w = wst_writer_open(path, NULL, NULL, &err);
    wst_kernel k = {.name = "k", .grid = {2, 1, 1}, .block = {64, 1, 1}};
    wst_writer_add_kernel(w, &k, &err);
    wst_pc pc = {.offset = 0};
    wst_writer_add_pc(w, 0, &pc, &err);
    wst_record r;
    memset(&r, 0, sizeof r);
    r.size = 4;
    r.cta = 2;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), -1);
    cr_assert(strstr(err.msg, "CTA 2 outside") != NULL, "%s", err.msg);
    r.cta = 0;
    r.warp = 2;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), -1);
    r.warp = 0;
    r.pc = 1;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), -1);
    r.pc = 0;
    r.size = 3;
    cr_assert_eq(wst_writer_add_record(w, 0, &r, &err), -1);
    cr_assert_eq(wst_writer_add_record(w, 1, &r, &err), -1);
    wst_writer_abort(w);
    cr_assert_null(test_read_file(path, NULL), "abort leaves no file");
    free(path);
    test_tmpdir_cleanup(dir);
}

/* The reader refuses metadata over WST_MAX_METADATA_BYTES, so the writer
 * stops at the kernel that would pass it (long names listed many times),
 * and the file never appears. */
Test(wst, writer_refuses_metadata_the_reader_would_refuse)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "names.wst");
    ws_error err;
    wst_writer *w = wst_writer_open(path, NULL, NULL, &err);
    /* a name past the reader's limit on a string is refused alone */
    size_t len = WST_MAX_STRING_BYTES;
    char *name = malloc(len + 2);
    memset(name, 'k', len + 1);
    name[len + 1] = '\0';
    wst_kernel k = {.name = name, .grid = {1, 1, 1}, .block = {32, 1, 1}};
    cr_assert_lt(wst_writer_add_kernel(w, &k, &err), 0);
    cr_assert(strstr(err.msg, "kernel 0: its name is not UTF-8 text of at most 1048576 bytes"),
              "%s", err.msg);
    name[len] = '\0'; /* the longest name; enough of them pass the metadata's limit */
    uint32_t limit_kernels = (uint32_t)(WST_MAX_METADATA_BYTES / len);
    int rc = 0;
    uint32_t added = 0;
    while ((rc = wst_writer_add_kernel(w, &k, &err)) >= 0)
        added++;
    cr_assert_eq(added, limit_kernels - 1, "stops when the names pass the limit (%u)", added);
    cr_assert(strstr(err.msg, "metadata (kernel names, PCs) would pass the format's 256 MiB limit") !=
                  NULL,
              "%s", err.msg);
    wst_writer_abort(w);
    cr_assert_null(test_read_file(path, NULL), "no file");
    free(name);
    free(path);
    test_tmpdir_cleanup(dir);
}

/* The allocation table keeps the order allocations were made in; the
 * writer refuses what the reader would (an empty one, one past 2^63) and
 * leaves out one that overlaps an earlier allocation (a freed range reused);
 * the reader names an address by (ordinal, offset). */
Test(wst, allocation_table)
{
    char *dir = test_tmpdir();
    char *path = test_path(dir, "alloc.wst");
    ws_error err;
    wst_writer *w = wst_writer_open(path, NULL, NULL, &err);
    wst_allocation high = {0x20000, 0x1000}, low = {0x10000, 0x100}, middle = {0x18000, 0x40};
    cr_assert_eq(wst_writer_add_allocation(w, &high, &err), 0);
    cr_assert_eq(wst_writer_add_allocation(w, &low, &err), 0);
    wst_allocation reused = {0x20800, 0x1000}, straddling = {0xff00, 0x200};
    cr_assert_eq(wst_writer_add_allocation(w, &reused, &err), 1, "overlaps the first");
    cr_assert_eq(wst_writer_add_allocation(w, &straddling, &err), 1, "overlaps the second");
    wst_allocation empty = {0x30000, 0}, too_high = {(1ull << 63) - 16, 32};
    cr_assert_eq(wst_writer_add_allocation(w, &empty, &err), -1);
    cr_assert_str_eq(err.msg, "allocation 2 has 0 bytes");
    cr_assert_eq(wst_writer_add_allocation(w, &too_high, &err), -1);
    cr_assert(strstr(err.msg, "allocation 2 ends past 2^63") != NULL, "%s", err.msg);
    cr_assert_eq(wst_writer_add_allocation(w, &middle, &err), 0, "between the two: fits");
    wst_kernel k = {.name = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_writer_add_kernel(w, &k, &err), 0);
    cr_assert_eq(wst_writer_close(w, &err), 0, "%s", err.msg);

    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    const wst_trace *t = wst_reader_trace(r);
    cr_assert_eq(t->allocation_count, 3);
    cr_assert_eq(t->allocations[0].base, high.base, "in the order made, not by address");
    cr_assert_eq(t->allocations[1].base, low.base);
    cr_assert_eq(t->allocations[2].bytes, middle.bytes);
    uint32_t ordinal;
    uint64_t offset;
    cr_assert_eq(wst_reader_allocation_of(r, 0x20fff, &ordinal, &offset), 1);
    cr_assert(ordinal == 0 && offset == 0xfff);
    cr_assert_eq(wst_reader_allocation_of(r, 0x10000, &ordinal, &offset), 1);
    cr_assert(ordinal == 1 && offset == 0);
    cr_assert_eq(wst_reader_allocation_of(r, 0x18010, &ordinal, &offset), 1);
    cr_assert(ordinal == 2 && offset == 0x10);
    cr_assert_eq(wst_reader_allocation_of(r, 0x21000, &ordinal, &offset), 0, "one past the end");
    cr_assert_eq(wst_reader_allocation_of(r, 0x10100, &ordinal, &offset), 0, "in a gap");
    cr_assert_eq(wst_reader_allocation_of(r, 0xffff, &ordinal, &offset), 0, "below all");
    wst_reader_close(r);
    free(path);
    test_tmpdir_cleanup(dir);
}

Test(wst, access_sizes_are_the_powers_of_two_up_to_16)
{
    for (unsigned size = 0; size <= 64; size++)
        cr_expect_eq(wst_access_size_valid(size),
                     size == 1 || size == 2 || size == 4 || size == 8 || size == 16, "%u", size);
    cr_expect(!wst_access_size_valid(1u << 31));
    cr_expect(!wst_access_size_valid(UINT32_MAX));
}
