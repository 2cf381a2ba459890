/* analyzer/cta_cache.c: see cta_cache.h. */
#include "analyzer/cta_cache.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/packed_record.h"
#include "util/grow.h"

/* Records are held packed (32 bytes for most instead of a wst_record's
 * 288): at a kernel's start the first scheduler dispatches a whole
 * residency of CTAs before the others take any. */
typedef struct held_cta {
    uint32_t kernel, cta;
    uint32_t loads_left; /* schedulers that have not taken it yet */
    packed_cta records;
} held_cta;

enum { EXPAND_BATCH = 256 }; /* records handed to a reader at a time */

struct cta_cache {
    sched_source inner;
    uint32_t readers;
    held_cta *held; /* a handful: searched linearly */
    size_t held_count, held_capacity;
    uint32_t peak;
};

cta_cache *cta_cache_new(const sched_source *inner, uint32_t readers, ws_error *err)
{
    cta_cache *c = calloc(1, sizeof *c);
    if (!c)
        return ws_fail(err, "out of memory"), NULL;
    c->inner = *inner;
    c->readers = readers ? readers : 1;
    return c;
}

void cta_cache_free(cta_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->held_count; i++)
        packed_cta_free(&c->held[i].records);
    free(c->held);
    free(c);
}

uint32_t cta_cache_peak(const cta_cache *c) { return c->peak; }

static const uint32_t *cached_ctas(void *ctx, uint32_t kernel, uint32_t *count)
{
    cta_cache *c = ctx;
    return c->inner.ctas(c->inner.ctx, kernel, count);
}

static int keep_batch(void *ctx, const wst_record *records, size_t n, ws_error *err)
{
    held_cta *h = ctx;
    return packed_cta_append(&h->records, records, n, err);
}

/* Hands the held records to a reader, expanded, a batch at a time, until
 * it has enough: 0, or -1 with err set. */
static int give(const held_cta *h, sched_take_fn take, void *take_ctx, ws_error *err)
{
    wst_record batch[EXPAND_BATCH];
    for (size_t at = 0; at < h->records.count;) {
        size_t n = h->records.count - at < EXPAND_BATCH ? h->records.count - at : EXPAND_BATCH;
        for (size_t i = 0; i < n; i++)
            packed_cta_expand(&h->records, at + i, h->cta, &batch[i]);
        int rc = take(take_ctx, batch, n, err);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
        at += n;
    }
    return 0;
}

static int cached_load_cta(void *ctx, uint32_t kernel, uint32_t cta, sched_take_fn take,
                           void *take_ctx, ws_error *err)
{
    cta_cache *c = ctx;
    size_t at = 0;
    while (at < c->held_count && (c->held[at].kernel != kernel || c->held[at].cta != cta))
        at++;
    if (at == c->held_count) { /* the first reader decodes it */
        if (ws_grow((void **)&c->held, &c->held_capacity, c->held_count + 1, sizeof *c->held))
            return ws_fail(err, "out of memory");
        c->held[at] = (held_cta){.kernel = kernel, .cta = cta, .loads_left = c->readers};
        c->held_count++;
        if (c->held_count > c->peak)
            c->peak = (uint32_t)c->held_count;
        if (c->inner.load_cta(c->inner.ctx, kernel, cta, keep_batch, &c->held[at], err) != 0)
            return -1;
    }
    held_cta *h = &c->held[at];
    int rc = give(h, take, take_ctx, err);
    if (--h->loads_left == 0) { /* the last reader: drop the copy */
        packed_cta_free(&h->records);
        c->held[at] = c->held[--c->held_count];
    }
    return rc;
}

sched_source cta_cache_source(cta_cache *c)
{
    return (sched_source){.ctx = c, .trace = c->inner.trace, .ctas = cached_ctas,
                          .load_cta = cached_load_cta};
}
