/* tests/test_fmt_g.c: util/fmt_g.h writes what snprintf's "%.*g" writes,
 * byte for byte, on values chosen to be hard (near powers of ten, near
 * halves of the last digit, both exponent styles, carries to a new power)
 * and on random ones; and its fast way takes most report-like values (it
 * is not snprintf under another name). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/fmt_g.h"

static uint64_t next(uint64_t *seed)
{
    *seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
    return *seed >> 11;
}

/* Whether the fast way took v; when it did, its text is printf's. */
static int check(double v, int precision)
{
    char want[64], got[64], fast[48];
    snprintf(want, sizeof want, "%.*g", precision, v);
    cr_assert_eq(fmt_g(got, sizeof got, precision, v), (int)strlen(want));
    cr_assert_str_eq(got, want, "%a at precision %d", v, precision);
    int n = fmt_g_fast(fast, precision, v);
    if (n)
        cr_assert_str_eq(fast, want, "%a at precision %d (fast)", v, precision);
    return n > 0;
}

Test(fmt_g, hand_picked_values)
{
    static const double values[] = {
        0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 1.0 / 3, 2.0 / 3, 0.5166256158, 1e-5, 1e-4, 9.9999e-5,
        123456789012.0, 1e10, 9999999999.5, 9.9999999995, 99999.99999, 1e15, 1e19, 9.99e19,
        1e20, 1e-10, 1.5e-7, 2.5, 0.125, 1152921504606846976.0, 1e300, 5e-324, 1234.5};
    for (size_t i = 0; i < sizeof values / sizeof *values; i++)
        for (int p = 1; p <= 17; p++) {
            check(values[i], p);
            check(values[i], 0); /* printf reads precision 0 as 1 */
            check(nextafter(values[i], INFINITY), p);
            check(nextafter(values[i], -INFINITY), p);
        }
}

Test(fmt_g, near_powers_of_ten_and_halves)
{
    uint64_t seed = 12;
    for (int p = 1; p <= 15; p++)
        for (int e = -11; e <= 21; e++) {
            double ten = pow(10.0, e);
            check(ten, p);
            check(nextafter(ten, 0), p);
            check(-nextafter(ten, INFINITY), p);
            /* n + 1/2 in the last digit kept, and its neighbours. */
            for (int i = 0; i < 20; i++) {
                double digits = (double)(next(&seed) % 900000000000000ULL + 100000000000000ULL);
                double half = (floor(digits / pow(10.0, 15 - p)) + 0.5) * pow(10.0, e - p + 1);
                check(half, p);
                check(nextafter(half, 0), p);
                check(nextafter(half, INFINITY), p);
            }
        }
}

Test(fmt_g, random_values_and_the_fast_way_takes_most_ratios)
{
    uint64_t seed = 2026;
    int taken = 0, tried = 0;
    for (int i = 0; i < 200000; i++) {
        int p = i % 3 ? 10 : (int)(next(&seed) % 17) + 1;
        /* Report-like: a count over a count. */
        double ratio = (double)(next(&seed) % 10000000) / (double)(next(&seed) % 100000 + 1);
        int fast = check(ratio, p);
        if (p == 10) {
            tried++;
            taken += fast;
        }
        /* Any double at all: random bits. */
        uint64_t bits = next(&seed) << 11 ^ next(&seed);
        double any;
        memcpy(&any, &bits, sizeof any);
        if (isfinite(any))
            check(any, p);
        check(ldexp((double)(next(&seed) % 100000), (int)(next(&seed) % 120) - 60), p);
    }
    if (LDBL_MANT_DIG >= 64) /* else fmt_g is snprintf alone */
        cr_assert_gt(taken, tried * 99 / 100, "fast way took %d of %d", taken, tried);
}
