/* analyzer/request_memo.c: see request_memo.h. */
#include "analyzer/request_memo.h"

#include <stdlib.h>
#include <string.h>

/* One kept record: its name, and where its requests start in the ring
 * (counting every request ever kept, so an overwritten one is told by
 * how far the ring has gone on since). */
typedef struct memo_slot {
    uint32_t kernel, cta;
    uint32_t index_1; /* index + 1: 0 in a slot never kept */
    uint32_t count;
    uint64_t at;
} memo_slot;

struct request_memo {
    ws_request *ring;
    uint64_t ring_mask; /* ring size - 1 */
    uint64_t written;   /* requests kept so far (the next goes at written & ring_mask) */
    memo_slot *slots;
    uint64_t slot_mask;
};

request_memo *request_memo_new(uint32_t ring, ws_error *err)
{
    if (ring < COALESCE_MAX_REQUESTS || (ring & (ring - 1)) != 0)
        return ws_fail(err, "request memo: %u requests is not a power of two of at least %d", ring,
                       COALESCE_MAX_REQUESTS),
               NULL;
    request_memo *m = calloc(1, sizeof *m);
    if (!m || !(m->ring = malloc((size_t)ring * sizeof *m->ring)) ||
        !(m->slots = calloc((size_t)ring / 2, sizeof *m->slots))) {
        request_memo_free(m);
        return ws_fail(err, "out of memory"), NULL;
    }
    m->ring_mask = ring - 1;
    m->slot_mask = ring / 2 - 1;
    return m;
}

void request_memo_free(request_memo *m)
{
    if (!m)
        return;
    free(m->ring);
    free(m->slots);
    free(m);
}

static memo_slot *slot_of(const request_memo *m, uint32_t kernel, uint32_t cta, uint32_t index)
{
    uint64_t key = ((uint64_t)kernel << 48 ^ (uint64_t)cta << 24 ^ index) * 0x9e3779b97f4a7c15u;
    return &m->slots[(key >> 32) & m->slot_mask];
}

int request_memo_find(const request_memo *m, uint32_t kernel, uint32_t cta, uint32_t index,
                      const ws_request **out)
{
    const memo_slot *s = slot_of(m, kernel, cta, index);
    if (s->index_1 != index + 1 || s->cta != cta || s->kernel != kernel ||
        m->written - s->at > m->ring_mask + 1) /* overwritten since */
        return -1;
    *out = m->ring + (s->at & m->ring_mask);
    return (int)s->count;
}

void request_memo_keep(request_memo *m, uint32_t kernel, uint32_t cta, uint32_t index,
                       const ws_request *requests, int n)
{
    /* A record's requests lie in one piece: one that would run past the
     * ring's end starts again at its beginning. */
    uint64_t at = m->written, room = m->ring_mask + 1 - (at & m->ring_mask);
    if ((uint64_t)n > room)
        at += room;
    memcpy(m->ring + (at & m->ring_mask), requests, (size_t)n * sizeof *requests);
    m->written = at + (uint64_t)n;
    *slot_of(m, kernel, cta, index) =
        (memo_slot){.kernel = kernel, .cta = cta, .index_1 = index + 1, .count = (uint32_t)n, .at = at};
}
