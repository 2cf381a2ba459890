/* analyzer/mask_counts.c: see mask_counts.h. */
#include "analyzer/mask_counts.h"

#include <stdlib.h>
#include <string.h>

int mask_counts_init(mask_counts *m, uint32_t rows, uint32_t columns, uint64_t *counters)
{
    *m = (mask_counts){.rows = rows, .columns = columns, .words = (columns + 63) / 64,
                       .counters = counters};
    size_t planes = (size_t)rows * m->words * MASK_COUNT_PLANES;
    m->planes = calloc(planes ? planes : 1, sizeof *m->planes);
    m->pending = calloc(rows ? rows : 1, sizeof *m->pending);
    return m->planes && m->pending ? 0 : -1;
}

void mask_counts_destroy(mask_counts *m)
{
    free(m->planes);
    free(m->pending);
    memset(m, 0, sizeof *m);
}

void mask_counts_flush_row(mask_counts *m, uint32_t row)
{
    uint64_t *planes = m->planes + (size_t)row * m->words * MASK_COUNT_PLANES;
    uint64_t *counters = m->counters + (size_t)row * m->columns;
    for (uint32_t w = 0; w < m->words; w++, planes += MASK_COUNT_PLANES)
        for (uint32_t j = 0; j < MASK_COUNT_PLANES; j++) {
            for (uint64_t bits = planes[j]; bits; bits &= bits - 1)
                counters[w * 64 + (uint32_t)__builtin_ctzll(bits)] += UINT64_C(1) << j;
            planes[j] = 0;
        }
    m->pending[row] = 0;
}

void mask_counts_flush(mask_counts *m)
{
    for (uint32_t row = 0; row < m->rows; row++)
        if (m->pending[row])
            mask_counts_flush_row(m, row);
}

int mask_counts_add(mask_counts *m, uint32_t row, const uint64_t *mask, uint32_t skip)
{
    uint64_t *planes = m->planes + (size_t)row * m->words * MASK_COUNT_PLANES, any = 0;
    for (uint32_t w = 0; w < m->words; w++, planes += MASK_COUNT_PLANES) {
        uint64_t carry = mask[w] & ~(w == skip / 64 ? UINT64_C(1) << (skip % 64) : 0);
        any |= carry;
        for (uint32_t j = 0; carry; j++) {
            uint64_t next = planes[j] & carry;
            planes[j] ^= carry;
            carry = next;
        }
    }
    /* After 2^PLANES - 1 masks a counter may hold its largest value. */
    if (++m->pending[row] == (UINT32_C(1) << MASK_COUNT_PLANES) - 1)
        mask_counts_flush_row(m, row);
    return any != 0;
}
