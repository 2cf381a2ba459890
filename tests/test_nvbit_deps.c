/* tests/test_nvbit_deps.c: the NVBit collector's timing (docs/nvbit.md,
 * "Timing"): gaps and waited-on loads from a function's SASS in code
 * order, and, per warp, waits counted back from each load's latest run. */
#include <criterion/criterion.h>
#include <string.h>

#include "collectors/nvbit/host/nvbit_deps.h"

typedef struct line {
    const char *sass;
    int writes_first, traced;
} line;

/* Each line's effect in its comment. */
static const line function[] = {
    {"LDG.E R2, [R4.64] ;", 1, 1},        /* id 0: gap 0; load writes R2 */
    {"IMAD R6, R2, R3, RZ ;", 1, 0},      /* gap: reads R2 (id 0); R6 holds no load */
    {"LDG.E.64 R8, [R6.64] ;", 1, 1},     /* id 2: gap 1, waits on id 0; writes R8, R9 */
    {"MOV R2, RZ ;", 1, 0},               /* gap: R2 overwritten */
    {"STG.E [R10.64], R9 ;", 0, 1},       /* id 4: gap 1, waits on id 2 (R9) */
    {"@P0 STG.E [R12.64], R2 ;", 0, 1},   /* id 5: gap 0, waits on nothing */
    {"ATOMG.E.ADD.STRONG.GPU PT, R14, [UR4+0x10], R8 ;", 0, 1}, /* id 6: reads R8 (id 2) */
};

Test(nvbit_deps, static_pass_over_a_function)
{
    ws_nvbit_static s;
    ws_nvbit_static_begin(&s);
    ws_nvbit_timing t[7];
    for (uint32_t i = 0; i < 7; i++) {
        memset(&t[i], 0xff, sizeof t[i]);
        ws_nvbit_static_instr(&s, function[i].sass, function[i].writes_first, function[i].traced,
                              function[i].writes_first, i, i == 2 ? 8 : 4, &t[i]);
    }
    cr_assert_eq(t[0].gap, 0);
    cr_assert_eq(t[0].waits_on_count, 0);
    cr_assert_eq(t[2].gap, 1);
    cr_assert_eq(t[2].waits_on_count, 1);
    cr_assert_eq(t[2].waits_on[0], 0);
    cr_assert_eq(t[4].gap, 1);
    cr_assert_eq(t[4].waits_on_count, 1);
    cr_assert_eq(t[4].waits_on[0], 2);
    cr_assert_eq(t[5].gap, 0);
    cr_assert_eq(t[5].waits_on_count, 0);
    cr_assert_eq(t[6].waits_on_count, 1, "UR4 is not R4; R8 is load 2's");
    cr_assert_eq(t[6].waits_on[0], 2);
}

Test(nvbit_deps, waits_count_back_from_the_latest_run)
{
    ws_nvbit_deps d;
    cr_assert_eq(ws_nvbit_deps_init(&d), 0);
    ws_nvbit_timing none = {0}, on_first = {.gap = 3, .waits_on_count = 1, .waits_on = {0}};
    wst_record r;
    memset(&r, 0, sizeof r);
    /* Warp 0 of CTA 5 runs load 0 twice (a loop), then a load that uses it. */
    cr_assert_eq(ws_nvbit_deps_record(&d, 5, 0, 0, 1, &none, &r), 0);
    cr_assert(r.has_waits && r.waits == 0 && r.gap == 0);
    cr_assert_eq(ws_nvbit_deps_record(&d, 5, 0, 0, 1, &none, &r), 0);
    cr_assert_eq(ws_nvbit_deps_record(&d, 5, 0, 2, 1, &on_first, &r), 0);
    cr_assert_eq(r.gap, 3);
    cr_assert_eq(r.waits, 0x1, "the latest run of load 0 is the most recent load");
    /* Another warp has run no load 0: it waits on nothing. */
    cr_assert_eq(ws_nvbit_deps_record(&d, 5, 1, 2, 1, &on_first, &r), 0);
    cr_assert_eq(r.waits, 0);
    /* 40 more loads in warp 0: load 0's run is 32 or more back, bit 31. */
    for (int i = 0; i < 40; i++)
        cr_assert_eq(ws_nvbit_deps_record(&d, 5, 0, 7, 1, &none, &r), 0);
    cr_assert_eq(ws_nvbit_deps_record(&d, 5, 0, 4, 0, &on_first, &r), 0);
    cr_assert_eq(r.waits, 1u << 31);
    ws_nvbit_deps_free(&d);
}
