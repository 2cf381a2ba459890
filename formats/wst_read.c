/* formats/wst_read.c: the .wst reader (see wst.h).
 *
 * Open reads only the trailer, the metadata and the index, and checks every
 * offset, length and checksum against the file before trusting it.  Cursors
 * then decode one chunk at a time, so memory is bounded by the largest chunk
 * plus the index. */
#include "formats/wst.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "formats/alloc_map.h"
#include "formats/wst_codec.h"
#include "formats/wst_layout.h"
#include "formats/wst_meta.h"
#include "util/hash64.h"

typedef struct kernel_ctas {
    uint32_t *ctas;        /* sorted, distinct */
    size_t *first;         /* first position in order[] of each CTA's chunks */
    uint32_t count;
    size_t order_begin, order_end;
} kernel_ctas;

struct wst_reader {
    int fd;
    uint64_t file_bytes;
    uint64_t chunk_area_end; /* = metadata offset */
    wst_trace trace;
    wst_chunk_info *chunks;
    uint64_t *chunk_hash;
    size_t chunk_count;
    size_t *order;           /* chunk indices by (kernel, CTA, offset) */
    kernel_ctas *kernels;
    uint32_t *warps_per_cta; /* per kernel */
    wst_alloc_map allocations;
    /* One freed cursor kept for the next: the scheduler opens a cursor per
     * CTA, and a fresh zstd context and buffers each time cost page faults. */
    struct wst_cursor *spare;
    int ignore_cache_ops;
};

static void cursor_destroy(struct wst_cursor *c);

static int read_at(const wst_reader *r, void *buf, size_t len, uint64_t offset, ws_error *err)
{
    uint8_t *p = buf;
    while (len) {
        ssize_t n = pread(r->fd, p, len, (off_t)offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return ws_fail(err, n < 0 ? "read failed" : "truncated");
        p += n;
        len -= (size_t)n;
        offset += (uint64_t)n;
    }
    return 0;
}

void wst_reader_close(wst_reader *r)
{
    if (!r)
        return;
    if (r->spare)
        cursor_destroy(r->spare);
    if (r->fd >= 0)
        close(r->fd);
    for (uint32_t k = 0; r->kernels && k < r->trace.kernel_count; k++) {
        free(r->kernels[k].ctas);
        free(r->kernels[k].first);
    }
    free(r->kernels);
    free(r->warps_per_cta);
    free(r->chunks);
    free(r->chunk_hash);
    free(r->order);
    wst_alloc_map_free(&r->allocations);
    wst_trace_clear(&r->trace);
    free(r);
}

static int check_header(wst_reader *r, ws_error *err)
{
    uint8_t header[WST_HEADER_BYTES];
    if (r->file_bytes == 0)
        return ws_fail(err, "empty file");
    if (r->file_bytes < 8 || read_at(r, header, 8, 0, err) != 0 ||
        memcmp(header, WST_MAGIC, 8) != 0)
        return ws_fail(err, "not a warpscope trace (bad magic)");
    if (r->file_bytes < WST_HEADER_BYTES + WST_TRAILER_BYTES)
        return ws_fail(err, "truncated: %llu bytes is smaller than header and trailer",
                       (unsigned long long)r->file_bytes);
    if (read_at(r, header, sizeof header, 0, err) != 0)
        return -1;
    uint32_t version = wst_get_u32(header + 8);
    if (version > WST_VERSION)
        return ws_fail(err, "written by a newer warpscope (format version %u; this reads %d)",
                       version, WST_VERSION);
    if (version == 0 || wst_get_u32(header + 12) != 0)
        return ws_fail(err, "corrupt header (version %u, flags %u)", version,
                       wst_get_u32(header + 12));
    return 0;
}

typedef struct trailer {
    uint64_t meta_offset, meta_bytes, index_offset, index_entries, meta_hash, index_hash;
} trailer;

static int read_trailer(wst_reader *r, trailer *t, ws_error *err)
{
    uint8_t b[WST_TRAILER_BYTES];
    if (read_at(r, b, sizeof b, r->file_bytes - WST_TRAILER_BYTES, err) != 0)
        return -1;
    if (memcmp(b + 56, WST_TRAILER_MAGIC, 8) != 0)
        return ws_fail(err, "truncated or corrupt: the trailer is missing");
    if (wst_get_u64(b + 48) != hash64(b, 48, 0))
        return ws_fail(err, "corrupt trailer (checksum mismatch)");
    *t = (trailer){wst_get_u64(b),      wst_get_u64(b + 8),  wst_get_u64(b + 16),
                   wst_get_u64(b + 24), wst_get_u64(b + 32), wst_get_u64(b + 40)};
    uint64_t index_end = r->file_bytes - WST_TRAILER_BYTES;
    /* Each comparison is written so that no sum can overflow. */
    if (t->meta_offset < WST_HEADER_BYTES || t->meta_offset > index_end ||
        t->meta_bytes > WST_MAX_METADATA_BYTES || t->meta_bytes > index_end - t->meta_offset ||
        t->index_offset != t->meta_offset + t->meta_bytes ||
        t->index_entries > (index_end - t->index_offset) / WST_INDEX_ENTRY_BYTES ||
        t->index_offset + t->index_entries * WST_INDEX_ENTRY_BYTES != index_end)
        return ws_fail(err, "corrupt trailer (sections do not fit the file)");
    return 0;
}

static int read_metadata(wst_reader *r, const trailer *t, ws_error *err)
{
    char *text = malloc(t->meta_bytes ? t->meta_bytes : 1);
    if (!text)
        return ws_fail(err, "out of memory");
    int rc = read_at(r, text, t->meta_bytes, t->meta_offset, err);
    if (rc == 0 && hash64(text, t->meta_bytes, 0) != t->meta_hash)
        rc = ws_fail(err, "corrupt metadata (checksum mismatch)");
    if (rc == 0)
        rc = wst_meta_decode(text, t->meta_bytes, &r->trace, err);
    free(text);
    if (rc == 0 && wst_alloc_map_build(&r->allocations, r->trace.allocations,
                                       r->trace.allocation_count, err) != 0)
        rc = ws_fail_prefix(err, "metadata: ");
    if (rc != 0)
        return -1;
    r->warps_per_cta = calloc(r->trace.kernel_count + 1, sizeof *r->warps_per_cta);
    if (!r->warps_per_cta)
        return ws_fail(err, "out of memory");
    for (uint32_t k = 0; k < r->trace.kernel_count; k++) {
        const wst_kernel *kernel = &r->trace.kernels[k];
        uint64_t threads = (uint64_t)kernel->block.x * kernel->block.y * kernel->block.z;
        r->warps_per_cta[k] = (uint32_t)((threads + WST_WARP_SIZE - 1) / WST_WARP_SIZE);
    }
    return 0;
}

static int validate_entry(const wst_reader *r, const wst_chunk_info *c, size_t i, ws_error *err)
{
    if (c->kernel >= r->trace.kernel_count)
        return ws_fail(err, "corrupt index: chunk %zu names kernel %u of %u", i, c->kernel,
                       r->trace.kernel_count);
    const wst_kernel *k = &r->trace.kernels[c->kernel];
    uint64_t ctas = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
    if (c->cta >= ctas)
        return ws_fail(err, "corrupt index: chunk %zu names CTA %u outside the grid", i, c->cta);
    if (c->records == 0 || c->records > WST_MAX_CHUNK_RECORDS || c->raw_bytes == 0 ||
        c->raw_bytes > WST_MAX_CHUNK_RAW_BYTES || c->compressed_bytes == 0)
        return ws_fail(err, "corrupt index: chunk %zu has impossible sizes", i);
    if (c->offset < WST_HEADER_BYTES || c->offset > r->chunk_area_end ||
        c->compressed_bytes > r->chunk_area_end - c->offset)
        return ws_fail(err, "corrupt index: chunk %zu lies outside the chunk area", i);
    return 0;
}

static int compare_offsets(const void *a, const void *b, void *chunks)
{
    const wst_chunk_info *c = chunks;
    uint64_t x = c[*(const size_t *)a].offset, y = c[*(const size_t *)b].offset;
    return (x > y) - (x < y);
}

static int compare_kernel_cta(const void *a, const void *b, void *chunks)
{
    const wst_chunk_info *c = chunks, *x = &c[*(const size_t *)a], *y = &c[*(const size_t *)b];
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    if (x->cta != y->cta)
        return x->cta < y->cta ? -1 : 1;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

static int read_index(wst_reader *r, const trailer *t, ws_error *err)
{
    size_t n = (size_t)t->index_entries;
    size_t bytes = n * WST_INDEX_ENTRY_BYTES;
    uint8_t *raw = malloc(bytes ? bytes : 1);
    r->chunks = calloc(n ? n : 1, sizeof *r->chunks);
    r->chunk_hash = calloc(n ? n : 1, sizeof *r->chunk_hash);
    r->order = calloc(n ? n : 1, sizeof *r->order);
    if (!raw || !r->chunks || !r->chunk_hash || !r->order) {
        free(raw);
        return ws_fail(err, "out of memory");
    }
    int rc = read_at(r, raw, bytes, t->index_offset, err);
    if (rc == 0 && hash64(raw, bytes, 0) != t->index_hash)
        rc = ws_fail(err, "corrupt index (checksum mismatch)");
    uint64_t *records = calloc(r->trace.kernel_count + 1, sizeof *records);
    if (!records)
        rc = ws_fail(err, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const uint8_t *e = raw + i * WST_INDEX_ENTRY_BYTES;
        wst_chunk_info *c = &r->chunks[i];
        *c = (wst_chunk_info){.kernel = wst_get_u32(e),
                              .cta = wst_get_u32(e + 4),
                              .records = wst_get_u32(e + 8),
                              .raw_bytes = wst_get_u32(e + 12),
                              .offset = wst_get_u64(e + 16),
                              .compressed_bytes = wst_get_u32(e + 24)};
        r->chunk_hash[i] = wst_get_u64(e + 32);
        r->order[i] = i;
        rc = validate_entry(r, c, i, err);
        if (rc == 0)
            records[c->kernel] += c->records;
    }
    free(raw);
    for (uint32_t k = 0; rc == 0 && k < r->trace.kernel_count; k++)
        if (records[k] != r->trace.kernels[k].record_count)
            rc = ws_fail(err, "corrupt index: kernel %u has %llu records, metadata says %llu", k,
                         (unsigned long long)records[k],
                         (unsigned long long)r->trace.kernels[k].record_count);
    free(records);
    if (rc != 0)
        return -1;
    /* Chunks must not overlap: sort by offset and compare neighbours. */
    if (n)
        qsort_r(r->order, n, sizeof *r->order, compare_offsets, r->chunks);
    for (size_t i = 1; i < n; i++) {
        const wst_chunk_info *a = &r->chunks[r->order[i - 1]], *b = &r->chunks[r->order[i]];
        if (b->offset - a->offset < a->compressed_bytes)
            return ws_fail(err, "corrupt index: chunks overlap");
    }
    if (n)
        qsort_r(r->order, n, sizeof *r->order, compare_kernel_cta, r->chunks);
    return 0;
}

static int build_cta_lists(wst_reader *r, ws_error *err)
{
    r->kernels = calloc(r->trace.kernel_count + 1, sizeof *r->kernels);
    if (!r->kernels)
        return ws_fail(err, "out of memory");
    size_t pos = 0;
    for (uint32_t k = 0; k < r->trace.kernel_count; k++) {
        kernel_ctas *kc = &r->kernels[k];
        kc->order_begin = pos;
        size_t end = pos;
        uint32_t distinct = 0;
        while (end < r->chunk_count && r->chunks[r->order[end]].kernel == k) {
            if (end == pos || r->chunks[r->order[end]].cta != r->chunks[r->order[end - 1]].cta)
                distinct++;
            end++;
        }
        kc->order_end = end;
        kc->ctas = calloc(distinct + 1, sizeof *kc->ctas);
        kc->first = calloc(distinct + 1, sizeof *kc->first);
        if (!kc->ctas || !kc->first)
            return ws_fail(err, "out of memory");
        for (size_t i = pos; i < end; i++)
            if (i == pos || r->chunks[r->order[i]].cta != r->chunks[r->order[i - 1]].cta) {
                kc->ctas[kc->count] = r->chunks[r->order[i]].cta;
                kc->first[kc->count++] = i;
            }
        kc->first[kc->count] = end;
        if (kc->count != r->trace.kernels[k].cta_count)
            return ws_fail(err, "corrupt index: kernel %u has chunks of %u CTAs, metadata says %u",
                           k, kc->count, r->trace.kernels[k].cta_count);
        pos = end;
    }
    return 0;
}

wst_reader *wst_reader_open(const char *path, ws_error *err)
{
    wst_reader *r = calloc(1, sizeof *r);
    if (!r) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    r->fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (r->fd < 0) {
        ws_fail(err, "cannot open: %s", strerror(errno));
        goto fail;
    }
    if (fstat(r->fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        ws_fail(err, S_ISDIR(st.st_mode) ? "is a directory" : "cannot stat");
        goto fail;
    }
    if (!S_ISREG(st.st_mode)) {
        ws_fail(err, "not a regular file");
        goto fail;
    }
    r->file_bytes = (uint64_t)st.st_size;
    trailer t = {0};
    if (check_header(r, err) != 0 || read_trailer(r, &t, err) != 0)
        goto fail;
    r->chunk_area_end = t.meta_offset;
    r->chunk_count = (size_t)t.index_entries;
    if (read_metadata(r, &t, err) != 0 || read_index(r, &t, err) != 0 ||
        build_cta_lists(r, err) != 0)
        goto fail;
    return r;
fail:
    wst_reader_close(r);
    return NULL;
}

const wst_trace *wst_reader_trace(const wst_reader *r) { return &r->trace; }
void wst_reader_ignore_cache_ops(wst_reader *r) { r->ignore_cache_ops = 1; }
int wst_reader_ignores_cache_ops(const wst_reader *r) { return r->ignore_cache_ops; }
uint64_t wst_reader_file_bytes(const wst_reader *r) { return r->file_bytes; }
size_t wst_reader_chunk_count(const wst_reader *r) { return r->chunk_count; }

int wst_reader_allocation_of(const wst_reader *r, uint64_t address, uint32_t *ordinal,
                             uint64_t *offset)
{
    return wst_alloc_map_find(&r->allocations, address, ordinal, offset);
}

const wst_chunk_info *wst_reader_chunk(const wst_reader *r, size_t index)
{
    return index < r->chunk_count ? &r->chunks[index] : NULL;
}

const uint32_t *wst_reader_ctas(const wst_reader *r, uint32_t kernel, uint32_t *count)
{
    if (kernel >= r->trace.kernel_count) {
        *count = 0;
        return NULL;
    }
    *count = r->kernels[kernel].count;
    return r->kernels[kernel].ctas;
}

/* ---- cursors ---- */

/* Records handed out per batch: small enough that a batch stays in the
 * CPU cache between decoding and use (296 B a record). */
#define CURSOR_BATCH 256

struct wst_cursor {
    wst_reader *reader;
    size_t next, end; /* range of r->order */
    wst_decompressor *dctx;
    wst_bytes compressed, raw;
    wst_decoder decoder;
    size_t chunk_index; /* the chunk being decoded */
    int decoding;
    wst_record records[CURSOR_BATCH];
    size_t single_index; /* for wst_cursor_next */
    int64_t single_count;
    uint32_t single_kernel;
};

static void cursor_destroy(wst_cursor *c)
{
    wst_decompressor_free(c->dctx);
    wst_bytes_free(&c->compressed);
    wst_bytes_free(&c->raw);
    free(c);
}

static wst_cursor *cursor_over(wst_reader *r, size_t begin, size_t end, ws_error *err)
{
    if (r->spare) {
        wst_cursor *c = r->spare;
        r->spare = NULL;
        c->next = begin;
        c->end = end;
        c->chunk_index = 0;
        c->decoding = 0;
        c->single_index = 0;
        c->single_count = 0;
        c->single_kernel = 0;
        return c;
    }
    wst_cursor *c = calloc(1, sizeof *c);
    if (!c || !(c->dctx = wst_decompressor_new())) {
        free(c);
        ws_fail(err, "out of memory");
        return NULL;
    }
    c->reader = r;
    c->next = begin;
    c->end = end;
    return c;
}

wst_cursor *wst_cursor_cta(wst_reader *r, uint32_t kernel, uint32_t cta, ws_error *err)
{
    if (kernel >= r->trace.kernel_count) {
        ws_fail(err, "no kernel %u (the trace has %u)", kernel, r->trace.kernel_count);
        return NULL;
    }
    const kernel_ctas *kc = &r->kernels[kernel];
    uint32_t lo = 0, hi = kc->count;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (kc->ctas[mid] < cta)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == kc->count || kc->ctas[lo] != cta)
        return cursor_over(r, 0, 0, err); /* a CTA without records: empty */
    return cursor_over(r, kc->first[lo], kc->first[lo + 1], err);
}

wst_cursor *wst_cursor_kernel(wst_reader *r, uint32_t kernel, ws_error *err)
{
    if (kernel >= r->trace.kernel_count) {
        ws_fail(err, "no kernel %u (the trace has %u)", kernel, r->trace.kernel_count);
        return NULL;
    }
    return cursor_over(r, r->kernels[kernel].order_begin, r->kernels[kernel].order_end, err);
}

wst_cursor *wst_cursor_all(wst_reader *r, ws_error *err)
{
    return cursor_over(r, 0, r->chunk_count, err);
}

/* Reads, checks and decompresses the next chunk, and starts decoding it. */
static int load_chunk(wst_cursor *c, ws_error *err)
{
    wst_reader *r = c->reader;
    size_t index = r->order[c->next++];
    const wst_chunk_info *info = &r->chunks[index];
    c->chunk_index = index;
    c->compressed.len = c->raw.len = 0;
    if (wst_bytes_reserve(&c->compressed, info->compressed_bytes) != 0 ||
        wst_bytes_reserve(&c->raw, info->raw_bytes) != 0)
        return ws_fail(err, "out of memory");
    int rc = read_at(r, c->compressed.data, info->compressed_bytes, info->offset, err);
    if (rc == 0 && hash64(c->compressed.data, info->compressed_bytes, info->offset) !=
                       r->chunk_hash[index])
        rc = ws_fail(err, "checksum mismatch");
    if (rc == 0)
        rc = wst_decompress(c->dctx, c->compressed.data, info->compressed_bytes, c->raw.data,
                            info->raw_bytes, err);
    if (rc == 0)
        rc = wst_decoder_start(&c->decoder, c->raw.data, info->raw_bytes, info->records,
                               info->cta, r->trace.kernels[info->kernel].pc_count,
                               r->warps_per_cta[info->kernel], err);
    c->decoding = rc == 0;
    return rc;
}

int64_t wst_cursor_next_into(wst_cursor *c, wst_record *out, size_t capacity, uint32_t *kernel,
                             ws_error *err)
{
    wst_reader *r = c->reader;
    while (!c->decoding || c->decoder.remaining == 0) {
        if (c->next >= c->end)
            return 0;
        if (load_chunk(c, err) != 0)
            goto fail;
    }
    int64_t n = wst_decoder_next(&c->decoder, out, capacity, err);
    if (n < 0)
        goto fail;
    if (r->ignore_cache_ops)
        for (int64_t i = 0; i < n; i++)
            out[i].cache_op = WST_OP_DEFAULT;
    if (kernel)
        *kernel = r->chunks[c->chunk_index].kernel;
    return n;
fail:
    c->decoding = 0;
    return ws_fail_prefix(err, "chunk %zu (kernel %u, CTA %u): ", c->chunk_index,
                          r->chunks[c->chunk_index].kernel, r->chunks[c->chunk_index].cta);
}

uint64_t wst_cursor_records_left(const wst_cursor *c)
{
    uint64_t n = c->decoding ? c->decoder.remaining : 0;
    for (size_t i = c->next; i < c->end; i++)
        n += c->reader->chunks[c->reader->order[i]].records;
    return n;
}

int64_t wst_cursor_next_batch(wst_cursor *c, const wst_record **records, uint32_t *kernel,
                              ws_error *err)
{
    *records = c->records;
    return wst_cursor_next_into(c, c->records, CURSOR_BATCH, kernel, err);
}

int wst_cursor_next(wst_cursor *c, wst_record *out, uint32_t *kernel, ws_error *err)
{
    if ((int64_t)c->single_index >= c->single_count) {
        const wst_record *batch;
        int64_t n = wst_cursor_next_batch(c, &batch, &c->single_kernel, err);
        if (n <= 0)
            return (int)n;
        c->single_count = n;
        c->single_index = 0;
    }
    *out = c->records[c->single_index++];
    if (kernel)
        *kernel = c->single_kernel;
    return 1;
}

void wst_cursor_free(wst_cursor *c)
{
    if (!c)
        return;
    if (!c->reader->spare) {
        c->reader->spare = c;
        return;
    }
    cursor_destroy(c);
}
