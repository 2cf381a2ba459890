/* formats/wst_write.c: the .wst writer (see wst.h for the contract and
 * wst_layout.h / docs/trace-format.md for the bytes).
 *
 * Memory: one packed-row buffer per CTA that has unflushed records, capped
 * by chunk_records per CTA and by memory_budget overall (the largest buffers
 * are flushed first when the budget is exceeded), the frame being built
 * (about frame_bytes), 32 bytes per frame written (the chunk table past
 * 64 KiB waits in a temporary file), and the
 * kernels not yet ended (wst_writer_end_kernel): their entries and PC
 * tables.  An ended kernel's metadata entry waits in a temporary file (the
 * spool) until the close, where the metadata follows the last frame, so
 * a trace of many launches holds only the open ones (issue 42). */
#include "formats/wst.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/alloc_map.h"
#include "formats/sink.h"
#include "formats/wst_chunk_table.h"
#include "formats/wst_codec.h"
#include "formats/wst_layout.h"
#include "formats/wst_meta.h"
#include "util/grow.h"
#include "util/hash64.h"
#include "util/outfile.h"
#include "util/text.h"
#include "util/u64map.h"

#define DEFAULT_CHUNK_RECORDS 4096
#define DEFAULT_MEMORY_BUDGET (64u << 20)
/* 1 MiB frames: large enough that zstd finds what repeats between CTAs,
 * small enough that reading one CTA decompresses little besides it. */
#define DEFAULT_FRAME_BYTES (1u << 20)

typedef struct cta_buffer {
    uint32_t kernel, cta;
    uint32_t records;
    wst_bytes rows;
} cta_buffer;

typedef struct chunk_entry {
    uint32_t kernel, cta, records;
} chunk_entry;

/* A frame being built and the chunk entries it will add to the table. */
typedef struct frame_in_progress {
    wst_frame_builder *builder;
    chunk_entry *chunks;
    size_t count, capacity;
} frame_in_progress;

typedef struct frame_entry {
    uint64_t offset;
    uint32_t compressed_bytes, raw_bytes, chunks;
    uint64_t hash;
} frame_entry;

struct wst_writer {
    ws_outfile *out;
    FILE *stream;
    uint64_t offset; /* bytes written so far */
    wst_writer_options options;
    wst_trace trace; /* origin and allocations; its kernels are below */
    /* Kernels kernel_base.. kernel_count - 1, not yet ended: open[k -
     * kernel_base].  Those before kernel_base are ended, their entries in
     * the spool. */
    wst_kernel *open;
    size_t open_capacity;
    size_t *pc_capacity; /* per open kernel */
    uint32_t kernel_base, kernel_count;
    FILE *spool;          /* ended kernels' entries, comma-separated; NULL before any */
    uint64_t spool_bytes;
    u64map buffer_of;    /* (kernel << 32 | cta) -> buffers[] position */
    cta_buffer *buffers;
    size_t buffer_count, buffer_capacity;
    size_t buffered_bytes; /* capacity held by all CTA buffers */
    /* The chunk table, encoded as each frame is written (wst_chunk_table.h);
     * past CHUNK_TABLE_HELD bytes it goes to a temporary file, copied after
     * the frame table at the close: 12 bytes a chunk were kept until then,
     * so an import grew with its launches (issue 42). */
    wst_bytes chunk_table;
    wst_chunk_cursor chunk_cursor;
    FILE *chunk_spool; /* NULL before the first spill */
    uint64_t chunk_spool_bytes, chunk_count;
    frame_entry *frames;
    size_t frame_count, frame_capacity;
    /* Chunks of CTAs that have ended share frames: such a CTA is read from
     * one place, and CTAs that end together are read together.  A chunk of
     * a CTA still running (flushed because it filled, or for the memory
     * budget) is a frame of its own: that CTA's chunks lie far apart in the
     * file, and a shared frame would be decompressed whole for each. */
    frame_in_progress shared, alone;
    wst_compressor *compressor;
    wst_bytes raw, packed;
    size_t allocation_capacity;
    wst_alloc_map allocation_map; /* finds an overlapping allocation */
    uint64_t meta_estimate; /* the metadata's bytes before JSON escaping */
    int failed;
};

/* The reader refuses metadata over WST_MAX_METADATA_BYTES, so the writer
 * must never write it: names and PC strings are counted as they come, so a
 * run that would overflow stops at the kernel that does it, not after
 * writing every chunk (the exact size is checked again at close).  Per
 * kernel and per PC, the JSON's own keys and numbers. */
#define META_BYTES_PER_KERNEL 256u
#define META_BYTES_PER_PC 128u
#define META_BYTES_PER_ALLOCATION 64u

static int count_metadata(wst_writer *w, uint64_t bytes, const char *what, uint32_t index,
                          ws_error *err)
{
    w->meta_estimate += bytes;
    if (w->meta_estimate <= WST_MAX_METADATA_BYTES)
        return 0;
    return ws_fail(err, "%s %u: the trace's metadata (kernel names, PCs) would pass the "
                   "format's %u MiB limit", what, index, WST_MAX_METADATA_BYTES >> 20);
}

static int write_bytes(wst_writer *w, const void *data, size_t len, ws_error *err)
{
    if (len && fwrite(data, 1, len, w->stream) != len) {
        w->failed = 1;
        return ws_fail(err, "write failed");
    }
    w->offset += len;
    return 0;
}

wst_writer *wst_writer_open(const char *path, const wst_origin *origin,
                            const wst_writer_options *opts, ws_error *err)
{
    wst_writer *w = calloc(1, sizeof *w);
    if (!w) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    if (opts)
        w->options = *opts;
    w->chunk_cursor = WST_CHUNK_CURSOR_START;
    if (!w->options.chunk_records)
        w->options.chunk_records = DEFAULT_CHUNK_RECORDS;
    if (w->options.chunk_records > WST_MAX_CHUNK_RECORDS)
        w->options.chunk_records = WST_MAX_CHUNK_RECORDS;
    if (!w->options.memory_budget)
        w->options.memory_budget = DEFAULT_MEMORY_BUDGET;
    if (!w->options.frame_bytes)
        w->options.frame_bytes = DEFAULT_FRAME_BYTES;
    if (w->options.frame_bytes > WST_MAX_FRAME_RAW_BYTES / 2)
        w->options.frame_bytes = WST_MAX_FRAME_RAW_BYTES / 2;
    if (u64map_init(&w->buffer_of, 64) != 0 || wst_origin_copy(&w->trace.origin, origin) != 0 ||
        !(w->compressor = wst_compressor_new(w->options.compression_level)) ||
        !(w->shared.builder = wst_frame_builder_new()) ||
        !(w->alone.builder = wst_frame_builder_new())) {
        ws_fail(err, "out of memory");
        wst_writer_abort(w);
        return NULL;
    }
    /* The origin only labels the trace (an import's is its input path,
     * which may be any bytes): mended, so the JSON metadata can hold it. */
    char *labels[] = {w->trace.origin.collector, w->trace.origin.collector_version,
                      w->trace.origin.gpu, w->trace.origin.workload};
    for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
        if (labels[i])
            ws_text_mend(labels[i]);
    w->out = ws_outfile_open(path, err);
    if (!w->out) {
        wst_writer_abort(w);
        return NULL;
    }
    w->stream = ws_outfile_stream(w->out);
    uint8_t header[WST_HEADER_BYTES] = {0};
    memcpy(header, WST_MAGIC, 8);
    wst_put_u32(header + 8, WST_VERSION);
    if (write_bytes(w, header, sizeof header, err) != 0) {
        wst_writer_abort(w);
        return NULL;
    }
    return w;
}

/* The metadata is JSON, which holds only UTF-8: a name that is not would
 * be dropped from it and the trace would not read back (issue 42).
 * Importers mend names first (util/text.h); here it is refused. */
static int text_fits(const char *s)
{
    return !s || (ws_text_is_utf8(s) && strlen(s) <= WST_MAX_STRING_BYTES);
}

/* ... and a reader refuses a string past WST_MAX_STRING_BYTES. */
static int check_kernel_text(const wst_kernel *kernel, uint32_t n, ws_error *err)
{
    if (!text_fits(kernel->name))
        return ws_fail(err, "kernel %u: its name is not UTF-8 text of at most %u bytes", n,
                       WST_MAX_STRING_BYTES);
    for (uint32_t p = 0; p < kernel->pc_count; p++) {
        const wst_pc *pc = &kernel->pcs[p];
        if (!text_fits(pc->sass) || !text_fits(pc->file))
            return ws_fail(err, "kernel %u: PC %u: its SASS or source file is not UTF-8 text of at "
                           "most %u bytes", n, p, WST_MAX_STRING_BYTES);
    }
    return 0;
}

int wst_writer_add_kernel(wst_writer *w, const wst_kernel *kernel, ws_error *err)
{
    uint32_t n = w->kernel_count;
    if (n >= WST_MAX_KERNELS)
        return ws_fail(err, "more than %u kernels", WST_MAX_KERNELS);
    uint64_t threads = (uint64_t)kernel->block.x * kernel->block.y * kernel->block.z;
    if (!wst_grid_fits(kernel->grid))
        return ws_fail(err, "kernel %u: grid (%u,%u,%u) is empty or has more than 2^32-1 CTAs", n,
                       kernel->grid.x, kernel->grid.y, kernel->grid.z);
    if (!threads || threads > 65536)
        return ws_fail(err, "kernel %u: block (%u,%u,%u) is empty or has more than 65536 threads",
                       n, kernel->block.x, kernel->block.y, kernel->block.z);
    if (check_kernel_text(kernel, n, err) != 0)
        return -1;
    uint64_t meta = META_BYTES_PER_KERNEL + (kernel->name ? strlen(kernel->name) : 0);
    for (uint32_t p = 0; p < kernel->pc_count; p++)
        meta += META_BYTES_PER_PC + (kernel->pcs[p].sass ? strlen(kernel->pcs[p].sass) : 0) +
                (kernel->pcs[p].file ? strlen(kernel->pcs[p].file) : 0);
    if (count_metadata(w, meta, "kernel", n, err) != 0)
        return -1;
    size_t slot = n - w->kernel_base, pc_cap_size = w->open_capacity;
    if (ws_grow((void **)&w->open, &w->open_capacity, slot + 1, sizeof(wst_kernel)) ||
        ws_grow((void **)&w->pc_capacity, &pc_cap_size, w->open_capacity, sizeof(size_t)))
        return ws_fail(err, "out of memory");
    wst_kernel *k = &w->open[slot];
    if (wst_kernel_copy(k, kernel) != 0)
        return ws_fail(err, "out of memory");
    k->record_count = 0;
    memset(k->records_by_kind, 0, sizeof k->records_by_kind);
    k->cta_count = 0;
    w->pc_capacity[slot] = k->pc_count;
    w->kernel_count = n + 1;
    return (int)n;
}

/* A kernel that still takes PCs and records, or NULL with err set. */
static wst_kernel *open_kernel(const wst_writer *w, uint32_t kernel, const char *what, ws_error *err)
{
    if (kernel >= w->kernel_count) {
        ws_fail(err, "%s for undeclared kernel %u", what, kernel);
        return NULL;
    }
    if (kernel < w->kernel_base) {
        ws_fail(err, "%s for kernel %u, which has ended", what, kernel);
        return NULL;
    }
    return &w->open[kernel - w->kernel_base];
}

int64_t wst_writer_add_pc(wst_writer *w, uint32_t kernel, const wst_pc *pc, ws_error *err)
{
    wst_kernel *k = open_kernel(w, kernel, "PC", err);
    if (!k)
        return -1;
    if (k->pc_count >= WST_MAX_PCS_PER_KERNEL)
        return ws_fail(err, "kernel %u: more than %u PCs", kernel, WST_MAX_PCS_PER_KERNEL);
    if (count_metadata(w, META_BYTES_PER_PC + (pc->sass ? strlen(pc->sass) : 0) +
                              (pc->file ? strlen(pc->file) : 0),
                       "kernel", kernel, err) != 0)
        return -1;
    if (ws_grow((void **)&k->pcs, &w->pc_capacity[kernel - w->kernel_base], k->pc_count + 1,
                sizeof *k->pcs))
        return ws_fail(err, "out of memory");
    wst_pc *copy = &k->pcs[k->pc_count];
    *copy = *pc;
    copy->sass = pc->sass ? strdup(pc->sass) : NULL;
    copy->file = pc->file ? strdup(pc->file) : NULL;
    if ((pc->sass && !copy->sass) || (pc->file && !copy->file))
        return ws_fail(err, "out of memory");
    return k->pc_count++;
}

int wst_writer_add_allocation(wst_writer *w, const wst_allocation *a, ws_error *err)
{
    uint32_t n = w->trace.allocation_count;
    if (n >= WST_MAX_ALLOCATIONS)
        return ws_fail(err, "more than %u allocations", WST_MAX_ALLOCATIONS);
    if (ws_grow((void **)&w->trace.allocations, &w->allocation_capacity, n + 1,
                sizeof *w->trace.allocations) != 0)
        return ws_fail(err, "out of memory");
    if (count_metadata(w, META_BYTES_PER_ALLOCATION, "allocation", n, err) != 0)
        return -1;
    int rc = wst_alloc_map_insert(&w->allocation_map, a, n, err);
    if (rc == 0)
        w->trace.allocations[w->trace.allocation_count++] = *a;
    return rc;
}

#define CHUNK_TABLE_HELD (64u << 10)

/* The encoded chunk table so far to the end of its temporary file. */
static int spill_chunk_table(wst_writer *w, ws_error *err)
{
    if (!w->chunk_spool && !(w->chunk_spool = tmpfile()))
        return ws_fail(err, "cannot create a temporary file for the trace's chunk table");
    if (fwrite(w->chunk_table.data, 1, w->chunk_table.len, w->chunk_spool) != w->chunk_table.len) {
        w->failed = 1;
        return ws_fail(err, "cannot write the trace's chunk table to a temporary file");
    }
    w->chunk_spool_bytes += w->chunk_table.len;
    w->chunk_table.len = 0;
    return 0;
}

/* Compresses and writes a frame, and adds its chunks to the table. */
static int write_frame(wst_writer *w, frame_in_progress *f, ws_error *err)
{
    uint32_t chunks = wst_frame_chunk_count(f->builder);
    if (!chunks)
        return 0;
    if (wst_frame_finish(f->builder, &w->raw, err) != 0 ||
        wst_compress(w->compressor, &w->raw, &w->packed, err) != 0)
        return -1;
    if (ws_grow((void **)&w->frames, &w->frame_capacity, w->frame_count + 1, sizeof *w->frames))
        return ws_fail(err, "out of memory");
    for (size_t i = 0; i < f->count; i++)
        if (wst_chunk_table_put(&w->chunk_table, &w->chunk_cursor, f->chunks[i].kernel,
                                f->chunks[i].cta, f->chunks[i].records) != 0)
            return ws_fail(err, "out of memory");
    w->frames[w->frame_count++] = (frame_entry){
        .offset = w->offset,
        .compressed_bytes = (uint32_t)w->packed.len,
        .raw_bytes = (uint32_t)w->raw.len,
        .chunks = chunks,
        .hash = hash64(w->packed.data, w->packed.len, w->offset),
    };
    w->chunk_count += f->count;
    f->count = 0;
    if (w->chunk_table.len >= CHUNK_TABLE_HELD && spill_chunk_table(w, err) != 0)
        return -1;
    return write_bytes(w, w->packed.data, w->packed.len, err);
}

/* Encodes one CTA buffer as a chunk: into the shared frame once the CTA
 * has ended (`ended`), written when it is full; into a frame of its own
 * otherwise. */
static int flush_buffer(wst_writer *w, cta_buffer *b, int ended, ws_error *err)
{
    if (!b->records)
        return 0;
    frame_in_progress *f = ended ? &w->shared : &w->alone;
    if (ws_grow((void **)&f->chunks, &f->capacity, f->count + 1, sizeof *f->chunks))
        return ws_fail(err, "out of memory");
    if (wst_frame_add_chunk(f->builder, &b->rows, b->records, err) != 0)
        return -1;
    if (wst_frame_raw_bytes(f->builder) > WST_MAX_FRAME_RAW_BYTES)
        return ws_fail(err, "a chunk of %u records exceeds the format's frame limit", b->records);
    f->chunks[f->count++] = (chunk_entry){.kernel = b->kernel, .cta = b->cta,
                                          .records = b->records};
    b->records = 0;
    b->rows.len = 0;
    if (!ended || wst_frame_raw_bytes(f->builder) >= w->options.frame_bytes)
        return write_frame(w, f, err);
    return 0;
}

/* Flushes and gives the buffer's memory back. */
static int retire_buffer(wst_writer *w, cta_buffer *b, int ended, ws_error *err)
{
    if (flush_buffer(w, b, ended, err) != 0)
        return -1;
    w->buffered_bytes -= b->rows.cap;
    wst_bytes_free(&b->rows);
    return 0;
}

static int by_capacity_descending(const void *a, const void *b, void *ctx)
{
    const cta_buffer *buffers = ctx;
    size_t x = buffers[*(const uint32_t *)a].rows.cap, y = buffers[*(const uint32_t *)b].rows.cap;
    return (x < y) - (x > y);
}

/* Over budget: flush the largest buffers until half the budget is free.
 * One scan and one sort per event, not a scan per buffer flushed: with a
 * record per CTA there are as many buffers as CTAs, and rescanning them for
 * each flush made import quadratic in the CTA count.  Halving the budget
 * spaces the events so the scans stay linear in the data written. */
static int enforce_budget(wst_writer *w, ws_error *err)
{
    uint32_t *live = malloc((w->buffer_count ? w->buffer_count : 1) * sizeof *live);
    if (!live)
        return ws_fail(err, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < w->buffer_count; i++)
        if (w->buffers[i].rows.cap)
            live[n++] = (uint32_t)i;
    qsort_r(live, n, sizeof *live, by_capacity_descending, w->buffers);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0 && w->buffered_bytes > w->options.memory_budget / 2; i++)
        rc = retire_buffer(w, &w->buffers[live[i]], 0, err);
    free(live);
    return rc;
}

static int validate_record(const wst_writer *w, uint32_t kernel, const wst_record *rec,
                           ws_error *err)
{
    const wst_kernel *k = open_kernel(w, kernel, "record", err);
    if (!k)
        return -1;
    uint64_t ctas = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
    uint64_t warps = ((uint64_t)k->block.x * k->block.y * k->block.z + WST_WARP_SIZE - 1) /
                     WST_WARP_SIZE;
    if (rec->cta >= ctas)
        return ws_fail(err, "kernel %u: CTA %u outside the grid of %llu", kernel, rec->cta,
                       (unsigned long long)ctas);
    if (rec->warp >= warps)
        return ws_fail(err, "kernel %u: warp %u outside the CTA's %llu warps", kernel, rec->warp,
                       (unsigned long long)warps);
    if (rec->pc >= k->pc_count)
        return ws_fail(err, "kernel %u: PC index %u not declared", kernel, rec->pc);
    if (rec->kind > WST_ATOMIC || rec->space > WST_LOCAL || rec->cache_op >= WST_OP_COUNT ||
        !wst_access_size_valid(rec->size))
        return ws_fail(err, "kernel %u: record with invalid kind, space, cache op or size", kernel);
    return 0;
}

static cta_buffer *buffer_for(wst_writer *w, uint32_t kernel, uint32_t cta, ws_error *err)
{
    int inserted;
    uint32_t *slot = u64map_upsert(&w->buffer_of, (uint64_t)kernel << 32 | cta,
                                   (uint32_t)w->buffer_count, &inserted);
    if (!slot) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    if (inserted) {
        if (ws_grow((void **)&w->buffers, &w->buffer_capacity, w->buffer_count + 1,
                    sizeof *w->buffers)) {
            ws_fail(err, "out of memory");
            return NULL;
        }
        w->buffers[w->buffer_count++] = (cta_buffer){.kernel = kernel, .cta = cta};
        w->open[kernel - w->kernel_base].cta_count++; /* validate_record: open */
    }
    return &w->buffers[*slot];
}

int wst_writer_add_record(wst_writer *w, uint32_t kernel, const wst_record *rec, ws_error *err)
{
    if (w->failed)
        return ws_fail(err, "writer already failed");
    if (validate_record(w, kernel, rec, err) != 0)
        return -1;
    cta_buffer *b = buffer_for(w, kernel, rec->cta, err);
    if (!b)
        return -1;
    size_t before = b->rows.cap;
    if (wst_pack(&b->rows, rec) != 0)
        return ws_fail(err, "out of memory");
    w->buffered_bytes += b->rows.cap - before;
    b->records++;
    wst_kernel *k = &w->open[kernel - w->kernel_base];
    k->record_count++;
    k->records_by_kind[rec->kind]++;
    if (b->records >= w->options.chunk_records && flush_buffer(w, b, 0, err) != 0)
        return -1;
    return w->buffered_bytes > w->options.memory_budget ? enforce_budget(w, err) : 0;
}

int wst_writer_end_cta(wst_writer *w, uint32_t kernel, uint32_t cta, ws_error *err)
{
    uint32_t *slot = u64map_find(&w->buffer_of, (uint64_t)kernel << 32 | cta);
    if (!slot)
        return 0;
    return retire_buffer(w, &w->buffers[*slot], 1, err); /* a finished CTA keeps no memory */
}

/* One kernel's metadata entry at the end of the spool, after a comma but
 * for the first kernel. */
static int spool_entry(wst_writer *w, const wst_kernel *k, uint32_t index, ws_error *err)
{
    if (!w->spool && !(w->spool = tmpfile()))
        return ws_fail(err, "cannot create a temporary file for the trace's metadata");
    char *entry = wst_meta_kernel_entry(k);
    if (!entry)
        return ws_fail(err, "out of memory");
    size_t len = strlen(entry);
    int comma = index > 0;
    int failed = (comma && fputc(',', w->spool) == EOF) || fwrite(entry, 1, len, w->spool) != len;
    free(entry);
    if (failed) {
        w->failed = 1;
        return ws_fail(err, "cannot write the trace's metadata to a temporary file");
    }
    w->spool_bytes += len + (size_t)comma;
    return 0;
}

/* The open kernels before `end` go to the spool and are freed, in one
 * shift of the rest (the close spools every kernel a writer never ended). */
static int spool_kernels(wst_writer *w, uint32_t end, ws_error *err)
{
    uint32_t done = 0, count = end - w->kernel_base;
    int rc = 0;
    while (rc == 0 && done < count) {
        rc = spool_entry(w, &w->open[done], w->kernel_base + done, err);
        if (rc == 0)
            wst_kernel_clear(&w->open[done++]);
    }
    uint32_t open = w->kernel_count - w->kernel_base - done;
    if (done && open) { /* none spooled, or none left: nothing moves (open may be NULL) */
        memmove(w->open, w->open + done, open * sizeof *w->open);
        memmove(w->pc_capacity, w->pc_capacity + done, open * sizeof *w->pc_capacity);
    }
    w->kernel_base += done;
    return rc;
}

/* Forgets the buffers of ended kernels (flushing any records left in them),
 * so that the CTAs of past launches cost nothing. */
static int drop_ended_buffers(wst_writer *w, ws_error *err)
{
    size_t kept = 0;
    for (size_t i = 0; i < w->buffer_count; i++) {
        cta_buffer *b = &w->buffers[i];
        if (b->kernel >= w->kernel_base) {
            w->buffers[kept++] = *b;
            continue;
        }
        if (retire_buffer(w, b, 1, err) != 0)
            return -1;
    }
    if (kept == w->buffer_count)
        return 0;
    w->buffer_count = kept;
    u64map_clear(&w->buffer_of);
    for (size_t i = 0; i < kept; i++) {
        int inserted;
        if (!u64map_upsert(&w->buffer_of, (uint64_t)w->buffers[i].kernel << 32 | w->buffers[i].cta,
                           (uint32_t)i, &inserted))
            return ws_fail(err, "out of memory");
    }
    return 0;
}

int wst_writer_end_kernel(wst_writer *w, uint32_t kernel, ws_error *err)
{
    if (w->failed)
        return ws_fail(err, "writer already failed");
    if (kernel >= w->kernel_count)
        return ws_fail(err, "end of undeclared kernel %u", kernel);
    if (kernel >= w->kernel_base && spool_kernels(w, kernel + 1, err) != 0)
        return -1;
    return drop_ended_buffers(w, err);
}

/* The metadata document (wst_meta.h): the outside, then the spooled
 * kernels' entries, compressed a piece at a time into w->packed.  Version
 * 2 compresses it: a trace of many short launches repeats each kernel's PC
 * table, and the JSON outweighed the records. */
static int compress_metadata(wst_writer *w, ws_error *err)
{
    size_t at = 0;
    char *outside = wst_meta_outside(&w->trace, &at);
    if (!outside)
        return ws_fail(err, "out of memory");
    size_t tail = strlen(outside + at);
    uint64_t meta_len = at + w->spool_bytes + tail;
    int rc = 0;
    if (meta_len > WST_MAX_METADATA_BYTES) /* escaping made it grow past the estimate */
        rc = ws_fail(err, "the trace's metadata (kernel names, PCs) is %llu MiB, over the "
                     "format's %u MiB limit", (unsigned long long)(meta_len >> 20),
                     WST_MAX_METADATA_BYTES >> 20);
    if (rc == 0)
        rc = wst_compress_begin(w->compressor, meta_len, &w->packed, err);
    if (rc == 0)
        rc = wst_compress_piece(w->compressor, outside, at, 0, &w->packed, err);
    if (rc == 0 && w->spool && fseek(w->spool, 0, SEEK_SET) != 0)
        rc = ws_fail(err, "cannot read back the trace's metadata from its temporary file");
    char piece[1 << 16];
    for (uint64_t left = w->spool_bytes; rc == 0 && left > 0;) {
        size_t n = left < sizeof piece ? (size_t)left : sizeof piece;
        if (fread(piece, 1, n, w->spool) != n)
            rc = ws_fail(err, "cannot read back the trace's metadata from its temporary file");
        else
            rc = wst_compress_piece(w->compressor, piece, n, 0, &w->packed, err);
        left -= n;
    }
    if (rc == 0)
        rc = wst_compress_piece(w->compressor, outside + at, tail, 1, &w->packed, err);
    free(outside);
    return rc;
}

/* The frame table, then the chunk table (its temporary file, then what
 * is left in memory), and their hash as one piece of bytes. */
static int write_tables(wst_writer *w, uint64_t *hash, ws_error *err)
{
    hash64_stream h;
    hash64_begin(&h, w->frame_count * WST_FRAME_ENTRY_BYTES + w->chunk_spool_bytes +
                         w->chunk_table.len, 0);
    for (size_t i = 0; i < w->frame_count; i++) {
        const frame_entry *f = &w->frames[i];
        uint8_t e[WST_FRAME_ENTRY_BYTES] = {0};
        wst_put_u64(e, f->offset);
        wst_put_u32(e + 8, f->compressed_bytes);
        wst_put_u32(e + 12, f->raw_bytes);
        wst_put_u32(e + 16, f->chunks);
        wst_put_u64(e + 24, f->hash);
        hash64_add(&h, e, sizeof e);
        if (write_bytes(w, e, sizeof e, err) != 0)
            return -1;
    }
    if (w->chunk_spool && fseek(w->chunk_spool, 0, SEEK_SET) != 0)
        return ws_fail(err, "cannot read back the trace's chunk table from its temporary file");
    uint8_t piece[1 << 16];
    for (uint64_t left = w->chunk_spool_bytes; left > 0;) {
        size_t n = left < sizeof piece ? (size_t)left : sizeof piece;
        if (fread(piece, 1, n, w->chunk_spool) != n)
            return ws_fail(err, "cannot read back the trace's chunk table from its temporary file");
        hash64_add(&h, piece, n);
        if (write_bytes(w, piece, n, err) != 0)
            return -1;
        left -= n;
    }
    hash64_add(&h, w->chunk_table.data, w->chunk_table.len);
    if (write_bytes(w, w->chunk_table.data, w->chunk_table.len, err) != 0)
        return -1;
    *hash = hash64_end(&h);
    return 0;
}

static int write_tables_and_trailer(wst_writer *w, ws_error *err)
{
    if (spool_kernels(w, w->kernel_count, err) != 0) /* the kernels still open */
        return -1;
    int rc = compress_metadata(w, err);
    if (rc != 0)
        return -1;
    uint64_t meta_offset = w->offset;
    size_t meta_bytes = w->packed.len;
    uint64_t meta_hash = hash64(w->packed.data, meta_bytes, 0);
    if (write_bytes(w, w->packed.data, meta_bytes, err) != 0)
        return -1;
    uint64_t tables_offset = w->offset;
    uint64_t tables_hash;
    if (write_tables(w, &tables_hash, err) != 0)
        return -1;
    uint8_t trailer[WST_TRAILER_BYTES] = {0};
    wst_put_u64(trailer, meta_offset);
    wst_put_u64(trailer + 8, meta_bytes);
    wst_put_u64(trailer + 16, tables_offset);
    wst_put_u64(trailer + 24, w->frame_count);
    wst_put_u64(trailer + 32, w->chunk_count);
    wst_put_u64(trailer + 40, meta_hash);
    wst_put_u64(trailer + 48, tables_hash);
    wst_put_u64(trailer + 56, hash64(trailer, 56, 0));
    memcpy(trailer + 64, WST_TRAILER_MAGIC, 8);
    return write_bytes(w, trailer, sizeof trailer, err);
}

/* Flushes the remaining buffers in (kernel, CTA) order, so a trace written
 * from one collector run is laid out the same way every time. */
static int compare_buffers(const void *a, const void *b)
{
    const cta_buffer *x = a, *y = b;
    if (x->kernel != y->kernel)
        return x->kernel < y->kernel ? -1 : 1;
    return (x->cta > y->cta) - (x->cta < y->cta);
}

static void writer_free(wst_writer *w)
{
    for (size_t i = 0; i < w->buffer_count; i++)
        wst_bytes_free(&w->buffers[i].rows);
    free(w->buffers);
    wst_bytes_free(&w->chunk_table);
    if (w->chunk_spool)
        fclose(w->chunk_spool);
    free(w->frames);
    wst_frame_builder_free(w->shared.builder);
    wst_frame_builder_free(w->alone.builder);
    free(w->shared.chunks);
    free(w->alone.chunks);
    for (uint32_t k = w->kernel_base; k < w->kernel_count; k++)
        wst_kernel_clear(&w->open[k - w->kernel_base]);
    free(w->open);
    free(w->pc_capacity);
    if (w->spool)
        fclose(w->spool);
    wst_alloc_map_free(&w->allocation_map);
    u64map_destroy(&w->buffer_of);
    wst_trace_clear(&w->trace);
    wst_compressor_free(w->compressor);
    wst_bytes_free(&w->raw);
    wst_bytes_free(&w->packed);
    free(w);
}

int wst_writer_set_gpu(wst_writer *w, const char *gpu, ws_error *err)
{
    char *copy = gpu ? strdup(gpu) : NULL;
    if (gpu && !copy)
        return ws_fail(err, "out of memory");
    free(w->trace.origin.gpu);
    w->trace.origin.gpu = copy;
    return 0;
}

int wst_writer_close(wst_writer *w, ws_error *err)
{
    int rc = w->failed ? ws_fail(err, "writer already failed") : 0;
    if (rc == 0) {
        if (w->buffer_count)
            qsort(w->buffers, w->buffer_count, sizeof *w->buffers, compare_buffers);
        for (size_t i = 0; i < w->buffer_count && rc == 0; i++)
            rc = flush_buffer(w, &w->buffers[i], 1, err);
        if (rc == 0)
            rc = write_frame(w, &w->shared, err);
    }
    if (rc == 0)
        rc = write_tables_and_trailer(w, err);
    if (rc == 0) {
        rc = ws_outfile_commit(w->out, err);
        w->out = NULL;
    }
    if (w->out)
        ws_outfile_abort(w->out);
    writer_free(w);
    return rc;
}

void wst_writer_abort(wst_writer *w)
{
    if (!w)
        return;
    ws_outfile_abort(w->out);
    writer_free(w);
}

/* ---- the writer as a sink (formats/sink.h) ---- */

static int sink_add_kernel(void *ctx, const wst_kernel *k, ws_error *err)
{
    return wst_writer_add_kernel(ctx, k, err);
}
static int64_t sink_add_pc(void *ctx, uint32_t kernel, const wst_pc *pc, ws_error *err)
{
    return wst_writer_add_pc(ctx, kernel, pc, err);
}
static int sink_add_record(void *ctx, uint32_t kernel, const wst_record *rec, ws_error *err)
{
    return wst_writer_add_record(ctx, kernel, rec, err);
}
static int sink_end_cta(void *ctx, uint32_t kernel, uint32_t cta, ws_error *err)
{
    return wst_writer_end_cta(ctx, kernel, cta, err);
}
static int sink_end_kernel(void *ctx, uint32_t kernel, ws_error *err)
{
    return wst_writer_end_kernel(ctx, kernel, err);
}
static int sink_add_allocation(void *ctx, const wst_allocation *a, ws_error *err)
{
    return wst_writer_add_allocation(ctx, a, err);
}

wst_sink wst_writer_sink(wst_writer *w)
{
    return (wst_sink){.ctx = w,
                      .add_kernel = sink_add_kernel,
                      .add_pc = sink_add_pc,
                      .add_record = sink_add_record,
                      .end_cta = sink_end_cta,
                      .end_kernel = sink_end_kernel,
                      .add_allocation = sink_add_allocation};
}
