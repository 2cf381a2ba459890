/* tests/test_bypass_table.c: S1 Eq. 1 known answers (docs/metrics.md §9). */
#include <criterion/criterion.h>

#include "analyzer/bypass_table.h"

Test(bypass_eq1, s1_examples)
{
    /* U = 25% must be reused at least 3 times to stay cached. */
    cr_assert(bypass_eq1(0.25, 0));
    cr_assert(bypass_eq1(0.25, 2));
    cr_assert_not(bypass_eq1(0.25, 3));
    /* U = 75% needs R >= 1. */
    cr_assert(bypass_eq1(0.75, 0));
    cr_assert_not(bypass_eq1(0.75, 1));
    /* U = 100% never bypasses. */
    cr_assert_not(bypass_eq1(1.0, 0));
}

static bypass_table *make(bypass_u_kind kind)
{
    ws_error err;
    bypass_table *t = bypass_table_new(128, kind, &err);
    cr_assert_not_null(t);
    return t;
}

Test(bypass_table, fig1_lines_and_reuse)
{
    bypass_table *t = make(BYPASS_U_SECTOR);
    ws_error err;
    /* S1 Fig. 1: bytes 96..223 -> line 0 gets bytes 96..127 (sector 3, U 25%),
     * line 1 gets bytes 128..223 (sectors 0-2, U 75%).  Each is filled once. */
    cr_assert_eq(bypass_table_request(t, 0, 32, 0x8, &err), 0);
    cr_assert_eq(bypass_table_request(t, 1, 96, 0x7, &err), 0);
    bypass_table_fill(t, 0, &err);
    bypass_table_fill(t, 1, &err);
    cr_assert(bypass_table_verdict(t, 0), "U 25%%, R 0: bypass");
    cr_assert(bypass_table_verdict(t, 1), "U 75%%, R 0: bypass");
    /* One reuse of line 1 keeps it (U 75%, R 1); line 0 needs three. */
    bypass_table_request(t, 1, 96, 0x7, &err);
    bypass_table_hit(t, 1, &err);
    cr_assert_not(bypass_table_verdict(t, 1));
    for (int i = 0; i < 2; i++) {
        bypass_table_request(t, 0, 32, 0x8, &err);
        bypass_table_hit(t, 0, &err);
    }
    cr_assert(bypass_table_verdict(t, 0), "R = 2 is not enough at 25%%");
    bypass_table_request(t, 0, 32, 0x8, &err);
    bypass_table_hit(t, 0, &err);
    cr_assert_not(bypass_table_verdict(t, 0), "R = 3 keeps it");
    cr_assert_eq(bypass_table_count(t), 2);
    cr_assert_not(bypass_table_verdict(t, 99), "unknown lines are cached");
    bypass_table_free(t);
}

Test(bypass_table, sector_rounding_versus_raw_bytes)
{
    ws_error err;
    /* 8 bytes used in one sector: raw U = 8/128, sector U = 32/128. */
    bypass_table *sector = make(BYPASS_U_SECTOR), *raw = make(BYPASS_U_RAW_BYTES);
    for (int i = 0; i < 4; i++) {
        bypass_table_request(sector, 5, 8, 0x1, &err);
        bypass_table_request(raw, 5, 8, 0x1, &err);
    }
    bypass_table_fill(sector, 5, &err);
    bypass_table_fill(raw, 5, &err);
    for (int i = 0; i < 3; i++) {
        bypass_table_hit(sector, 5, &err);
        bypass_table_hit(raw, 5, &err);
    }
    cr_assert_float_eq(bypass_line_utilization(sector, bypass_table_get(sector, 5)), 0.25, 1e-12);
    cr_assert_float_eq(bypass_line_utilization(raw, bypass_table_get(raw, 5)), 8.0 / 128, 1e-12);
    /* R = 3: the sector-rounded U says cache it, raw U says bypass — the
     * 32 B path could not deliver the raw-byte saving (docs/metrics.md §9 decision). */
    cr_assert_not(bypass_table_verdict(sector, 5));
    cr_assert(bypass_table_verdict(raw, 5));
    bypass_table_free(sector);
    bypass_table_free(raw);
    cr_assert_null(bypass_table_new(100, BYPASS_U_SECTOR, &err));
}
