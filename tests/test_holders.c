/* tests/test_holders.c: which L1s hold each line (analyzer/holders.h), the
 * state behind μRC and the replication factor (docs/metrics.md §5): hand-worked
 * masks across word boundaries, and random fills and departures against a
 * plain table of who holds what. */
#include <criterion/criterion.h>

#include "analyzer/holders.h"

static int holds(const holders *h, uint64_t line, uint32_t sm)
{
    const uint64_t *mask = holders_of(h, line);
    return mask && holders_has(mask, sm);
}

Test(holders, masks_copies_and_lines_hand_worked)
{
    holders h;
    cr_assert_eq(holders_init(&h, 132), 0); /* three words a mask */
    cr_assert_eq(h.words, 3);
    cr_assert_null(holders_of(&h, 7));
    cr_assert_eq(holders_add(&h, 7, 0), 0);
    cr_assert_eq(holders_add(&h, 7, 70), 0);
    cr_assert_eq(holders_add(&h, 7, 131), 0);
    cr_assert_eq(holders_add(&h, 9, 70), 0);
    cr_assert(holds(&h, 7, 0) && holds(&h, 7, 70) && holds(&h, 7, 131));
    cr_assert_not(holds(&h, 7, 1) || holds(&h, 7, 64) || holds(&h, 9, 0));
    cr_assert_eq(h.copies, 4);
    cr_assert_eq(h.distinct, 2);
    cr_assert_eq(holders_add(&h, 7, 70), 0, "a second fill of a held line");
    cr_assert_eq(h.copies, 4, "is one copy");
    holders_remove(&h, 7, 5); /* not a holder: nothing changes */
    holders_remove(&h, 8, 0); /* not held anywhere */
    cr_assert_eq(h.copies, 4);
    holders_remove(&h, 7, 70);
    cr_assert_not(holds(&h, 7, 70));
    cr_assert(holds(&h, 9, 70), "another line's mask is its own");
    holders_remove(&h, 7, 0);
    holders_remove(&h, 7, 131);
    cr_assert_null(holders_of(&h, 7), "a line no L1 holds has no entry");
    cr_assert_eq(h.copies, 1);
    cr_assert_eq(h.distinct, 1);
    cr_assert_eq(holders_add(&h, 11, 3), 0);
    cr_assert(holds(&h, 11, 3) && !holds(&h, 11, 0) && !holds(&h, 11, 131),
              "a reused entry starts empty");
    holders_clear(&h);
    cr_assert_null(holders_of(&h, 9));
    cr_assert_eq(h.copies + h.distinct, 0);
    holders_destroy(&h);
}

enum { SMS = 80, LINES = 300, OPS = 200000 };

Test(holders, agrees_with_a_table_of_holders)
{
    static unsigned char table[LINES][SMS];
    holders h;
    cr_assert_eq(holders_init(&h, SMS), 0);
    uint64_t rng = 12345, copies = 0;
    for (int op = 0; op < OPS; op++) {
        rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t line = (uint32_t)(rng >> 33) % LINES, sm = (uint32_t)(rng >> 20) % SMS;
        if (rng >> 63) {
            cr_assert_eq(holders_add(&h, line * 4096 + 1, sm), 0);
            copies += !table[line][sm];
            table[line][sm] = 1;
        } else {
            holders_remove(&h, line * 4096 + 1, sm);
            copies -= table[line][sm];
            table[line][sm] = 0;
        }
        if (op % 997)
            continue;
        uint64_t distinct = 0;
        for (uint32_t l = 0; l < LINES; l++) {
            int any = 0;
            for (uint32_t s = 0; s < SMS; s++) {
                cr_assert_eq(holds(&h, l * 4096 + 1, s), table[l][s], "line %u, SM %u, op %d", l,
                             s, op);
                any |= table[l][s];
            }
            distinct += (uint64_t)any;
            cr_assert_eq(holders_of(&h, l * 4096 + 1) != NULL, any);
        }
        cr_assert_eq(h.copies, copies);
        cr_assert_eq(h.distinct, distinct);
    }
    holders_destroy(&h);
}
