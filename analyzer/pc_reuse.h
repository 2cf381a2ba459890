/* analyzer/pc_reuse.h: one PC's line reuse histograms (docs/metrics.md §3),
 * distance and time in each reuse scope, kept as sparse as the PC's
 * accesses allow.
 *
 * A PC's histograms have log2 buckets and no exact counts (metrics.h), and
 * most PCs fill few of them: a PC run once has cold accesses only.  Dense,
 * the six took 3.4 KB a PC whatever it ran, so a kernel of many PCs cost
 * more than its trace (issue 42).  Here a PC holds a short list of the
 * (histogram, bucket) counts it has, and turns dense once that list
 * outgrows PC_REUSE_CELLS_MAX, where a lookup would cost more than its
 * memory saves: a busy PC runs at the dense speed, and an idle one holds
 * nothing but this struct.
 *
 * Totals are not kept: a histogram's total is its cold count plus its
 * buckets' (reuse_hist_add counts every access that is not skipped in
 * exactly one of them), and pc_reuse_hist fills it so. */
#ifndef WS_PC_REUSE_H
#define WS_PC_REUSE_H

#include <stdint.h>

#include "analyzer/reuse.h"

/* Distance and time (2) in each of the three reuse scopes (metrics.h). */
#define PC_REUSE_HISTS 6
/* A histogram's cells: its log2 buckets, then cold, then skipped. */
#define PC_REUSE_COLD REUSE_HIST_BUCKETS
#define PC_REUSE_SKIPPED (REUSE_HIST_BUCKETS + 1)
#define PC_REUSE_SLOTS (REUSE_HIST_BUCKETS + 2)
#define PC_REUSE_DENSE (PC_REUSE_HISTS * PC_REUSE_SLOTS) /* cells of the dense form */
/* Sparse cells before the dense form (16 bytes each, against its 3.2 KB). */
#define PC_REUSE_CELLS_MAX 16

typedef struct pc_reuse_cell {
    uint64_t count;
    uint32_t cell; /* histogram × PC_REUSE_SLOTS + slot */
} pc_reuse_cell;

typedef struct pc_reuse {
    uint64_t *dense;      /* [PC_REUSE_DENSE] once dense; else NULL */
    pc_reuse_cell *cells; /* [cell_count] in order of first use, while sparse */
    uint32_t cell_count, cell_capacity;
} pc_reuse;

/* Adds count to one cell; -1 when out of memory (nothing changed). */
int pc_reuse_add_sparse(pc_reuse *r, uint32_t cell, uint64_t count);

/* One access to histogram `hist` at `value` (a distance or a reuse time,
 * as reuse_hist_add takes it); -1 when out of memory. */
static inline int pc_reuse_add(pc_reuse *r, unsigned hist, uint64_t value)
{
    unsigned slot;
    if (value >= REUSE_FAILED) {
        if (value == REUSE_FAILED)
            return 0;
        slot = value == REUSE_COLD ? PC_REUSE_COLD : PC_REUSE_SKIPPED;
    } else {
        slot = reuse_hist_bucket(value);
    }
    uint32_t cell = (uint32_t)(hist * PC_REUSE_SLOTS + slot);
    if (r->dense) {
        r->dense[cell]++;
        return 0;
    }
    return pc_reuse_add_sparse(r, cell, 1);
}

/* Histogram `hist` as a reuse_hist without exact counts (nothing to free). */
void pc_reuse_hist(const pc_reuse *r, unsigned hist, reuse_hist *out);

void pc_reuse_free(pc_reuse *r); /* leaves it empty */

#endif
