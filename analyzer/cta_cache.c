/* analyzer/cta_cache.c: see cta_cache.h. */
#include "analyzer/cta_cache.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

typedef struct held_cta {
    uint32_t kernel, cta;
    uint32_t loads_left; /* schedulers that have not taken it yet */
    wst_record *records;
    size_t count, capacity;
} held_cta;

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
        free(c->held[i].records);
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
    if (ws_grow((void **)&h->records, &h->capacity, h->count + n, sizeof *h->records))
        return ws_fail(err, "out of memory");
    memcpy(h->records + h->count, records, n * sizeof *records);
    h->count += n;
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
    int rc = h->count ? take(take_ctx, h->records, h->count, err) : 0;
    if (--h->loads_left == 0) { /* the last reader: drop the copy */
        free(h->records);
        c->held[at] = c->held[--c->held_count];
    }
    return rc < 0 ? -1 : 0;
}

sched_source cta_cache_source(cta_cache *c)
{
    return (sched_source){.ctx = c, .trace = c->inner.trace, .ctas = cached_ctas,
                          .load_cta = cached_load_cta};
}
