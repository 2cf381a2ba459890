/* formats/wst_read.c: the .wst reader (see wst.h), versions 1 to 4.
 *
 * Open reads only the trailer, the metadata and the tables (version 1: the
 * index), and checks every offset, length and checksum against the file
 * before trusting it.  Cursors then decode one chunk at a time out of a few
 * decompressed frames the reader keeps (frame_cache below), so memory is
 * bounded by the frames plus the tables. */
#include "formats/wst.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "formats/alloc_map.h"
#include "formats/packed_record.h"
#include "formats/wst_chunk_table.h"
#include "formats/wst_codec.h"
#include "formats/wst_columns.h"
#include "formats/wst_history.h"
#include "formats/wst_layout.h"
#include "formats/wst_meta.h"
#include "util/grow.h"
#include "util/hash64.h"
#include "util/inputs.h"
#include "util/prefault.h"

typedef struct kernel_ctas {
    uint32_t *ctas;        /* sorted, distinct */
    size_t *first;         /* first position in order[] of each CTA's chunks */
    uint32_t count;
    size_t order_begin, order_end;
} kernel_ctas;

/* Decompressed frames, shared by the reader's cursors.  The scheduler
 * opens a cursor per CTA in dispatch order.  In a trace a GPU collector
 * wrote, CTAs ran side by side, so one CTA's chunks lie in the frames
 * written while it ran, and the CTAs after it need mostly the same frames:
 * keeping up to 64 MiB of them makes each frame decompress about once
 * (keeping 4 made bench_wst's interleaved read 100 times slower).  A cursor
 * pins the frame it decodes from; the least recently used unpinned one is
 * replaced once the budget is reached.  The budget counts all an entry
 * holds (cached_bytes), and finding a frame's entry and the victim costs
 * the same whatever the number of entries: a trace whose CTAs never
 * ended in the writer has a frame per CTA, a few hundred bytes each, and
 * 64 MiB of those are 100,000 entries (bench/RESULTS.md, "A trace of
 * small frames"). */
#define CACHE_BYTES ((size_t)64 << 20)
#define NO_ENTRY SIZE_MAX

typedef struct cached_frame {
    size_t frame; /* SIZE_MAX: empty */
    wst_bytes raw;
    wst_frame_layout layout; /* versions 2 to 4 */
    unsigned pins;
    size_t counted; /* its share of cache_bytes: cached_bytes when last filled */
    /* The entries in the order of their last use, least recent first
     * (lru_first, lru_last): the victim is the first unpinned one. */
    size_t older, newer;
} cached_frame;

struct wst_reader {
    int fd;
    unsigned version;
    uint64_t file_bytes;
    uint64_t chunk_area_end; /* = metadata offset */
    wst_trace trace;
    wst_chunk_info *chunks; /* in file order */
    size_t chunk_count;
    wst_frame_info *frames; /* in file order */
    uint64_t *frame_hash;
    size_t frame_count;
    size_t *order;           /* chunk indices by (kernel, CTA, file order) */
    size_t order_count;      /* its length: every chunk, or those of the kernels kept */
    cached_frame *cache;
    size_t cache_count, cache_capacity;
    size_t cache_bytes;  /* held by the cache's entries (cached_bytes) */
    size_t cache_budget; /* CACHE_BYTES unless a test set it (wst_reader_set_cache_budget) */
    size_t *frame_entry; /* [frame_count]: the entry holding the frame + 1, or 0 */
    size_t lru_first, lru_last;
    uint64_t frames_decompressed;
    wst_decompressor *dctx;
    wst_bytes compressed;   /* a frame as read, before decompression */
    uint32_t *frame_records; /* scratch: records of a frame's chunks */
    kernel_ctas *kernels;
    uint32_t *warps_per_cta; /* per kernel */
    wst_alloc_map allocations;
    /* One freed cursor kept for the next: the scheduler opens a cursor per
     * CTA, and a fresh zstd context and buffers each time cost page faults. */
    struct wst_cursor *spare;
    int ignore_cache_ops;
    char *selection;            /* how the kept kernels were chosen, or NULL: all */
    uint32_t kernels_in_file;
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
    free(r->frames);
    free(r->frame_hash);
    free(r->order);
    for (size_t i = 0; i < r->cache_count; i++) {
        wst_bytes_free(&r->cache[i].raw);
        wst_frame_layout_free(&r->cache[i].layout);
    }
    free(r->cache);
    free(r->frame_entry);
    free(r->frame_records);
    wst_decompressor_free(r->dctx);
    wst_bytes_free(&r->compressed);
    wst_alloc_map_free(&r->allocations);
    wst_trace_clear(&r->trace);
    free(r->selection);
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
    if (r->file_bytes < WST_HEADER_BYTES + WST_V1_TRAILER_BYTES)
        return ws_fail(err, "truncated: %llu bytes is smaller than header and trailer",
                       (unsigned long long)r->file_bytes);
    if (read_at(r, header, sizeof header, 0, err) != 0)
        return -1;
    uint32_t version = wst_get_u32(header + 8);
    if (version > WST_VERSION)
        return ws_fail(err, "written by a newer warpscope (format version %u; this reads versions 1 to %d)",
                       version, WST_VERSION);
    if (version == 0 || wst_get_u32(header + 12) != 0)
        return ws_fail(err, "corrupt header (version %u, flags %u)", version,
                       wst_get_u32(header + 12));
    r->version = version;
    if (version >= 2 && r->file_bytes < WST_HEADER_BYTES + WST_TRAILER_BYTES)
        return ws_fail(err, "truncated: %llu bytes is smaller than header and trailer",
                       (unsigned long long)r->file_bytes);
    return 0;
}

/* Where the sections lie.  Version 1's index is its frame and chunk
 * tables in one (frames = chunks, table bytes 40 per chunk). */
typedef struct trailer {
    uint64_t meta_offset, meta_bytes, tables_offset, frames, chunks, meta_hash, tables_hash;
    uint64_t tables_bytes;
} trailer;

static int read_trailer(wst_reader *r, trailer *t, ws_error *err)
{
    int v1 = r->version == 1;
    size_t size = v1 ? WST_V1_TRAILER_BYTES : WST_TRAILER_BYTES;
    uint8_t b[WST_TRAILER_BYTES];
    if (read_at(r, b, size, r->file_bytes - size, err) != 0)
        return -1;
    if (memcmp(b + size - 8, WST_TRAILER_MAGIC, 8) != 0)
        return ws_fail(err, "truncated or corrupt: the trailer is missing");
    if (wst_get_u64(b + size - 16) != hash64(b, size - 16, 0))
        return ws_fail(err, "corrupt trailer (checksum mismatch)");
    if (v1)
        *t = (trailer){wst_get_u64(b),      wst_get_u64(b + 8),  wst_get_u64(b + 16),
                       wst_get_u64(b + 24), wst_get_u64(b + 24), wst_get_u64(b + 32),
                       wst_get_u64(b + 40), 0};
    else
        *t = (trailer){wst_get_u64(b),      wst_get_u64(b + 8),  wst_get_u64(b + 16),
                       wst_get_u64(b + 24), wst_get_u64(b + 32), wst_get_u64(b + 40),
                       wst_get_u64(b + 48), 0};
    uint64_t tables_end = r->file_bytes - size;
    /* Version 2's chunk entries take 1 byte or more. */
    uint64_t frame_bytes = v1 ? 0 : WST_FRAME_ENTRY_BYTES;
    uint64_t chunk_bytes = v1 ? WST_V1_INDEX_ENTRY_BYTES : 1;
    /* Each comparison is written so that no sum can overflow. */
    if (t->meta_offset < WST_HEADER_BYTES || t->meta_offset > tables_end ||
        t->meta_bytes > WST_MAX_METADATA_BYTES || t->meta_bytes > tables_end - t->meta_offset ||
        t->tables_offset != t->meta_offset + t->meta_bytes)
        return ws_fail(err, "corrupt trailer (sections do not fit the file)");
    uint64_t room = tables_end - t->tables_offset;
    if (t->frames > t->chunks || (t->chunks && !t->frames) ||
        (frame_bytes && t->frames > room / frame_bytes) ||
        t->chunks > (room - t->frames * frame_bytes) / chunk_bytes ||
        (v1 && t->chunks * chunk_bytes != room))
        return ws_fail(err, "corrupt trailer (sections do not fit the file)");
    t->tables_bytes = room;
    return 0;
}

/* The reader's one zstd context for its frames, made on first use;
 * NULL when out of memory. */
static wst_decompressor *reader_decompressor(wst_reader *r)
{
    if (!r->dctx)
        r->dctx = wst_decompressor_new();
    return r->dctx;
}

/* The metadata's text as it is decoded: version 2's is one zstd frame of
 * the JSON text, at most WST_MAX_METADATA_BYTES decompressed, inflated a
 * block at a time; version 1's is the text itself.  Only the stored
 * (compressed) bytes are held, and of the text at most its first MiB
 * (wst_meta_decode_stream: the compact reader's head), never the whole of
 * a larger one (issue 42). */
typedef struct metadata_source {
    const uint8_t *stored;
    size_t stored_bytes, at;
    ZSTD_DStream *z; /* NULL: version 1 */
    unsigned long long produced, expected;
    int ended;
} metadata_source;

static ssize_t read_metadata_text(void *ctx, char *buf, size_t n, ws_error *err)
{
    metadata_source *m = ctx;
    if (!m->z) {
        size_t take = m->stored_bytes - m->at < n ? m->stored_bytes - m->at : n;
        memcpy(buf, m->stored + m->at, take);
        m->at += take;
        return (ssize_t)take;
    }
    ZSTD_outBuffer out = {buf, n, 0};
    ZSTD_inBuffer in = {m->stored, m->stored_bytes, m->at};
    while (out.pos == 0 && !m->ended) {
        size_t left = ZSTD_decompressStream(m->z, &out, &in);
        if (ZSTD_isError(left))
            return ws_fail(err, "corrupt metadata: %s", ZSTD_getErrorName(left));
        m->ended = left == 0;
        if (!m->ended && in.pos == in.size && out.pos < out.size)
            return ws_fail(err, "corrupt metadata: its zstd frame is cut short");
    }
    m->at = in.pos;
    m->produced += out.pos;
    if (m->produced > m->expected || (m->ended && out.pos == 0 && m->produced != m->expected))
        return ws_fail(err, "corrupt metadata: not the %llu bytes its frame says", m->expected);
    return (ssize_t)out.pos;
}

static int read_metadata(wst_reader *r, const trailer *t, ws_error *err)
{
    metadata_source m = {.stored_bytes = t->meta_bytes};
    uint8_t *stored = malloc(t->meta_bytes ? t->meta_bytes : 1);
    int rc = stored ? read_at(r, stored, t->meta_bytes, t->meta_offset, err)
                    : ws_fail(err, "out of memory");
    if (rc == 0 && hash64(stored, t->meta_bytes, 0) != t->meta_hash)
        rc = ws_fail(err, "corrupt metadata (checksum mismatch)");
    m.stored = stored;
    if (rc == 0 && r->version > 1) {
        m.expected = ZSTD_getFrameContentSize(stored, t->meta_bytes);
        if (m.expected == ZSTD_CONTENTSIZE_ERROR || m.expected == ZSTD_CONTENTSIZE_UNKNOWN ||
            m.expected > WST_MAX_METADATA_BYTES)
            rc = ws_fail(err, "corrupt metadata (not a zstd frame of at most %u MiB)",
                         WST_MAX_METADATA_BYTES >> 20);
        else if (!(m.z = ZSTD_createDStream()))
            rc = ws_fail(err, "out of memory");
    }
    if (rc == 0)
        rc = wst_meta_decode_stream(read_metadata_text, &m, r->version, &r->trace, err);
    ZSTD_freeDStream(m.z);
    free(stored);
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

static int validate_chunk(const wst_reader *r, const wst_chunk_info *c, size_t i, ws_error *err)
{
    if (c->kernel >= r->trace.kernel_count)
        return ws_fail(err, "corrupt index: chunk %zu names kernel %u of %u", i, c->kernel,
                       r->trace.kernel_count);
    const wst_kernel *k = &r->trace.kernels[c->kernel];
    uint64_t ctas = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
    if (c->cta >= ctas)
        return ws_fail(err, "corrupt index: chunk %zu names CTA %u outside the grid", i, c->cta);
    if (c->records == 0 || c->records > WST_MAX_CHUNK_RECORDS)
        return ws_fail(err, "corrupt index: chunk %zu has impossible sizes", i);
    return 0;
}

/* A version 1 "frame" is a chunk, and its errors say so. */
static int validate_frame(const wst_reader *r, const wst_frame_info *f, size_t i, ws_error *err)
{
    const char *what = r->version == 1 ? "chunk" : "frame";
    uint32_t max_raw = r->version == 1 ? WST_MAX_CHUNK_RAW_BYTES : WST_MAX_FRAME_RAW_BYTES;
    if (f->raw_bytes == 0 || f->raw_bytes > max_raw || f->compressed_bytes == 0)
        return ws_fail(err, "corrupt index: %s %zu has impossible sizes", what, i);
    if (f->offset < WST_HEADER_BYTES || f->offset > r->chunk_area_end ||
        f->compressed_bytes > r->chunk_area_end - f->offset)
        return ws_fail(err, "corrupt index: %s %zu lies outside the chunk area", what, i);
    return 0;
}

static int compare_offsets(const void *a, const void *b, void *frames)
{
    const wst_frame_info *f = frames;
    uint64_t x = f[*(const size_t *)a].offset, y = f[*(const size_t *)b].offset;
    return (x > y) - (x < y);
}

/* A CTA's chunks in file order: by their frames' offsets (version 1 lists
 * chunks in any order), then by their place in the chunk table. */
static int compare_kernel_cta(const void *a, const void *b, void *reader)
{
    const wst_reader *r = reader;
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    const wst_chunk_info *x = &r->chunks[i], *y = &r->chunks[j];
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    if (x->cta != y->cta)
        return x->cta < y->cta ? -1 : 1;
    uint64_t ox = r->frames[x->frame].offset, oy = r->frames[y->frame].offset;
    if (ox != oy)
        return ox < oy ? -1 : 1;
    return (i > j) - (i < j);
}

static void parse_v1_index(wst_reader *r, const uint8_t *raw)
{
    for (size_t i = 0; i < r->chunk_count; i++) {
        const uint8_t *e = raw + i * WST_V1_INDEX_ENTRY_BYTES;
        r->chunks[i] = (wst_chunk_info){.kernel = wst_get_u32(e),
                                        .cta = wst_get_u32(e + 4),
                                        .records = wst_get_u32(e + 8),
                                        .frame = (uint32_t)i};
        r->frames[i] = (wst_frame_info){.offset = wst_get_u64(e + 16),
                                        .compressed_bytes = wst_get_u32(e + 24),
                                        .raw_bytes = wst_get_u32(e + 12),
                                        .first_chunk = (uint32_t)i,
                                        .chunks = 1};
        r->frame_hash[i] = wst_get_u64(e + 32);
    }
}

static int parse_v2_tables(wst_reader *r, const uint8_t *raw, size_t len, ws_error *err)
{
    uint64_t next_chunk = 0, previous_end = WST_HEADER_BYTES;
    for (size_t i = 0; i < r->frame_count; i++) {
        const uint8_t *e = raw + i * WST_FRAME_ENTRY_BYTES;
        wst_frame_info *f = &r->frames[i];
        *f = (wst_frame_info){.offset = wst_get_u64(e),
                              .compressed_bytes = wst_get_u32(e + 8),
                              .raw_bytes = wst_get_u32(e + 12),
                              .first_chunk = (uint32_t)next_chunk,
                              .chunks = wst_get_u32(e + 16)};
        r->frame_hash[i] = wst_get_u64(e + 24);
        if (f->chunks == 0 || f->chunks > r->chunk_count - next_chunk || wst_get_u32(e + 20))
            return ws_fail(err, "corrupt index: frame %zu holds an impossible number of chunks", i);
        if (validate_frame(r, f, i, err) != 0)
            return -1;
        if (f->offset < previous_end) /* frames are listed in file order */
            return ws_fail(err, "corrupt index: frames overlap or are out of order");
        previous_end = f->offset + f->compressed_bytes;
        for (uint32_t k = 0; k < f->chunks; k++)
            r->chunks[next_chunk + k].frame = (uint32_t)i;
        next_chunk += f->chunks;
    }
    if (next_chunk != r->chunk_count)
        return ws_fail(err, "corrupt index: the frames hold %llu chunks, the trailer says %zu",
                       (unsigned long long)next_chunk, r->chunk_count);
    size_t frame_table = r->frame_count * WST_FRAME_ENTRY_BYTES;
    return wst_chunk_table_read(raw + frame_table, len - frame_table, r->chunk_count, r->chunks,
                                err);
}

/* Version 1: frames (chunks) may be listed in any order but must not
 * overlap. */
static int check_v1_overlaps(wst_reader *r, ws_error *err)
{
    for (size_t i = 0; i < r->frame_count; i++) {
        r->order[i] = i;
        if (validate_frame(r, &r->frames[i], i, err) != 0)
            return -1;
    }
    if (r->frame_count)
        qsort_r(r->order, r->frame_count, sizeof *r->order, compare_offsets, r->frames);
    for (size_t i = 1; i < r->frame_count; i++) {
        const wst_frame_info *a = &r->frames[r->order[i - 1]], *b = &r->frames[r->order[i]];
        if (b->offset - a->offset < a->compressed_bytes)
            return ws_fail(err, "corrupt index: chunks overlap");
    }
    return 0;
}

static int read_index(wst_reader *r, const trailer *t, ws_error *err)
{
    r->chunk_count = (size_t)t->chunks;
    r->frame_count = (size_t)t->frames;
    size_t n = r->chunk_count, frames = r->frame_count;
    size_t bytes = (size_t)t->tables_bytes; /* checked against the file by read_trailer */
    uint8_t *raw = malloc(bytes ? bytes : 1);
    r->chunks = calloc(n ? n : 1, sizeof *r->chunks);
    r->frames = calloc(frames ? frames : 1, sizeof *r->frames);
    r->frame_hash = calloc(frames ? frames : 1, sizeof *r->frame_hash);
    r->order = calloc(n ? n : 1, sizeof *r->order);
    if (!raw || !r->chunks || !r->frames || !r->frame_hash || !r->order) {
        free(raw);
        return ws_fail(err, "out of memory");
    }
    int rc = read_at(r, raw, bytes, t->tables_offset, err);
    if (rc == 0 && hash64(raw, bytes, 0) != t->tables_hash)
        rc = ws_fail(err, "corrupt index (checksum mismatch)");
    if (rc == 0 && r->version == 1) {
        parse_v1_index(r, raw);
        rc = check_v1_overlaps(r, err);
    } else if (rc == 0) {
        rc = parse_v2_tables(r, raw, bytes, err);
    }
    free(raw);
    uint64_t *records = rc == 0 ? calloc(r->trace.kernel_count + 1, sizeof *records) : NULL;
    if (rc == 0 && !records)
        rc = ws_fail(err, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = validate_chunk(r, &r->chunks[i], i, err);
        if (rc == 0)
            records[r->chunks[i].kernel] += r->chunks[i].records;
    }
    for (uint32_t k = 0; rc == 0 && k < r->trace.kernel_count; k++)
        if (records[k] != r->trace.kernels[k].record_count)
            rc = ws_fail(err, "corrupt index: kernel %u has %llu records, metadata says %llu", k,
                         (unsigned long long)records[k],
                         (unsigned long long)r->trace.kernels[k].record_count);
    free(records);
    if (rc != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        r->order[i] = i;
    r->order_count = n;
    if (n)
        qsort_r(r->order, n, sizeof *r->order, compare_kernel_cta, r);
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
        while (end < r->order_count && r->chunks[r->order[end]].kernel == k) {
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
    r->lru_first = r->lru_last = NO_ENTRY;
    r->cache_budget = CACHE_BYTES;
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
    ws_inputs_add(path); /* no output of this run may replace it (util/inputs.h) */
    r->file_bytes = (uint64_t)st.st_size;
    trailer t = {0};
    if (check_header(r, err) != 0 || read_trailer(r, &t, err) != 0)
        goto fail;
    r->chunk_area_end = t.meta_offset;
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
size_t wst_reader_frame_count(const wst_reader *r) { return r->frame_count; }
unsigned wst_reader_version(const wst_reader *r) { return r->version; }
uint64_t wst_reader_frames_decompressed(const wst_reader *r) { return r->frames_decompressed; }

void wst_reader_set_cache_budget(wst_reader *r, size_t bytes) { r->cache_budget = bytes; }

size_t wst_reader_cache_bytes(const wst_reader *r) { return r->cache_bytes; }

const wst_frame_info *wst_reader_frame(const wst_reader *r, size_t index)
{
    return index < r->frame_count ? &r->frames[index] : NULL;
}

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
#define NOT_PINNED SIZE_MAX

struct wst_cursor {
    wst_reader *reader;
    size_t next, end; /* range of r->order */
    wst_decoder decoder;
    wst_history *history; /* the history model of versions 2 to 4, allocated on first use */
    size_t pinned;        /* the cache entry decoded from, or NOT_PINNED */
    size_t chunk_index;   /* the chunk being decoded */
    int decoding;
    /* The batch of wst_cursor_next_batch, allocated on its first call: the
     * scheduler's packed path never uses it, and its 78 KB, cleared with
     * the cursor, cost 2dconv fermi 18 page faults (bench/RESULTS.md,
     * "Branch mem43"). */
    wst_record *records;
    size_t single_index; /* for wst_cursor_next */
    int64_t single_count;
    uint32_t single_kernel;
};

static void unpin(wst_cursor *c)
{
    if (c->pinned != NOT_PINNED)
        c->reader->cache[c->pinned].pins--;
    c->pinned = NOT_PINNED;
    c->decoding = 0;
}

static void cursor_destroy(wst_cursor *c)
{
    free(c->history);
    free(c->records);
    free(c);
}

static wst_cursor *cursor_over(wst_reader *r, size_t begin, size_t end, ws_error *err)
{
    wst_cursor *c = r->spare;
    r->spare = NULL;
    if (!c && !(c = calloc(1, sizeof *c))) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    c->reader = r;
    c->next = begin;
    c->end = end;
    c->pinned = NOT_PINNED;
    c->chunk_index = 0;
    c->decoding = 0;
    c->single_index = 0;
    c->single_count = 0;
    c->single_kernel = 0;
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
    return cursor_over(r, 0, r->order_count, err);
}

/* Reads, checks and decompresses frame f into cache entry e. */
static int fill_cache_entry(wst_reader *r, cached_frame *e, size_t f, ws_error *err)
{
    const wst_frame_info *info = &r->frames[f];
    e->frame = SIZE_MAX;
    r->compressed.len = e->raw.len = 0;
    if (!reader_decompressor(r))
        return ws_fail(err, "out of memory");
    if (wst_bytes_reserve(&r->compressed, info->compressed_bytes) != 0 ||
        wst_bytes_reserve(&e->raw, info->raw_bytes) != 0)
        return ws_fail(err, "out of memory");
    /* Both are written whole next (read, decompressed): fault them in at
     * once, not page by page (util/prefault.h). */
    (void)ws_prefault(r->compressed.data, info->compressed_bytes);
    (void)ws_prefault(e->raw.data, info->raw_bytes);
    if (read_at(r, r->compressed.data, info->compressed_bytes, info->offset, err) != 0)
        return -1;
    if (hash64(r->compressed.data, info->compressed_bytes, info->offset) != r->frame_hash[f])
        return ws_fail(err, "checksum mismatch");
    if (wst_decompress(r->dctx, r->compressed.data, info->compressed_bytes, e->raw.data,
                       info->raw_bytes, err) != 0)
        return -1;
    if (r->version >= 2) {
        uint32_t *records = realloc(r->frame_records, (info->chunks + 1) * sizeof *records);
        if (!records)
            return ws_fail(err, "out of memory");
        r->frame_records = records;
        for (uint32_t k = 0; k < info->chunks; k++)
            records[k] = r->chunks[info->first_chunk + k].records;
        if (wst_frame_parse(&e->layout, e->raw.data, info->raw_bytes, info->chunks, records,
                            err) != 0)
            return -1;
    }
    e->frame = f;
    return 0;
}

/* The bytes an entry holds: its frame, its layout, itself. */
static size_t cached_bytes(const cached_frame *e)
{
    return sizeof *e + e->raw.cap + (size_t)e->layout.chunks * WST_COLUMNS * 2 * sizeof(uint32_t);
}

/* Takes entry i out of the order of use. */
static void lru_unlink(wst_reader *r, size_t i)
{
    cached_frame *e = &r->cache[i];
    *(e->older == NO_ENTRY ? &r->lru_first : &r->cache[e->older].newer) = e->newer;
    *(e->newer == NO_ENTRY ? &r->lru_last : &r->cache[e->newer].older) = e->older;
}

/* Puts entry i last (just used) or, `first`, first (to be replaced next). */
static void lru_insert(wst_reader *r, size_t i, int first)
{
    cached_frame *e = &r->cache[i];
    if (first) {
        e->older = NO_ENTRY;
        e->newer = r->lru_first;
        *(r->lru_first == NO_ENTRY ? &r->lru_last : &r->cache[r->lru_first].older) = i;
        r->lru_first = i;
    } else {
        e->newer = NO_ENTRY;
        e->older = r->lru_last;
        *(r->lru_last == NO_ENTRY ? &r->lru_first : &r->cache[r->lru_last].newer) = i;
        r->lru_last = i;
    }
}

/* A new empty entry, or NO_ENTRY when out of memory. */
static size_t new_entry(wst_reader *r)
{
    if (ws_grow((void **)&r->cache, &r->cache_capacity, r->cache_count + 1, sizeof *r->cache))
        return NO_ENTRY;
    size_t i = r->cache_count++;
    r->cache[i] = (cached_frame){.frame = SIZE_MAX};
    lru_insert(r, i, 1);
    return i;
}

/* The least recently used unpinned entry, or NO_ENTRY.  Pinned entries
 * are passed over: at most one per open cursor. */
static size_t lru_victim(const wst_reader *r)
{
    size_t i = r->lru_first;
    while (i != NO_ENTRY && r->cache[i].pins)
        i = r->cache[i].newer;
    return i;
}

/* The cache entry holding frame f, decompressed now if it is not there. */
static int frame_in_cache(wst_reader *r, size_t f, size_t *entry, ws_error *err)
{
    /* Made at the first frame read: a reader opened for its metadata
     * alone (info) never needs it. */
    if (!r->frame_entry &&
        !(r->frame_entry = calloc(r->frame_count ? r->frame_count : 1, sizeof *r->frame_entry)))
        return ws_fail(err, "out of memory");
    size_t at = r->frame_entry[f];
    if (at) {
        *entry = at - 1;
        lru_unlink(r, at - 1);
        lru_insert(r, at - 1, 0);
        return 0;
    }
    /* An empty entry (a failed fill) is first in the order, so it is
     * taken before a new one; a full entry only once the budget is spent. */
    size_t victim = lru_victim(r);
    int room = r->cache_bytes + r->frames[f].raw_bytes <= r->cache_budget;
    if (victim == NO_ENTRY || (r->cache[victim].frame != SIZE_MAX && room))
        if ((victim = new_entry(r)) == NO_ENTRY)
            return ws_fail(err, "out of memory");
    cached_frame *e = &r->cache[victim];
    if (e->frame != SIZE_MAX)
        r->frame_entry[e->frame] = 0;
    *entry = victim;
    int rc = fill_cache_entry(r, e, f, err);
    r->cache_bytes = r->cache_bytes - e->counted + cached_bytes(e);
    e->counted = cached_bytes(e);
    lru_unlink(r, victim);
    lru_insert(r, victim, rc != 0);
    if (rc == 0)
        r->frame_entry[f] = victim + 1;
    r->frames_decompressed += rc == 0;
    return rc;
}

/* Starts decoding the cursor's next chunk. */
static int load_chunk(wst_cursor *c, ws_error *err)
{
    wst_reader *r = c->reader;
    size_t index = r->order[c->next++];
    const wst_chunk_info *info = &r->chunks[index];
    const wst_frame_info *frame = &r->frames[info->frame];
    c->chunk_index = index;
    unpin(c);
    size_t entry = 0;
    if (frame_in_cache(r, info->frame, &entry, err) != 0)
        return -1;
    const cached_frame *e = &r->cache[entry];
    uint32_t pcs = r->trace.kernels[info->kernel].pc_count, warps = r->warps_per_cta[info->kernel];
    int rc;
    if (r->version == 1) {
        rc = wst_decoder_start_v1(&c->decoder, e->raw.data, frame->raw_bytes, info->records,
                                  info->cta, pcs, warps, err);
    } else {
        if (!c->history && !(c->history = calloc(1, sizeof *c->history)))
            return ws_fail(err, "out of memory");
        rc = wst_decoder_start_v2(&c->decoder, &e->layout, (uint32_t)(index - frame->first_chunk),
                                  info->records, info->cta, pcs, warps, r->version, c->history,
                                  err);
    }
    if (rc != 0)
        return -1;
    c->pinned = entry;
    r->cache[entry].pins++;
    c->decoding = 1;
    return 0;
}

/* Makes the cursor's chunk one with records left: 1, 0 at the end, -1. */
static int cursor_ready(wst_cursor *c, ws_error *err)
{
    while (!c->decoding || c->decoder.remaining == 0) {
        if (c->next >= c->end) {
            unpin(c);
            return 0;
        }
        if (load_chunk(c, err) != 0)
            return -1;
    }
    return 1;
}

/* After a decoding error: names the chunk. */
static int64_t cursor_failed(wst_cursor *c, ws_error *err)
{
    const wst_chunk_info *chunk = &c->reader->chunks[c->chunk_index];
    unpin(c);
    return ws_fail_prefix(err, "chunk %zu (kernel %u, CTA %u): ", c->chunk_index, chunk->kernel,
                          chunk->cta);
}

int64_t wst_cursor_next_into(wst_cursor *c, wst_record *out, size_t capacity, uint32_t *kernel,
                             ws_error *err)
{
    wst_reader *r = c->reader;
    int ready = cursor_ready(c, err);
    if (ready <= 0)
        return ready < 0 ? cursor_failed(c, err) : 0;
    int64_t n = wst_decoder_next(&c->decoder, out, (uint32_t)capacity, err);
    if (n < 0)
        return cursor_failed(c, err);
    if (r->ignore_cache_ops)
        for (int64_t i = 0; i < n; i++)
            out[i].cache_op = WST_OP_DEFAULT;
    if (kernel)
        *kernel = r->chunks[c->chunk_index].kernel;
    return n;
}

int64_t wst_cursor_next_packed(wst_cursor *c, struct packed_cta *out, uint32_t *kernel,
                               ws_error *err)
{
    wst_reader *r = c->reader;
    int ready = cursor_ready(c, err);
    if (ready <= 0)
        return ready < 0 ? cursor_failed(c, err) : 0;
    size_t from = out->count;
    int64_t n = wst_decoder_next_packed(&c->decoder, out, UINT32_MAX, err);
    if (n < 0)
        return cursor_failed(c, err);
    if (r->ignore_cache_ops)
        for (size_t i = from; i < out->count; i++)
            out->records[i].cache_op = WST_OP_DEFAULT;
    if (kernel)
        *kernel = r->chunks[c->chunk_index].kernel;
    return n;
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
    if (!c->records && !(c->records = malloc(CURSOR_BATCH * sizeof *c->records)))
        return ws_fail(err, "out of memory");
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
    unpin(c);
    if (!c->reader->spare) {
        c->reader->spare = c;
        return;
    }
    cursor_destroy(c);
}

/* Drops the kernels not kept: the trace's kernel table, the CTA lists and
 * the order the cursors walk lose them, and the chunks of the kept ones are
 * renumbered, so everything downstream sees a trace of the kept kernels
 * alone.  The chunk and frame tables stay whole (a frame's chunks are
 * decoded by their place in it); a dropped chunk is never reached, since
 * cursors walk order[] only. */
int wst_reader_keep_kernels(wst_reader *r, const uint8_t *keep, const char *selection,
                            ws_error *err)
{
    uint32_t n = r->trace.kernel_count, kept = 0;
    uint32_t *renumber = calloc(n + 1, sizeof *renumber);
    char *note = strdup(selection ? selection : "");
    if (!renumber || !note) {
        free(renumber);
        free(note);
        return ws_fail(err, "out of memory");
    }
    free(r->selection);
    r->selection = note;
    if (!r->kernels_in_file)
        r->kernels_in_file = n;
    for (uint32_t k = 0; k < n; k++)
        renumber[k] = keep[k] ? kept++ : UINT32_MAX;
    size_t m = 0;
    for (size_t i = 0; i < r->order_count; i++)
        if (keep[r->chunks[r->order[i]].kernel])
            r->order[m++] = r->order[i];
    r->order_count = m;
    /* A chunk an earlier selection left out already has no kernel. */
    for (size_t i = 0; i < r->chunk_count; i++)
        r->chunks[i].kernel = r->chunks[i].kernel < n ? renumber[r->chunks[i].kernel] : UINT32_MAX;
    for (uint32_t k = 0; k < n; k++) {
        free(r->kernels[k].ctas);
        free(r->kernels[k].first);
        if (!keep[k]) {
            wst_kernel_clear(&r->trace.kernels[k]);
            continue;
        }
        r->trace.kernels[renumber[k]] = r->trace.kernels[k];
        r->warps_per_cta[renumber[k]] = r->warps_per_cta[k];
    }
    free(renumber);
    memset(r->trace.kernels + kept, 0, (n - kept) * sizeof *r->trace.kernels);
    free(r->kernels);
    r->kernels = NULL;
    r->trace.kernel_count = kept;
    return build_cta_lists(r, err);
}

const char *wst_reader_selection(const wst_reader *r) { return r->selection; }

uint32_t wst_reader_kernels_in_file(const wst_reader *r)
{
    return r->kernels_in_file ? r->kernels_in_file : r->trace.kernel_count;
}
