/* formats/wst.h: reading and writing .wst trace files.
 *
 * Layout in one sentence: a small fixed header, then zstd frames of several
 * chunks each (a chunk is a run of one CTA's records), then a compressed
 * JSON metadata document (kernels, PC tables, origin, device allocations),
 * a table of the frames and one of the chunks, and a fixed trailer that
 * locates them.
 * docs/trace-format.md gives the bytes.
 *
 * The metadata sits at the end (as in Parquet) because a streaming collector
 * learns kernels and PCs while it records; writing it last keeps the writer
 * single-pass with memory bounded by its chunk buffers.
 *
 * Writer: accepts records of many CTAs interleaved in any order, keeps one
 * buffer per open CTA, and flushes a CTA's buffer as a chunk when it fills
 * or when the total buffered exceeds the memory budget (a frame of its
 * own), or when the CTA ends or the file closes (into a frame shared with
 * other ended CTAs, written once it holds about 1 MiB).
 *
 * Reader: loads metadata and tables only; records are decoded one chunk at
 * a time from a few decompressed frames it keeps, so memory is bounded by
 * the frames, never by the trace.  Reads versions 1 to 4.  A reader and
 * its cursors are used from one thread. */
#ifndef WS_WST_H
#define WS_WST_H

#include <stddef.h>
#include <stdint.h>

#include "formats/trace.h"
#include "util/error.h"

#define WST_MAGIC "WSTRACE\0"
#define WST_VERSION 4 /* written; versions 1 to 4 are read */

/* ---- writing ---------------------------------------------------------- */

typedef struct wst_writer wst_writer;

typedef struct wst_writer_options {
    int compression_level;     /* zstd level; 0 = default (3) */
    uint32_t chunk_records;    /* records per chunk before a flush; 0 = default */
    size_t memory_budget;      /* bytes of buffered records; 0 = default */
    size_t frame_bytes;        /* raw bytes of a frame before it is written; 0 = default */
} wst_writer_options;

/* Output goes to a temporary file that wst_writer_close() renames to path;
 * wst_writer_abort() removes it.  opts may be NULL. */
wst_writer *wst_writer_open(const char *path, const wst_origin *origin,
                            const wst_writer_options *opts, ws_error *err);

/* Declares the next kernel (launch order); returns its index or -1.  The PC
 * table may be empty here and grown with wst_writer_add_pc(). */
int wst_writer_add_kernel(wst_writer *w, const wst_kernel *kernel, ws_error *err);

/* Appends a PC to kernel's table; returns its index or -1. */
int64_t wst_writer_add_pc(wst_writer *w, uint32_t kernel, const wst_pc *pc,
                          ws_error *err);

/* Records may arrive for any declared kernel and CTA, in any order; within
 * one (kernel, CTA, warp) their order is kept. */
int wst_writer_add_record(wst_writer *w, uint32_t kernel, const wst_record *rec,
                          ws_error *err);

/* Optional hint that a CTA is complete: flushes its buffer now. */
int wst_writer_end_cta(wst_writer *w, uint32_t kernel, uint32_t cta, ws_error *err);

/* Optional: kernel and every kernel before it are complete, and take no
 * more PCs or records.  Their metadata entries go to a temporary file and
 * their tables and CTA buffers are freed, so that a trace of many launches
 * holds only the open ones until the close (issue 42).  0, or -1 with err. */
int wst_writer_end_kernel(wst_writer *w, uint32_t kernel, ws_error *err);

/* Records a device allocation, in the order the application made them
 * (docs/trace-format.md): bytes > 0, ending at or below 2^63.  0; 1 when it
 * overlaps an allocation already recorded, and is left out (the list holds
 * address ranges, not lifetimes: a freed range reused); -1 with err. */
int wst_writer_add_allocation(wst_writer *w, const wst_allocation *a, ws_error *err);

/* Names the GPU of origin when it is learned while recording (an imported
 * trace's headers); before wst_writer_close.  0, or -1 out of memory. */
int wst_writer_set_gpu(wst_writer *w, const char *gpu, ws_error *err);

/* Flushes, writes metadata, index and trailer, renames into place, frees w. */
int wst_writer_close(wst_writer *w, ws_error *err);

/* Discards everything written, frees w.  NULL is a no-op. */
void wst_writer_abort(wst_writer *w);

/* ---- reading ---------------------------------------------------------- */

typedef struct wst_reader wst_reader;

/* One chunk as listed in the chunk table (file order). */
typedef struct wst_chunk_info {
    uint32_t kernel;
    uint32_t cta;
    uint32_t records;
    uint32_t frame; /* the frame holding it */
} wst_chunk_info;

/* One zstd frame: chunks [first_chunk, first_chunk + chunks).  A version 1
 * file has one frame per chunk. */
typedef struct wst_frame_info {
    uint64_t offset; /* file offset of the frame */
    uint32_t compressed_bytes;
    uint32_t raw_bytes;
    uint32_t first_chunk, chunks;
} wst_frame_info;

wst_reader *wst_reader_open(const char *path, ws_error *err);
void wst_reader_close(wst_reader *r);
/* From now on the reader's records carry the default cache operator: a
 * what-if that replays `cg`/`cv` loads as cached (--cache-op ignore). */
void wst_reader_ignore_cache_ops(wst_reader *r);
int wst_reader_ignores_cache_ops(const wst_reader *r);

const wst_trace *wst_reader_trace(const wst_reader *r);
uint64_t wst_reader_file_bytes(const wst_reader *r);
/* The file's format version (1 to 4). */
unsigned wst_reader_version(const wst_reader *r);
size_t wst_reader_chunk_count(const wst_reader *r);
const wst_chunk_info *wst_reader_chunk(const wst_reader *r, size_t index);
size_t wst_reader_frame_count(const wst_reader *r);
const wst_frame_info *wst_reader_frame(const wst_reader *r, size_t index);
/* Frames decompressed so far (a frame its cursors need again may be
 * decompressed again once the reader's 64 MiB of kept frames is full). */
uint64_t wst_reader_frames_decompressed(const wst_reader *r);
/* The decompressed frames' cache (formats/wst_read.c): its budget in bytes
 * (64 MiB as a reader opens; a test sets it small to watch replacement),
 * and the bytes its entries hold now, each counted whole. */
void wst_reader_set_cache_budget(wst_reader *r, size_t bytes);
size_t wst_reader_cache_bytes(const wst_reader *r);

/* Keeps only the kernels k with keep[k] (keep has the trace's kernel
 * count entries): afterwards the trace, its CTA lists and every cursor show
 * those kernels alone, renumbered from 0 in launch order
 * (formats/kernel_filter.h chooses them).  selection says how they were
 * chosen ("-k Fan1"), for the reports.  Before any cursor is opened; a
 * second call chooses among the kernels the first kept (a rank's block of
 * the user's selection, docs/analysis.md "Ranks").
 * 0, or -1 with err (out of memory). */
int wst_reader_keep_kernels(wst_reader *r, const uint8_t *keep, const char *selection,
                            ws_error *err);
/* That selection, or NULL when the reader shows every kernel of the file. */
const char *wst_reader_selection(const wst_reader *r);
/* The kernels the file holds, whatever the selection. */
uint32_t wst_reader_kernels_in_file(const wst_reader *r);

/* The allocation an address lies in (trace->allocations[*ordinal]) and the
 * offset inside it: 1, or 0 when it lies in none. */
int wst_reader_allocation_of(const wst_reader *r, uint64_t address, uint32_t *ordinal,
                             uint64_t *offset);

/* Sorted list of the CTA ids of a kernel that have records. */
const uint32_t *wst_reader_ctas(const wst_reader *r, uint32_t kernel, uint32_t *count);

/* A cursor streams records of one CTA, one kernel, or the whole trace, chunk
 * by chunk.  Within a CTA records come in the order they were written. */
typedef struct wst_cursor wst_cursor;

wst_cursor *wst_cursor_cta(wst_reader *r, uint32_t kernel, uint32_t cta, ws_error *err);
wst_cursor *wst_cursor_kernel(wst_reader *r, uint32_t kernel, ws_error *err);
wst_cursor *wst_cursor_all(wst_reader *r, ws_error *err);

/* Fast path: the next decoded chunk's records, valid until the next call.
 * Returns the count (> 0), 0 at the end, -1 on error. Sets *kernel. */
int64_t wst_cursor_next_batch(wst_cursor *c, const wst_record **records,
                              uint32_t *kernel, ws_error *err);

/* Convenience: one record at a time.  1 = record, 0 = end, -1 = error. */
/* Records still to come, from the index (no decoding). */
uint64_t wst_cursor_records_left(const wst_cursor *c);
/* Same, decoding straight into out[0..capacity) (no copy): the scheduler
 * fills its CTA buffers this way. */
int64_t wst_cursor_next_into(wst_cursor *c, wst_record *out, size_t capacity, uint32_t *kernel,
                             ws_error *err);
int wst_cursor_next(wst_cursor *c, wst_record *out, uint32_t *kernel, ws_error *err);
/* The fastest path, for the scheduler: the next records of the current
 * chunk (up to 65536) appended to out in the packed form
 * (formats/packed_record.h), exactly as packed_cta_append would pack them
 * from wst_cursor_next_batch, without expanding strided records to 32
 * lanes.  Returns the count (> 0), 0 at the end, -1 on error. */
struct packed_cta;
int64_t wst_cursor_next_packed(wst_cursor *c, struct packed_cta *out, uint32_t *kernel,
                               ws_error *err);

/* Cursors must be freed before their reader is closed (the reader keeps one
 * freed cursor for reuse). */
void wst_cursor_free(wst_cursor *c);

#endif
