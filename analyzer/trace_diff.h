/* analyzer/trace_diff.h: two traces compared record by record, warp by
 * warp (`warpscope diff`; docs/diff.md has the rules and why).
 *
 * Kernels are matched in launch order, CTAs by id, warps by index and a
 * warp's records by position: the order of different warps inside a CTA
 * carries no meaning (docs/trace-format.md), each warp's own order does.
 * One CTA of each trace is held at a time, packed (formats/packed_record.h),
 * so memory follows the largest CTA, never the trace. */
#ifndef WS_TRACE_DIFF_H
#define WS_TRACE_DIFF_H

#include <stdint.h>

#include "formats/wst.h"
#include "util/error.h"

typedef enum diff_field {
    DIFF_KERNELS, /* kernel count */
    DIFF_NAME,
    DIFF_GRID,
    DIFF_BLOCK,
    DIFF_CTA,     /* a CTA with records in one trace only */
    DIFF_RECORDS, /* a warp's record count */
    DIFF_PC,
    DIFF_KIND,
    DIFF_SPACE,
    DIFF_SIZE,
    DIFF_CACHE_OP,
    DIFF_MASK,
    DIFF_ADDRESS,
    DIFF_FIELDS
} diff_field;

/* "kernels", "name", "grid", ..., "cache_op", "mask", "address". */
const char *diff_field_name(diff_field field);

/* How PCs are matched: by offset in the kernel, or paired (a PC of one
 * trace is paired with the PC of the other it first meets at the same
 * place, and must meet that one every time after): collectors that number
 * PCs their own way (the emulator, a GPU) still agree. */
typedef enum diff_pcs { DIFF_PCS_OFFSET, DIFF_PCS_PAIRED } diff_pcs;

/* How global addresses are compared; local ones always by shape. */
typedef enum diff_addresses {
    DIFF_BY_ALLOCATION, /* both traces list allocations: (ordinal, offset) */
    DIFF_RAW,           /* one lists none: the addresses themselves */
    DIFF_SHAPE          /* ignore_bases: each lane minus the lowest active lane */
} diff_addresses;

typedef struct diff_options {
    int ignore_bases;
    diff_pcs pcs;
} diff_options;

/* One difference.  The location goes down to the field's level (kernel
 * for a kernel's name or shape, cta, warp for its record count, record for
 * the rest); what lies below, and the kernel of DIFF_KERNELS, is -1.  lane:
 * the first lane active in both whose addresses differ, else -1. */
typedef struct diff_event {
    diff_field field;
    int64_t kernel, cta, warp, record, lane;
    char a[128], b[128]; /* the two values as text */
} diff_event;

typedef void (*diff_report_fn)(void *ctx, const diff_event *event);

typedef struct diff_summary {
    diff_addresses addresses;
    uint32_t kernels[2], allocations[2];
    uint64_t kernels_compared, ctas_compared, warps_compared, records_compared;
    uint64_t records_differing;
    uint64_t by_field[DIFF_FIELDS];
    uint64_t differences; /* events reported */
    /* Records of each trace not compared: kernels past the other's last,
     * kernels whose grid or block differ, CTAs in one trace only, the tail
     * of the longer warp. */
    uint64_t left_out[2];
} diff_summary;

/* Compares traces[0] (A) with traces[1] (B), reporting every difference
 * in order (kernel, CTA, warp, record).  0 whether they differ or not (the
 * summary says), or -1 with err and *bad the index of the trace that could
 * not be read. */
int trace_diff(wst_reader *const traces[2], const diff_options *options, diff_report_fn report,
               void *ctx, diff_summary *summary, int *bad, ws_error *err);

#endif
