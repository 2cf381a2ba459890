/* util/spare.c: see spare.h.
 *
 * Blocks are carved from chunks that ws_zeroed_spare hands out, and a
 * released one goes on its class's list, the next of that class to be
 * taken (its pages are already the process's).  Whether a block is spare
 * is told by its address: the chunks of one page come one below the other
 * (ws_zeroed_spare carves downward), so a few ranges hold them all. */
#include "util/spare.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/zeroed.h"

/* AddressSanitizer does not watch these blocks as it does malloc's: they
 * are poisoned while not handed out, so a use after release or past the
 * class's size into the rest of the chunk is still caught. */
#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(at, bytes) ((void)(at), (void)(bytes))
#define ASAN_UNPOISON_MEMORY_REGION(at, bytes) ((void)(at), (void)(bytes))
#endif

enum {
    MIN_LOG2 = 6,   /* a cache line */
    MAX_LOG2 = 18,  /* larger blocks would take too much of a page */
    CLASSES = MAX_LOG2 - MIN_LOG2 + 1,
    CHUNK = 64 << 10, /* taken from the page at a time */
    RANGES = 16,    /* pages a process takes spare from; then malloc alone */
};

typedef struct free_block {
    struct free_block *next;
} free_block;

typedef struct range {
    uintptr_t low, high;
} range;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static free_block *released[CLASSES];
static char *chunk_next, *chunk_end; /* the rest of the chunk being carved */
static range ranges[RANGES];
static size_t range_count;

/* The class of a block of `bytes`: the least power of two that holds it,
 * as a log2; above MAX_LOG2 when too large. */
static unsigned class_of(size_t bytes)
{
    if (bytes <= (size_t)1 << MIN_LOG2)
        return MIN_LOG2;
    return (unsigned)(64 - __builtin_clzll((unsigned long long)(bytes - 1)));
}

/* Called with the lock held. */
static int is_spare(const void *block)
{
    uintptr_t at = (uintptr_t)block;
    for (size_t i = 0; i < range_count; i++)
        if (at >= ranges[i].low && at < ranges[i].high)
            return 1;
    return 0;
}

static int owned(const void *block)
{
    pthread_mutex_lock(&lock);
    int spare = is_spare(block);
    pthread_mutex_unlock(&lock);
    return spare;
}

/* A chunk of `bytes` more from the spare pages, its range recorded; 0 on
 * none.  Called with the lock held. */
static int next_chunk(size_t bytes)
{
    char *chunk = ws_zeroed_spare(bytes);
    if (!chunk)
        return 0;
    uintptr_t low = (uintptr_t)chunk, high = low + bytes;
    if (range_count && ranges[range_count - 1].low == high) /* just below the last */
        ranges[range_count - 1].low = low;
    else if (range_count < RANGES)
        ranges[range_count++] = (range){low, high};
    else
        return 0; /* cannot be told apart later: left unused */
    chunk_next = chunk;
    chunk_end = chunk + bytes;
    ASAN_POISON_MEMORY_REGION(chunk, bytes);
    return 1;
}

void *ws_spare_take(size_t *bytes)
{
    unsigned c = class_of(*bytes);
    if (c > MAX_LOG2)
        return NULL;
    size_t size = (size_t)1 << c;
    void *block = NULL;
    pthread_mutex_lock(&lock);
    if (released[c - MIN_LOG2]) {
        free_block *f = released[c - MIN_LOG2];
        ASAN_UNPOISON_MEMORY_REGION(f, size);
        released[c - MIN_LOG2] = f->next;
        block = f;
    } else if ((size_t)(chunk_end - chunk_next) >= size ||
               next_chunk(size > CHUNK ? size : CHUNK) || next_chunk(size)) {
        block = chunk_next;
        chunk_next += size;
        ASAN_UNPOISON_MEMORY_REGION(block, size);
    }
    pthread_mutex_unlock(&lock);
    if (block)
        *bytes = size;
    return block;
}

void ws_spare_release(void *block, size_t bytes)
{
    if (!block)
        return;
    pthread_mutex_lock(&lock);
    int spare = is_spare(block);
    if (spare) { /* the next of its class */
        free_block *f = block;
        unsigned c = class_of(bytes);
        f->next = released[c - MIN_LOG2];
        released[c - MIN_LOG2] = f;
        ASAN_POISON_MEMORY_REGION(f, (size_t)1 << c);
    }
    pthread_mutex_unlock(&lock);
    if (!spare)
        free(block);
}

void *ws_spare_cleared(size_t bytes)
{
    size_t size = bytes;
    void *block = ws_spare_take(&size);
    if (!block)
        return calloc(1, bytes);
    memset(block, 0, bytes); /* a block reused, or its page's first touch */
    return block;
}

void *ws_spare_resize(void *block, size_t old_bytes, size_t *bytes)
{
    size_t asked = *bytes;
    void *grown = ws_spare_take(bytes);
    if (!grown) {
        if (!block || !owned(block))
            return realloc(block, asked); /* malloc's, as before: it may grow in place */
        if (!(grown = malloc(asked)))
            return NULL;
    }
    if (block)
        memcpy(grown, block, old_bytes < asked ? old_bytes : asked);
    ws_spare_release(block, old_bytes);
    return grown;
}
