/* analyzer/request.h: one cache request, the unit every analyzer consumer sees.
 *
 * The coalescer (analyzer/coalesce.c, docs/metrics.md §2) turns one warp instruction
 * into requests, one per distinct cache line its active lanes touch.  A
 * request carries the line, which 32 B sectors and which bytes the lanes
 * asked for, and a copy of the record metadata consumers need (PC, warp,
 * kind, ...) so that no consumer has to look back at the record. */
#ifndef WS_REQUEST_H
#define WS_REQUEST_H

#include <stdint.h>

#define REQUEST_SECTOR_BYTES 32
#define REQUEST_LINE_MIN 32
#define REQUEST_LINE_MAX 256
/* Byte mask words: 256 B lines need 4 × 64 bits. */
#define REQUEST_MASK_WORDS (REQUEST_LINE_MAX / 64)

typedef struct ws_request {
    uint64_t line_addr;                      /* byte address of the line's first byte */
    uint64_t byte_mask[REQUEST_MASK_WORDS];  /* bit i = byte i of the line was asked for */
    uint16_t bytes_used;                     /* distinct bytes asked for = popcount(byte_mask) */
    uint8_t sector_mask;                     /* bit s = sector s (32 B) has a used byte */
    uint8_t index;                           /* position among the instruction's requests */
    uint8_t req_count;                       /* Req: requests of the whole instruction (docs/metrics.md §2) */
    uint8_t group;                           /* half-warp group (0 or 1); 0 in whole-warp mode */
    /* Copied from the record (formats/trace.h). */
    uint8_t kind;                            /* wst_kind */
    uint8_t space;                           /* wst_space */
    uint8_t cache_op;                        /* wst_cache_op */
    uint8_t has_sm;
    uint16_t sm;
    uint32_t kernel;                         /* kernel index in the trace */
    uint32_t cta;
    uint32_t warp;
    uint32_t pc;                             /* index into the kernel's PC table */
} ws_request;

/* One warp instruction's 32 B sectors (Σ popcount of its requests' sector
 * masks), its distinct bytes, and the ideal: the fewest sectors that could
 * carry those bytes, ⌈bytes ÷ 32⌉ over the whole instruction, whose bytes
 * may straddle lines.  sectors − ideal are its excess sectors
 * (docs/metrics.md §7, "Excess sectors"). */
typedef struct request_sectors {
    uint64_t sectors, bytes, ideal;
} request_sectors;

static inline request_sectors request_sectors_of(const ws_request *rq, int n)
{
    request_sectors s = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        s.sectors += (uint64_t)__builtin_popcount(rq[i].sector_mask);
        s.bytes += rq[i].bytes_used;
    }
    s.ideal = (s.bytes + REQUEST_SECTOR_BYTES - 1) / REQUEST_SECTOR_BYTES;
    return s;
}

#endif
