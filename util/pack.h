/* util/pack.h: plain data as bytes and back, for results that travel
 * between the ranks of one job (docs/analysis.md "Ranks").
 *
 * The bytes are the same program's structs, so only ranks of one build may
 * exchange them.  An array is its u64 element count (PACK_NO_ARRAY for
 * NULL), then its elements; a reader that runs short or meets a count it
 * did not expect marks itself bad, and every later read fails. */
#ifndef WS_PACK_H
#define WS_PACK_H

#include <stddef.h>
#include <stdint.h>

#define PACK_NO_ARRAY UINT64_MAX

typedef struct pack_bytes {
    unsigned char *data;
    size_t size, capacity;
} pack_bytes;

/* Appends n bytes / an array of count elements of elem bytes (p NULL: the
 * absent array).  0, or -1 when out of memory. */
int pack_put(pack_bytes *b, const void *p, size_t n);
int pack_put_array(pack_bytes *b, const void *p, uint64_t count, size_t elem);
void pack_bytes_free(pack_bytes *b);

typedef struct pack_reader {
    const unsigned char *data;
    size_t size, at;
    int bad;
} pack_reader;

int pack_get(pack_reader *rd, void *p, size_t n);
/* A fresh copy (malloc) of the next array, which must have `count`
 * elements; NULL when absent, or short (rd->bad set). */
void *pack_get_array(pack_reader *rd, uint64_t count, size_t elem);

#endif
