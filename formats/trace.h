/* formats/trace.h: the trace model of docs/metrics.md §1 as plain data.
 *
 * A trace is kernels in launch order; each kernel has a PC table; records are
 * warp-level memory instructions referring to PCs by index.  Everything here
 * is plain data with explicit ownership: wst_trace_free() frees what a reader
 * or a collector built with the helpers below. */
#ifndef WS_TRACE_H
#define WS_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define WST_WARP_SIZE 32

typedef enum wst_kind { WST_LOAD = 0, WST_STORE = 1, WST_ATOMIC = 2 } wst_kind;
typedef enum wst_space { WST_GLOBAL = 0, WST_LOCAL = 1 } wst_space;

/* Cache operators of PTX ld/st (docs/metrics.md §1).  DEFAULT = none recorded, which
 * the cache model treats as `ca` for loads. */
typedef enum wst_cache_op {
    WST_OP_DEFAULT = 0,
    WST_OP_CA,
    WST_OP_CG,
    WST_OP_CS,
    WST_OP_LU,
    WST_OP_CV,
    WST_OP_COUNT
} wst_cache_op;

typedef struct wst_dim3 {
    uint32_t x, y, z;
} wst_dim3;

/* One static memory instruction.  Every field but `offset` is optional:
 * NULL strings, line 0. */
typedef struct wst_pc {
    uint64_t offset; /* byte offset of the instruction in the kernel */
    char *sass;      /* opcode text, e.g. "LDG.E.64" */
    char *file;      /* source file */
    uint32_t line;   /* source line, 0 = unknown */
} wst_pc;

typedef struct wst_kernel {
    char *name;
    wst_dim3 grid, block;
    uint32_t shared_mem_bytes;     /* dynamic + static, per CTA */
    uint32_t registers_per_thread; /* 0 = unknown */
    wst_pc *pcs;
    uint32_t pc_count;
    /* Filled by the reader from the index; ignored by the writer. */
    uint64_t record_count;
    uint64_t records_by_kind[3];
    uint32_t cta_count; /* CTAs that have at least one record */
    /* Set by the collector: its records carry the timing of docs/metrics.md
     * §12 (gaps and, where has_waits, the loads each waits for).  0: they
     * carry none, and the timed replay treats every record as a blocking
     * load with no gap. */
    uint8_t has_timing;
} wst_kernel;

/* Where a trace came from.  All strings optional. */
typedef struct wst_origin {
    char *collector;         /* "emu", "accelsim", "nvbit" */
    char *collector_version;
    char *gpu;               /* GPU the trace was recorded on */
    char *workload;          /* workload name / command line */
} wst_origin;

/* One device allocation (cudaMalloc, emu_malloc): [base, base + bytes).
 * A trace lists them in the order the application made them, so two
 * recordings of one workload by different allocators can name an address
 * as (allocation ordinal, offset inside it): docs/trace-format.md. */
typedef struct wst_allocation {
    uint64_t base;
    uint64_t bytes;
} wst_allocation;

typedef struct wst_trace {
    wst_origin origin;
    wst_kernel *kernels;
    uint32_t kernel_count;
    /* None when the collector does not see allocations (Accel-Sim traces). */
    wst_allocation *allocations;
    uint32_t allocation_count;
} wst_trace;

/* One warp-level memory instruction (docs/metrics.md §1).  addr[] is indexed by lane:
 * only lanes set in `mask` are meaningful.  A record with mask 0 is legal
 * (e.g. a predicated-off instruction a collector chose to keep). */
typedef struct wst_record {
    uint32_t cta;        /* linear id: x + y*gx + z*gx*gy */
    uint32_t warp;       /* warp index inside the CTA */
    uint32_t pc;         /* index into the kernel's PC table */
    uint8_t kind;        /* wst_kind */
    uint8_t space;       /* wst_space */
    uint8_t cache_op;    /* wst_cache_op */
    uint8_t size;        /* bytes per lane: 1, 2, 4, 8 or 16 */
    uint32_t mask;       /* active lanes */
    uint8_t has_sm;      /* sm valid */
    uint8_t has_time;    /* timestamp valid */
    uint16_t sm;
    uint64_t timestamp;
    /* Timing (docs/metrics.md §12), optional.  gap: the warp's non-memory
     * instructions since its previous record (0 where unknown).  waits,
     * when has_waits: the earlier loads of the warp (loads and atomics: the
     * records that return data) whose data this record, or an instruction
     * in its gap, uses; bit i = the (i+1)-th most recent such record, bit 31
     * = the 32nd or any older one.  Without has_waits the record waits for
     * every load the warp has outstanding (blocking loads). */
    uint8_t has_waits;
    uint32_t gap;
    uint32_t waits;
    uint64_t addr[WST_WARP_SIZE];
} wst_record;

/* A record's fields but its CTA and lanes, as plain scalars: what a trace
 * decoder reads before it knows where the lanes go (formats/wst_columns.h),
 * and what a packed record keeps beside them (formats/packed_record.h).
 * Kept in registers while a record is decoded; a record assembled in
 * memory byte by byte and read back in wider words stalls on store
 * forwarding. */
typedef struct wst_head {
    uint32_t warp, pc, mask, kind, space, cache_op, size, has_sm, has_time, sm;
    uint64_t timestamp;
    uint32_t has_waits, gap, waits; /* as wst_record's */
} wst_head;

/* Does r carry any timing (docs/metrics.md §12)?  A record without any is
 * what every collector wrote before timing existed, and costs nothing in
 * a .wst file or a packed CTA. */
static inline int wst_head_timed(const wst_head *h) { return h->gap != 0 || h->has_waits; }

static inline wst_head wst_head_of(const wst_record *r)
{
    return (wst_head){.warp = r->warp, .pc = r->pc, .mask = r->mask, .kind = r->kind,
                      .space = r->space, .cache_op = r->cache_op, .size = r->size,
                      .has_sm = r->has_sm, .has_time = r->has_time, .sm = r->sm,
                      .timestamp = r->timestamp, .has_waits = r->has_waits, .gap = r->gap,
                      .waits = r->has_waits ? r->waits : 0};
}

/* Sets every field of r but its lanes. */
static inline void wst_head_apply(const wst_head *h, uint32_t cta, wst_record *r)
{
    r->cta = cta;
    r->warp = h->warp;
    r->pc = h->pc;
    r->kind = (uint8_t)h->kind;
    r->space = (uint8_t)h->space;
    r->cache_op = (uint8_t)h->cache_op;
    r->size = (uint8_t)h->size;
    r->mask = h->mask;
    r->has_sm = (uint8_t)h->has_sm;
    r->has_time = (uint8_t)h->has_time;
    r->sm = (uint16_t)h->sm;
    r->timestamp = h->timestamp;
    r->has_waits = (uint8_t)h->has_waits;
    r->gap = h->gap;
    r->waits = h->waits;
}

const char *wst_kind_name(wst_kind kind);       /* "load", "store", "atomic" */
const char *wst_space_name(wst_space space);    /* "global", "local" */
const char *wst_cache_op_name(wst_cache_op op); /* "", "ca", "cg", ... */
int wst_cache_op_parse(const char *text);       /* -1 if unknown */

/* SASS width suffix of a per-lane access size: ".U8", ".U16", "" (32-bit),
 * ".64", ".128" (LDG.E.64 and so on). */
const char *wst_sass_size_suffix(unsigned size);

/* True when size is one of 1, 2, 4, 8, 16: a power of two up to 16.
 * Inline: the coalescer asks it of every record it issues. */
static inline int wst_access_size_valid(unsigned size)
{
    return size && size <= 16 && (size & (size - 1)) == 0;
}

/* CTA `cta`'s (x, y, z) in the grid: the inverse of its linear id. */
static inline wst_dim3 wst_cta_coords(wst_dim3 grid, uint32_t cta)
{
    uint32_t gx = grid.x ? grid.x : 1, gy = grid.y ? grid.y : 1;
    return (wst_dim3){cta % gx, cta / gx % gy, cta / gx / gy};
}

/* A grid's CTAs are numbered by a u32 linear id: at most 2^32 - 1 of them
 * (docs/trace-format.md).  Computed without overflow. */
static inline int wst_grid_fits(wst_dim3 grid)
{
    uint64_t xy = (uint64_t)grid.x * grid.y;
    return grid.x && grid.y && grid.z && xy <= UINT32_MAX && xy * grid.z <= UINT32_MAX;
}

/* Frees every string and array the trace owns (not the struct itself). */
void wst_trace_clear(wst_trace *trace);
void wst_kernel_clear(wst_kernel *kernel);

/* Deep copies; -1 on out of memory. */
int wst_kernel_copy(wst_kernel *dst, const wst_kernel *src);
int wst_origin_copy(wst_origin *dst, const wst_origin *src);

#endif
