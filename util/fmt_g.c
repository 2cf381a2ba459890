/* util/fmt_g.c: see fmt_g.h. */
#include "util/fmt_g.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { FAST_PRECISION = 15 };

/* 10^0 to 10^27, each exact in a long double (5^27 < 2^64). */
static const long double powers_of_ten[] = {
    1e0L,  1e1L,  1e2L,  1e3L,  1e4L,  1e5L,  1e6L,  1e7L,  1e8L,  1e9L,
    1e10L, 1e11L, 1e12L, 1e13L, 1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L,
    1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L, 1e26L, 1e27L};

/* |v| scaled to [10^(p-1), 10^p) as 10^(p-1-e) |v|: the digits, with e. */
static long double scaled(double a, int p, int e)
{
    int k = p - 1 - e;
    return k >= 0 ? (long double)a * powers_of_ten[k] : (long double)a / powers_of_ten[-k];
}

/* The %g text of the p significant digits in n (10^(p-1) <= n < 10^p) of
 * a number of decimal exponent e: C11 7.21.6.1's style rule, trailing
 * zeros removed (no '#'). */
static int write_digits(char *out, int negative, uint64_t n, int p, int e)
{
    char digits[24];
    for (int i = p - 1; i >= 0; i--, n /= 10)
        digits[i] = (char)('0' + n % 10);
    int used = p;
    while (used > 1 && digits[used - 1] == '0')
        used--;
    char *at = out;
    if (negative)
        *at++ = '-';
    if (e < -4 || e >= p) { /* d.ddde±XX */
        *at++ = digits[0];
        if (used > 1) {
            *at++ = '.';
            memcpy(at, digits + 1, (size_t)used - 1);
            at += used - 1;
        }
        int x = e < 0 ? -e : e; /* below 100 here: two digits, as printf's least */
        *at++ = 'e';
        *at++ = e < 0 ? '-' : '+';
        *at++ = (char)('0' + x / 10);
        *at++ = (char)('0' + x % 10);
    } else if (e >= 0) { /* ddd.ddd */
        memcpy(at, digits, (size_t)e + 1);
        at += e + 1;
        if (used > e + 1) {
            *at++ = '.';
            memcpy(at, digits + e + 1, (size_t)(used - e - 1));
            at += used - e - 1;
        }
    } else { /* 0.000ddd */
        *at++ = '0';
        *at++ = '.';
        for (int z = -1; z > e; z--)
            *at++ = '0';
        memcpy(at, digits, (size_t)used);
        at += used;
    }
    *at = '\0';
    return (int)(at - out);
}

/* |v| from 1e-10 to 1e20 keeps every power used within the table's 27. */
int fmt_g_fast(char *out, int p, double v)
{
    double a = fabs(v);
    /* The error bound below wants a 64-bit significand (x87's long double;
     * where long double is a double, everything goes to snprintf). */
    if (LDBL_MANT_DIG < 64 || p < 1 || p > FAST_PRECISION)
        return 0;
    if (a == 0) /* a report's commonest real (a rate of nothing) */
        return (int)(stpcpy(out, signbit(v) ? "-0" : "0") - out);
    if (!(a >= 1e-10 && a < 1e20))
        return 0;
    int e = (int)floor(log10(a));
    long double x = scaled(a, p, e);
    long double low = powers_of_ten[p - 1], high = powers_of_ten[p];
    if (x < low) /* log10 rounded across a power of ten */
        x = scaled(a, p, --e);
    else if (x >= high)
        x = scaled(a, p, ++e);
    if (x < low || x >= high)
        return 0;
    long double whole = floorl(x), part = x - whole;
    /* x is within 2^-64 of |v| 10^k (one rounding), below 6e-5 of a unit
     * for x < 10^15: a part this far from a half rounds as the exact one. */
    if (fabsl(part - 0.5L) < 1e-4L)
        return 0;
    uint64_t n = (uint64_t)whole + (part > 0.5L);
    if ((long double)n == high) { /* 9.99..5 rounded up to 10.0 */
        n /= 10;
        e++;
    }
    return write_digits(out, v < 0, n, p, e);
}

int fmt_g(char *buf, size_t size, int precision, double v)
{
    char text[48];
    int n = size >= sizeof text ? fmt_g_fast(text, precision, v) : 0;
    if (n > 0) {
        memcpy(buf, text, (size_t)n + 1);
        return n;
    }
    return snprintf(buf, size, "%.*g", precision, v);
}
