/* analyzer/mask_counts.h: rows of counters that grow by a bit mask at a
 * time: the remote-holder matrix of docs/metrics.md §5, where each μRC
 * candidate of SM x adds 1 to row x's counter of every other SM holding
 * its line.
 *
 * Adding counter by counter cost a loop step per holder, ~160
 * instructions a candidate on Volta's 80 SMs (bench/RESULTS.md, "Branch
 * hier42").  Here each row keeps its pending counts bit-sliced: plane j
 * holds bit j of 64 counters in one word, and a mask is added to them as
 * a binary number is incremented, a carry rippling up the planes (two on
 * average).  A row's planes are added into its counters before they could
 * overflow and whenever the counters are read (mask_counts_flush), so the
 * counters are exactly the loop's (tests/test_mask_counts.c). */
#ifndef WS_MASK_COUNTS_H
#define WS_MASK_COUNTS_H

#include <stddef.h>
#include <stdint.h>

#define MASK_COUNT_PLANES 16

typedef struct mask_counts {
    uint32_t rows, columns, words; /* words: 64-bit words of a mask */
    uint64_t *planes;              /* [rows × words × MASK_COUNT_PLANES] */
    uint32_t *pending;             /* [rows]: masks added since the row's last flush */
    uint64_t *counters;            /* [rows × columns]: the caller's, flushed into */
} mask_counts;

/* counters: the caller's rows × columns counters; a mask's bits past
 * `columns` must be clear.  -1 on out of memory. */
int mask_counts_init(mask_counts *m, uint32_t rows, uint32_t columns, uint64_t *counters);
void mask_counts_destroy(mask_counts *m);
void mask_counts_flush_row(mask_counts *m, uint32_t row);
/* Adds every row's pending counts into its counters. */
void mask_counts_flush(mask_counts *m);

/* Adds 1 to row's counter of each bit set in mask (m->words words) but
 * bit `skip`; returns whether any was.  Called, not inline: inlined into
 * the hierarchy's request path it cost the fermi pairs more than it saved. */
int mask_counts_add(mask_counts *m, uint32_t row, const uint64_t *mask, uint32_t skip);

#endif
