/* analyzer/packed_record.h: resident CTAs' records, packed.
 *
 * The scheduler holds every record of the resident CTAs (SPEC §6), and a
 * wst_record is 288 bytes, most of it 32 lane addresses.  Most warp
 * instructions address their lanes affinely (lane l at base + l × stride:
 * coalesced, strided and broadcast accesses), so a packed record keeps base
 * and stride in 48 bytes; the others keep their active lanes' addresses in
 * a side pool.  A record is expanded back, exactly, when it issues. */
#ifndef WS_PACKED_RECORD_H
#define WS_PACKED_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "formats/trace.h"
#include "util/error.h"

typedef struct packed_record {
    uint32_t pc, mask;
    uint16_t warp, sm;
    uint8_t kind, space, cache_op, size;
    uint8_t has_sm, has_time, affine, unused;
    uint64_t timestamp;
    uint64_t base;   /* affine: lane 0's address (extrapolated); else the pool index */
    uint64_t stride; /* affine: per lane, modulo 2^64 */
} packed_record;

typedef struct packed_cta {
    packed_record *records;
    size_t count, capacity;
    uint64_t *lanes; /* active lanes of the non-affine records */
    size_t lane_count, lane_capacity;
} packed_cta;

/* Replaces the contents with records[order[0..n)] (order NULL: in turn). */
int packed_cta_fill(packed_cta *p, const wst_record *records, const uint32_t *order, size_t n,
                    ws_error *err);
/* Record i, whole again.  Inactive lanes hold no meaningful address (as
 * everywhere: consumers read lanes by the mask). */
void packed_cta_expand(const packed_cta *p, size_t i, uint32_t cta, wst_record *out);
void packed_cta_free(packed_cta *p);

#endif
