/* util/prefault.h: a buffer about to be written whole, faulted in at once.
 *
 * Each first touch of a fresh page is a fault: a trap into the kernel, a
 * cleared page, a return.  A buffer that is then filled from end to end (a
 * frame read from the trace, then decompressed) pays one trap per page;
 * MADV_POPULATE_WRITE (Linux 5.14) maps them in one call instead
 * (bench/RESULTS.md, "Branch mem43").  Advice only: where the kernel
 * refuses it, the pages fault as before. */
#ifndef WS_UTIL_PREFAULT_H
#define WS_UTIL_PREFAULT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

/* Below 8 pages the call saves little: a page written after a trap took
 * 1.8 us here and a populated one 1.5 us at 8 pages (1.4 at 14, 1.3 at 32),
 * while at 2 to 4 pages the call costs what it saves (bench/RESULTS.md,
 * "Branch dec44").  2dconv's one frame, 56 KB, is over it. */
#define WS_PREFAULT_MIN ((size_t)32 << 10)

/* 0 when the pages lying whole inside [p, p + len) are mapped now (or len
 * is under WS_PREFAULT_MIN: nothing to do), -1 when the kernel refused;
 * the caller goes on either way. */
static inline int ws_prefault(void *p, size_t len)
{
    if (len < WS_PREFAULT_MIN)
        return 0;
#ifdef MADV_POPULATE_WRITE
    uintptr_t page = 4096, begin = ((uintptr_t)p + page - 1) & ~(page - 1),
              end = ((uintptr_t)p + len) & ~(page - 1);
    return end <= begin || madvise((void *)begin, end - begin, MADV_POPULATE_WRITE) == 0 ? 0 : -1;
#else
    (void)p;
    return -1;
#endif
}

#endif
