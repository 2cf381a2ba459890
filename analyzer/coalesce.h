/* analyzer/coalesce.h: warp instruction -> cache requests (docs/metrics.md §2).
 *
 * One request per distinct line touched by the active lanes, in ascending
 * line-address order (docs/metrics.md §2 decision), each with its 32 B sector mask and
 * the mask of bytes actually asked for.  An element that crosses a line
 * boundary counts in both lines.  In half-warp mode (GPGPU-Sim's default)
 * lanes 0-15 and 16-31 are coalesced separately: group 0's requests come
 * first, then group 1's, each group in ascending line order.
 *
 * No allocation: requests go to a caller buffer of COALESCE_MAX_REQUESTS. */
#ifndef WS_COALESCE_H
#define WS_COALESCE_H

#include "analyzer/request.h"
#include "formats/trace.h"
#include "util/error.h"

/* An element is at most 16 B and a line at least 32 B, so one lane touches at
 * most 2 lines: 32 lanes give at most 64 requests, in either mode (half-warp
 * groups hold 16 lanes, so at most 32 requests each). */
#define COALESCE_MAX_REQUESTS (2 * WST_WARP_SIZE)
#define COALESCE_LINE_DEFAULT 128

typedef struct coalesce_config {
    unsigned line_bytes; /* power of two, REQUEST_LINE_MIN..REQUEST_LINE_MAX */
    int half_warp;       /* nonzero: two groups of 16 lanes */
} coalesce_config;

/* Per-instruction totals, for U (docs/metrics.md §2, S1 §II-A). */
typedef struct coalesce_summary {
    unsigned requests;   /* Req */
    unsigned bytes_used; /* sum of the requests' bytes_used */
    unsigned sectors;    /* sum of the requests' sector counts */
    unsigned line_bytes;
} coalesce_summary;

/* Default: 128 B lines, whole-warp. */
coalesce_config coalesce_config_default(void);

/* 0 if valid, else -1 with a message naming the field. */
int coalesce_config_check(const coalesce_config *config, ws_error *err);

/* Fills out[] with the requests of `record` (kernel index `kernel`), returns
 * Req (0 for an empty mask), or -1 if the record's access size is invalid.
 * `summary` may be NULL.  config must have passed coalesce_config_check().
 * A lane whose element would run past 2^64 - 1 is cut at the last byte. */
int coalesce_record(const coalesce_config *config, const wst_record *record,
                    uint32_t kernel, ws_request out[COALESCE_MAX_REQUESTS],
                    coalesce_summary *summary, ws_error *err);

/* coalesce_record() for a record known to be affine: every lane l (active
 * or not) is at addr[0] + l × stride, modulo 2^64 (packed_record.h's affine
 * records).  Same output, found without sorting lanes: the fast path for
 * coalesced, strided and broadcast instructions.  Reads addr[0] alone of
 * the addresses, so the scheduler need not write the others
 * (sched_event.affine). */
int coalesce_record_affine(const coalesce_config *config, const wst_record *record,
                           uint64_t stride, uint32_t kernel,
                           ws_request out[COALESCE_MAX_REQUESTS], coalesce_summary *summary,
                           ws_error *err);

/* The summary of requests already made (coalesce_record's, recomputed by a
 * consumer that only has the requests). */
coalesce_summary coalesce_summarize(const ws_request *requests, unsigned count, unsigned line_bytes);

/* U at line granularity: bytes used ÷ (Req × line size); 0 when Req = 0.
 * In half-warp mode a line requested by both groups is transferred twice, so
 * both its transfers and both groups' bytes count. */
double coalesce_line_utilization(const coalesce_summary *summary);

/* U at sector granularity: bytes used ÷ (sectors touched × 32); 0 when Req = 0. */
double coalesce_sector_utilization(const coalesce_summary *summary);

/* docs/metrics.md §2 (S4 §2): coherent iff Req ≤ 2. */
static inline int coalesce_is_coherent(unsigned requests) { return requests <= 2; }

#endif
