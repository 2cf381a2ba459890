/* util/grow.c: see grow.h. */
#include "util/grow.h"

#include <sys/mman.h>

#define HUGE_PAGE ((size_t)2 << 20)

int ws_reserve_huge(void **array, size_t *capacity, size_t needed, size_t elem_size)
{
    if (needed <= *capacity)
        return 0;
    /* Exactly what is needed, in whole huge pages: callers size once (the
     * scheduler knows a CTA's record count), so doubling would only waste. */
    size_t bytes = needed * elem_size;
    if (bytes < HUGE_PAGE)
        return ws_grow(array, capacity, needed, elem_size);
    bytes = (bytes + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    void *grown = NULL;
    if (posix_memalign(&grown, HUGE_PAGE, bytes) != 0)
        return -1;
    madvise(grown, bytes, MADV_HUGEPAGE); /* a hint: without THP it is plain memory */
    free(*array);
    *array = grown;
    *capacity = bytes / elem_size;
    return 0;
}
