/* reports/hist_bounds.c: see hist_bounds.h. */
#include "reports/hist_bounds.h"

uint64_t hist_log2_low(unsigned k) { return k ? UINT64_C(1) << (k - 1) : 0; }

uint64_t hist_log2_high(unsigned k)
{
    return k == 0 ? 0 : k >= 64 ? UINT64_MAX : (UINT64_C(1) << k) - 1;
}
