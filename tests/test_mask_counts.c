/* tests/test_mask_counts.c: rows of counters grown a bit mask at a time
 * (analyzer/mask_counts.h), behind the remote-holder matrix of
 * docs/metrics.md §5: a hand-worked row, and random masks against a
 * counter per bit, across word boundaries and past a row's flush. */
#include <criterion/criterion.h>

#include "analyzer/mask_counts.h"

Test(mask_counts, hand_worked_row)
{
    uint64_t counters[2 * 70] = {0};
    mask_counts m;
    cr_assert_eq(mask_counts_init(&m, 2, 70, counters), 0);
    uint64_t a[2] = {0x5, 0x20}, b[2] = {0x4, 0};
    cr_assert(mask_counts_add(&m, 1, a, 2), "bits 0 and 69 are left");
    cr_assert(mask_counts_add(&m, 1, a, 99));
    cr_assert_not(mask_counts_add(&m, 1, b, 2), "its only bit skipped");
    cr_assert(mask_counts_add(&m, 1, b, 0));
    cr_assert_eq(counters[70 + 0], 0, "nothing reaches the counters before a flush");
    mask_counts_flush(&m);
    cr_assert_eq(counters[70 + 0], 2);
    cr_assert_eq(counters[70 + 2], 2, "skipped once of three");
    cr_assert_eq(counters[70 + 69], 2);
    cr_assert_eq(counters[70 + 1] + counters[0] + counters[2] + counters[69], 0);
    mask_counts_add(&m, 1, a, 99);
    mask_counts_flush(&m);
    cr_assert_eq(counters[70 + 0], 3, "flushes add up");
    mask_counts_destroy(&m);
}

enum { ROWS = 3, COLUMNS = 132, OPS = 300000 };

Test(mask_counts, agrees_with_a_counter_per_bit)
{
    static uint64_t counters[ROWS * COLUMNS], expect[ROWS * COLUMNS];
    mask_counts m;
    cr_assert_eq(mask_counts_init(&m, ROWS, COLUMNS, counters), 0);
    uint64_t rng = 99, adds[ROWS] = {0};
    for (int op = 0; op < OPS; op++) {
        uint64_t mask[3];
        for (int w = 0; w < 3; w++) {
            rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
            mask[w] = rng & (rng >> 17) & (w == 2 ? 0xf : UINT64_MAX); /* 132 columns */
        }
        uint32_t row = (uint32_t)(rng >> 40) % ROWS, skip = (uint32_t)(rng >> 50) % 140;
        int any = 0;
        for (uint32_t b = 0; b < COLUMNS; b++)
            if ((mask[b / 64] >> (b % 64) & 1) && b != skip) {
                expect[row * COLUMNS + b]++;
                any = 1;
            }
        cr_assert_eq(mask_counts_add(&m, row, mask, skip), any);
        adds[row]++;
    }
    mask_counts_flush(&m);
    for (uint32_t i = 0; i < ROWS * COLUMNS; i++)
        cr_assert_eq(counters[i], expect[i], "counter %u", i);
    for (int row = 0; row < ROWS; row++)
        cr_assert(adds[row] > 65535, "rows pass a flush (2^16 - 1 masks)");
    mask_counts_destroy(&m);
}
