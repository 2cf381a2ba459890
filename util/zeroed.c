/* util/zeroed.c: see zeroed.h. */
#include "util/zeroed.h"

#include <sys/mman.h>

void *ws_zeroed_new(size_t bytes)
{
    void *p = mmap(NULL, bytes ? bytes : 1, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void ws_zeroed_free(void *block, size_t bytes)
{
    if (block)
        munmap(block, bytes ? bytes : 1);
}
