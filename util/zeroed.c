/* util/zeroed.c: see zeroed.h.
 *
 * A block of up to SLAB_SHARE bytes is carved from a shared slab instead of
 * being mapped alone.  A replay's caches then cost a few mmaps and munmaps
 * instead of one each (2dconv on Volta mapped 224 caches), and every munmap
 * of a process with threads interrupts the other CPUs to flush their TLBs.
 * The slab asks for transparent huge pages: a cache's set-up writes its
 * tags at once (cache_new), and one 2 MiB fault costs about what 70 small
 * ones do (bench/RESULTS.md, "Branch kern41": 2dconv on Volta took 2,460
 * page faults, 1,117 so).  Where the system gives no huge page the slab
 * simply gets small ones.
 *
 * Carving only moves forward, so what a slab hands out was never handed
 * out before and is still the kernel's zeroes.  A slab is unmapped when the
 * last of its blocks is freed: the memory held stays bounded by the slabs
 * of the live blocks, at most SLAB_BYTES each.
 *
 * The caches of a small replay use about half of the slab's first huge
 * page (2dconv on Fermi: 950 KB of it), and the rest was paid for with it.
 * ws_zeroed_spare hands that rest out from the page's end downward, while
 * blocks keep coming from the front; a block that would reach into what
 * was handed out starts after it instead, at the next page.  Malloc's fresh
 * pages cost a fault each (2.1-2.8 us here, bench/RESULTS.md, "Branch
 * heap45"); these cost nothing more. */
#include "util/zeroed.h"

#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>

#define SLAB_BYTES ((size_t)4 << 20)
#define SLAB_SHARE (SLAB_BYTES / 8) /* larger blocks are mapped alone */
/* Each shared block is preceded by a line that names its slab. */
#define HEADER 64
/* A transparent huge page (x86-64's PMD). */
#define HUGE_PAGE ((size_t)2 << 20)

typedef struct slab {
    size_t live; /* blocks not yet freed */
} slab;

/* The slab blocks are carved from now, and its next free offset.  The
 * allocator is the process's, as malloc's heap is: one lock, taken once
 * per block (a hierarchy makes a few dozen). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static slab *current;
static size_t current_used;
/* What ws_zeroed_spare handed out of the current slab last: offsets
 * [spare_floor, spare_end), or spare_floor == spare_end when nothing. */
static size_t spare_floor, spare_end;

static void *map_fresh(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void *carve_shared(size_t bytes)
{
    pthread_mutex_lock(&lock);
    size_t at = current_used, header = ws_zeroed_carve(&at, HEADER + bytes);
    if (at > spare_floor && header < spare_end) { /* past the spare: the next page */
        at = spare_end;
        header = ws_zeroed_carve(&at, HEADER + bytes);
    }
    if (!current || at > SLAB_BYTES) {
        /* The rest of the old slab is never touched: it costs address
         * space only, and the old slab goes when its last block does. */
        slab *fresh = map_fresh(SLAB_BYTES);
        if (!fresh) {
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        madvise(fresh, SLAB_BYTES, MADV_HUGEPAGE); /* advice: refused, small pages serve */
        current = fresh;
        spare_floor = spare_end = 0;
        at = sizeof *fresh;
        header = ws_zeroed_carve(&at, HEADER + bytes);
    }
    current_used = at;
    current->live++;
    char *block = (char *)current + header + HEADER;
    ((slab **)block)[-1] = current;
    pthread_mutex_unlock(&lock);
    return block;
}

static void free_shared(void *block)
{
    slab *s = ((slab **)block)[-1];
    pthread_mutex_lock(&lock);
    if (--s->live == 0) {
        if (s == current)
            current = NULL;
        munmap(s, SLAB_BYTES);
    }
    pthread_mutex_unlock(&lock);
}

/* The end of the huge page that holds the slab's offset `at` - 1, as an
 * offset (the slab's own alignment need not be the page's). */
static size_t page_end(const slab *s, size_t at)
{
    uintptr_t base = (uintptr_t)s, end = (base + at + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    size_t offset = end - base;
    return offset < SLAB_BYTES ? offset : SLAB_BYTES;
}

void *ws_zeroed_spare(size_t bytes)
{
    bytes = (bytes + 63) & ~(size_t)63;
    void *block = NULL;
    pthread_mutex_lock(&lock);
    if (current) {
        size_t end = page_end(current, current_used);
        if (spare_end != end) /* a page of its own: the old spare stays where it was */
            spare_floor = spare_end = end;
        if (spare_floor - current_used >= bytes) {
            spare_floor -= bytes;
            block = (char *)current + spare_floor;
            current->live++; /* never freed: the slab stays */
        }
    }
    pthread_mutex_unlock(&lock);
    return block;
}

void *ws_zeroed_new(size_t bytes)
{
    if (bytes <= SLAB_SHARE)
        return carve_shared(bytes ? bytes : 1);
    return map_fresh(bytes);
}

void ws_zeroed_free(void *block, size_t bytes)
{
    if (!block)
        return;
    if (bytes <= SLAB_SHARE)
        free_shared(block);
    else
        munmap(block, bytes);
}
