/* util/spare.h: blocks from the huge page the caches already paid for.
 *
 * A small timed replay's process spends a quarter of its CPU in the kernel,
 * and most of its page faults were malloc's first touches of the heap: the
 * packed CTAs' records and the scheduler's arrays per SM (bench/RESULTS.md,
 * "Branch heap45").  Meanwhile the caches' slab (util/zeroed.h) holds a
 * huge page of which they use about half.  A block here is carved from the
 * rest of that page (ws_zeroed_spare) and, once freed, handed out again for
 * a block of its size class (powers of two): its pages are never first
 * touched twice.  When no slab has room (no replay, or its caches filled
 * the page) the caller falls back to malloc.
 *
 *   size_t bytes = ...;
 *   void *block = ws_spare_take(&bytes);  // bytes: rounded up to the class
 *   if (!block && !(block = malloc(bytes))) ...
 *   ...
 *   ws_spare_release(block, bytes);       // free()s one that is not spare
 *
 * The memory held stays bounded by the slabs' spare pages: at most a huge
 * page each.  Blocks may be taken and released from any thread. */
#ifndef WS_SPARE_H
#define WS_SPARE_H

#include <stddef.h>

/* A block of at least *bytes, cache-line aligned, not cleared; *bytes is
 * set to its class's size.  NULL when no spare page has room (*bytes is
 * then left as asked) or the class is too large to share a page. */
void *ws_spare_take(size_t *bytes);

/* Gives back a block of `bytes` (as ws_spare_take set it, or as malloc was
 * asked): reused when it is a spare block, else free()d.  NULL is fine. */
void ws_spare_release(void *block, size_t bytes);

/* A block of `bytes`, cleared: calloc's where no spare page has room. */
void *ws_spare_cleared(size_t bytes);

/* Resizes a block of old_bytes (spare or malloc's; NULL with 0) to at
 * least *bytes, keeping the first min(old_bytes, *bytes); *bytes is set
 * to the new block's size.  NULL when out of memory, the old one kept. */
void *ws_spare_resize(void *block, size_t old_bytes, size_t *bytes);

#endif
