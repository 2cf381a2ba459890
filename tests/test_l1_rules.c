/* tests/test_l1_rules.c: the L1 rules of analyzer/l1_rules.h that are
 * arithmetic on masks, on hand-worked cases: which 32 B sectors a byte
 * mask writes whole (docs/metrics.md §7, "Write policy"). */
#include <criterion/criterion.h>

#include "analyzer/l1_rules.h"
#include "analyzer/request.h"

Test(l1_rules, whole_sectors_are_those_written_in_full)
{
    uint64_t mask[REQUEST_MASK_WORDS] = {0};
    cr_expect_eq(l1_whole_sectors(mask, 128), 0, "nothing written");
    mask[0] = UINT64_C(0xffffffff); /* bytes 0..31: sector 0 */
    cr_expect_eq(l1_whole_sectors(mask, 128), 0x1);
    mask[0] = UINT64_C(0xfffffffe); /* byte 0 missing */
    cr_expect_eq(l1_whole_sectors(mask, 128), 0, "a sector written in part");
    mask[0] = UINT64_C(0xffffffff00000000); /* bytes 32..63: sector 1 */
    mask[1] = UINT64_C(0x7fffffffffffffff); /* sector 2 whole, sector 3 but byte 127 */
    cr_expect_eq(l1_whole_sectors(mask, 128), 0x6);
    mask[1] = ~UINT64_C(0);
    cr_expect_eq(l1_whole_sectors(mask, 128), 0xe);
    mask[0] = ~UINT64_C(0);
    cr_expect_eq(l1_whole_sectors(mask, 128), 0xf, "the whole line");
    /* A 64 B line has two sectors: the mask's bytes past it do not count. */
    cr_expect_eq(l1_whole_sectors(mask, 64), 0x3);
    mask[0] = UINT64_C(0xffffffff);
    cr_expect_eq(l1_whole_sectors(mask, 64), 0x1);
    /* A 32 B line: one sector. */
    cr_expect_eq(l1_whole_sectors(mask, 32), 0x1);
    /* A 256 B line: eight sectors, the last in the fourth word's top half. */
    uint64_t wide[REQUEST_MASK_WORDS] = {0, 0, 0, UINT64_C(0xffffffff00000000)};
    cr_expect_eq(l1_whole_sectors(wide, 256), 0x80);
    wide[2] = UINT64_C(0xffffffff);
    cr_expect_eq(l1_whole_sectors(wide, 256), 0x90);
}
