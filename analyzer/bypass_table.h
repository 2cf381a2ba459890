/* analyzer/bypass_table.h: S1's profiling-based bypass table (docs/metrics.md §9).
 *
 * For every line address A touched by global loads:
 *   U(A)  the average utilization of the requests to A.  By default the
 *         sector-rounded utilization (bytes of the 32 B sectors touched ÷
 *         line bytes, docs/metrics.md §9 decision); S1's raw-byte U on request.
 *   R(A)  L1 hits on A per fill, in the baseline replay.
 * A is bypass-worthy when U × (1 + R) < 1 (S1 Eq. 1): caching it moves more
 * bytes from L2 than the 32 B path would.
 *
 * Memory: one small entry per distinct line touched by global loads. */
#ifndef WS_BYPASS_TABLE_H
#define WS_BYPASS_TABLE_H

#include <stdint.h>
#include "util/error.h"

typedef enum bypass_u_kind {
    BYPASS_U_SECTOR = 0, /* docs/metrics.md §9 default */
    BYPASS_U_RAW_BYTES   /* S1's original definition */
} bypass_u_kind;

/* "sector" or "raw" for a kind; the kind of a name, or -1. */
const char *bypass_u_name(bypass_u_kind kind);
int bypass_u_parse(const char *name);

typedef struct bypass_line {
    uint64_t requests;
    uint64_t raw_bytes;    /* distinct bytes asked for, summed over requests */
    uint64_t sector_bytes; /* bytes of the 32 B sectors touched, summed */
    uint64_t fills;
    uint64_t hits;
} bypass_line;

typedef struct bypass_table bypass_table;

bypass_table *bypass_table_new(uint32_t line_bytes, bypass_u_kind kind, ws_error *err);
void bypass_table_free(bypass_table *t);

/* Starts fetching line's entry (ahead of an instruction's requests). */
void bypass_table_prefetch(const bypass_table *t, uint64_t line);
/* One global-load request to `line` (line address, not byte address):
 * raw_bytes = distinct bytes the lanes asked for, sector_mask = the 32 B
 * sectors they touched. */
int bypass_table_request(bypass_table *t, uint64_t line, uint32_t raw_bytes,
                         uint32_t sector_mask, ws_error *err);
/* Baseline L1 replay events for a global-load line. */
int bypass_table_fill(bypass_table *t, uint64_t line, ws_error *err);
int bypass_table_hit(bypass_table *t, uint64_t line, ws_error *err);

/* Eq. 1 on explicit numbers: U in [0, 1], R hits per fill. */
int bypass_eq1(double utilization, double reuse_times);

/* The verdict for a line; 0 for lines never seen. */
int bypass_table_verdict(const bypass_table *t, uint64_t line);
const bypass_line *bypass_table_get(const bypass_table *t, uint64_t line);
/* U(A) in the table's kind; bypass_line_utilization_of() in either. */
double bypass_line_utilization(const bypass_table *t, const bypass_line *l);
double bypass_line_utilization_of(const bypass_table *t, const bypass_line *l,
                                  bypass_u_kind kind);
double bypass_line_reuse_times(const bypass_line *l);

/* Lines whose verdict is bypass. */
uint64_t bypass_table_worthy_count(const bypass_table *t);

/* Iteration over lines in first-touch order. */
uint64_t bypass_table_count(const bypass_table *t);
uint64_t bypass_table_line_at(const bypass_table *t, uint64_t i, const bypass_line **entry);

#endif
