/* tests/test_fastdiv.c: the multiply-and-shift division (util/fastdiv.h)
 * equals `/` and `%` for every divisor a GPU's L2 slices could be, and for
 * numbers across the whole 64-bit range, its edges included. */
#include <criterion/criterion.h>

#include "tests/trace_gen.h"
#include "util/fastdiv.h"

static void expect_exact(fastdiv f, uint64_t n)
{
    uint64_t d = f.divisor;
    cr_assert_eq(fastdiv_quotient(f, n), n / d, "%llu / %llu", (unsigned long long)n,
                 (unsigned long long)d);
    cr_assert_eq(fastdiv_remainder(f, n), n % d, "%llu %% %llu", (unsigned long long)n,
                 (unsigned long long)d);
}

static void check_divisor(uint32_t d, uint64_t *rng)
{
    fastdiv f = fastdiv_of(d);
    static const uint64_t edges[] = {0, 1, 2, 3, (1ull << 32) - 1, 1ull << 32, (1ull << 59) - 1,
                                     (1ull << 62) + 7, (1ull << 63) - 1, 1ull << 63,
                                     (1ull << 63) + 1, UINT64_MAX - 1, UINT64_MAX};
    for (size_t i = 0; i < sizeof edges / sizeof *edges; i++)
        expect_exact(f, edges[i]);
    /* Around multiples of d, where a quotient one off would show. */
    for (int i = 0; i < 40; i++) {
        uint64_t k = test_rand(rng) >> (1 + (i % 63));
        uint64_t multiple = (k / d) * d;
        expect_exact(f, multiple);
        expect_exact(f, multiple + d - 1);
        if (multiple)
            expect_exact(f, multiple - 1);
    }
    /* Random numbers of every width. */
    for (int i = 0; i < 200; i++)
        expect_exact(f, test_rand(rng) >> (i % 64));
}

Test(fastdiv, equals_division_for_every_small_divisor)
{
    uint64_t rng = 3;
    for (uint32_t d = 1; d <= 4096; d++)
        check_divisor(d, &rng);
}

Test(fastdiv, equals_division_for_large_and_awkward_divisors)
{
    uint64_t rng = 5;
    static const uint32_t divisors[] = {65535, 65536, 65537, 1000003, (1u << 31) - 1, 1u << 31,
                                        (1u << 31) + 1, 3000000019u, UINT32_MAX - 1, UINT32_MAX};
    for (size_t i = 0; i < sizeof divisors / sizeof *divisors; i++)
        check_divisor(divisors[i], &rng);
    for (int i = 0; i < 2000; i++)
        check_divisor(((uint32_t)test_rand(&rng) >> (i % 32)) | 1, &rng);
}
