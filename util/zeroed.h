/* util/zeroed.h: a block of zero bytes whose pages cost nothing until used.
 *
 * calloc clears what it hands out whenever the memory was used before, and
 * a caller that then sets up its arrays touches every page; a cache of a
 * 6 MiB L2 per hierarchy paid for all of them on a trace that uses a few
 * (bench/RESULTS.md, "Timed replay against Accel-Sim: speed").  Here the
 * block is memory the kernel provides zeroed: a large block is mapped
 * alone and each page costs only on its first touch; smaller ones share
 * huge-page slabs (util/zeroed.c).  Free with the same size; the blocks
 * may be made and freed from any thread. */
#ifndef WS_ZEROED_H
#define WS_ZEROED_H

#include <stddef.h>

/* NULL when out of memory. */
void *ws_zeroed_new(size_t bytes);
void ws_zeroed_free(void *block, size_t bytes);

/* `bytes` (rounded up to a cache line) from the end of the huge page the slab's
 * blocks reach into, between them and the page's end: memory whose page
 * was already paid for.  NULL when no slab is being carved or the rest of
 * its page is too small.  Never freed: its slab stays mapped (util/spare.h
 * reuses what it takes). */
void *ws_zeroed_spare(size_t bytes);

/* Carving arrays out of one block: *at is the next free offset; returns
 * the offset of `bytes` more, aligned to a cache line, and advances *at. */
static inline size_t ws_zeroed_carve(size_t *at, size_t bytes)
{
    size_t start = (*at + 63) & ~(size_t)63;
    *at = start + bytes;
    return start;
}

#endif
