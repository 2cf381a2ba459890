/* util/fastdiv.h: dividing line numbers by a divisor fixed at set-up (the
 * L2 slices) with a multiply and a shift instead of a 64-bit `div`, the
 * slowest instruction of an L2 access (bench/RESULTS.md, "Replay, measured
 * apart").
 *
 * Granlund and Montgomery, "Division by invariant integers using
 * multiplication" (PLDI 1994), Theorem 4.2: for 2^(l-1) < d <= 2^l and
 * m = ceil(2^(N+l) / d), floor(n × m / 2^(N+l)) = floor(n / d) for every
 * 0 <= n < 2^N.  With N = 63, m < 2^64 and the product fits 128 bits; a
 * number of 2^63 or more (no line number of a line of 2 B or more) takes
 * the plain division. */
#ifndef WS_FASTDIV_H
#define WS_FASTDIV_H

#include <stdint.h>

typedef struct fastdiv {
    uint64_t magic;  /* m */
    uint32_t shift;  /* N + l - 64: the high word of the product is shifted this far */
    uint32_t divisor;
} fastdiv;

#ifdef __SIZEOF_INT128__

/* d >= 1. */
static inline fastdiv fastdiv_of(uint32_t d)
{
    uint32_t l = 0;
    while (((uint64_t)1 << l) < d)
        l++;
    /* ceil(2^(63 + l) / d), in 128 bits: 63 + l <= 95. */
    unsigned __int128 power = (unsigned __int128)1 << (63 + l);
    unsigned __int128 m = (power + d - 1) / d;
    return (fastdiv){.magic = (uint64_t)m, .shift = l ? l - 1 : 0, .divisor = d};
}

static inline uint64_t fastdiv_quotient(fastdiv f, uint64_t n)
{
    if (n >> 63)
        return n / f.divisor;
    if (f.divisor == 1) /* l = 0: m = 2^63, and the shift below would be -1 */
        return n;
    unsigned __int128 product = (unsigned __int128)n * f.magic;
    return (uint64_t)(product >> 64) >> f.shift;
}

#else /* no 128-bit product on this target: the plain division */

static inline fastdiv fastdiv_of(uint32_t d) { return (fastdiv){.divisor = d}; }
static inline uint64_t fastdiv_quotient(fastdiv f, uint64_t n) { return n / f.divisor; }

#endif

static inline uint32_t fastdiv_remainder(fastdiv f, uint64_t n)
{
    return (uint32_t)(n - fastdiv_quotient(f, n) * f.divisor);
}

#endif
