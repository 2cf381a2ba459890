/* formats/trace_api.h: a small, stable C interface to the .wst reader for
 * other languages (python/warpscope loads it from build/libwarpscope.so
 * with ctypes).
 *
 * Only plain C types cross it: opaque handles, integers, strings the
 * library owns, and arrays the caller allocates and the library fills.
 * Errors come back as one line in a caller buffer ("FILE: what is wrong"),
 * never as a crash or an exit.  wst.h may change freely behind it; the
 * version below changes when anything here does.
 *
 * Records come out as ws_api_record, one fixed-size struct a record, so a
 * caller can fill a numpy structured array in place.
 * ws_api_record_field_offset() lets it check its layout against this one
 * instead of trusting a copy. */
#ifndef WS_TRACE_API_H
#define WS_TRACE_API_H

#include <stddef.h>
#include <stdint.h>

#define WS_API_VERSION 1

/* One warp-level memory record (docs/trace-format.md, formats/trace.h). */
typedef struct ws_api_record {
    uint32_t kernel;    /* launch index */
    uint32_t cta;       /* linear CTA id */
    uint32_t warp;      /* warp index in the CTA */
    uint32_t pc_index;  /* row of the kernel's PC table */
    uint64_t pc_offset; /* that PC's byte offset in the kernel */
    uint8_t kind;       /* 0 load, 1 store, 2 atomic */
    uint8_t space;      /* 0 global, 1 local */
    uint8_t cache_op;   /* 0 none, 1 ca, 2 cg, 3 cs, 4 lu, 5 cv */
    uint8_t size;       /* bytes per active lane: 1, 2, 4, 8 or 16 */
    uint32_t mask;      /* active lanes */
    int32_t sm;         /* SM the collector saw, -1 when it recorded none */
    uint32_t gap;       /* non-memory instructions since the warp's previous record */
    uint32_t waits;     /* loads waited for (docs/metrics.md §12), when has_waits */
    uint8_t has_waits;
    uint8_t has_time;   /* timestamp valid */
    uint8_t reserved[2];
    uint64_t timestamp;
    uint64_t addr[32];  /* per lane; 0 for inactive lanes */
} ws_api_record;

typedef struct ws_api_trace ws_api_trace;
typedef struct ws_api_cursor ws_api_cursor;

int ws_api_version(void);
size_t ws_api_record_size(void);
/* Byte offset of a ws_api_record field by its name above; -1 if none. */
long ws_api_record_field_offset(const char *name);

/* NULL on failure, with the reason in err[0..err_cap). */
ws_api_trace *ws_trace_open(const char *path, char *err, size_t err_cap);
/* Frees the trace; its cursors must be closed first. */
void ws_trace_close(ws_api_trace *t);

/* Strings of the trace's origin ("collector", "collector_version", "gpu",
 * "workload"); NULL when absent or unknown. */
const char *ws_trace_origin(const ws_api_trace *t, const char *field);
unsigned ws_trace_format_version(const ws_api_trace *t);
uint64_t ws_trace_file_bytes(const ws_api_trace *t);

uint32_t ws_trace_kernel_count(const ws_api_trace *t);
/* Kernel k's name as the trace holds it (mangled); NULL for k out of range. */
const char *ws_trace_kernel_name(const ws_api_trace *t, uint32_t k);
/* grid[3], block[3]; 0 or -1 for k out of range. */
int ws_trace_kernel_dims(const ws_api_trace *t, uint32_t k, uint32_t grid[3], uint32_t block[3]);
/* counts[0..5]: records, loads, stores, atomics, CTAs with records, PCs.
 * shape[0..1]: shared memory bytes per CTA, registers per thread. */
int ws_trace_kernel_counts(const ws_api_trace *t, uint32_t k, uint64_t counts[6],
                           uint32_t shape[2]);
/* The sorted CTA ids of kernel k that have records: fills ids[0..cap),
 * returns how many there are (call with cap 0 to size the array). */
uint32_t ws_trace_kernel_ctas(const ws_api_trace *t, uint32_t k, uint32_t *ids, uint32_t cap);

/* PC i of kernel k: its offset, opcode text and source (NULL, line 0 when
 * unknown).  0, or -1 when k or i is out of range. */
int ws_trace_pc(const ws_api_trace *t, uint32_t k, uint32_t i, uint64_t *offset,
                const char **sass, const char **file, uint32_t *line);

/* A cursor over kernel k's records (cta < 0), or one CTA's. */
ws_api_cursor *ws_trace_cursor(ws_api_trace *t, uint32_t k, int64_t cta, char *err,
                               size_t err_cap);
/* Fills out[0..cap) with the next records: their count, 0 at the end, -1
 * on error (a corrupt chunk) with the reason in err. */
int64_t ws_cursor_read(ws_api_cursor *c, ws_api_record *out, size_t cap, char *err,
                       size_t err_cap);
void ws_cursor_close(ws_api_cursor *c);

/* The reports' display name of a kernel: demangled without parameters
 * ("Fan1"), else the name as given (util/demangle.h). */
void ws_demangle(const char *mangled, char *dst, size_t cap);

#endif
