/* analyzer/cta_cache.c: see cta_cache.h. */
#include "analyzer/cta_cache.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

/* One CTA, packed and grouped by warp, shared by the schedulers that hold
 * it resident. */
typedef struct held_cta {
    uint32_t kernel, cta;
    uint32_t to_borrow; /* schedulers that have not borrowed it yet */
    uint32_t lent;      /* borrowed and not given back */
    uint32_t warps;
    packed_cta records;
    uint32_t *starts;   /* [warps + 1] */
} held_cta;

struct cta_cache {
    sched_source inner;
    uint32_t readers;
    held_cta **held; /* by pointer: a borrower keeps &records */
    size_t held_count, held_capacity;
    packed_cta spare; /* scratch of the grouping */
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

static void drop(held_cta *h)
{
    packed_cta_free(&h->records);
    free(h->starts);
    free(h);
}

void cta_cache_free(cta_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->held_count; i++)
        drop(c->held[i]);
    free(c->held);
    packed_cta_free(&c->spare);
    free(c);
}

uint32_t cta_cache_peak(const cta_cache *c) { return c->peak; }

static const uint32_t *cached_ctas(void *ctx, uint32_t kernel, uint32_t *count)
{
    cta_cache *c = ctx;
    return c->inner.ctas(c->inner.ctx, kernel, count);
}

/* Plain loads (the recorded schedule's look at first timestamps) go to
 * the inner source: only dispatch borrows. */
static int passed_load_cta(void *ctx, uint32_t kernel, uint32_t cta, sched_take_fn take,
                           void *take_ctx, ws_error *err)
{
    cta_cache *c = ctx;
    return c->inner.load_cta(c->inner.ctx, kernel, cta, take, take_ctx, err);
}

static size_t find(const cta_cache *c, uint32_t kernel, uint32_t cta)
{
    size_t at = 0;
    while (at < c->held_count && (c->held[at]->kernel != kernel || c->held[at]->cta != cta))
        at++;
    return at;
}

/* The first borrower decodes the CTA once, packs it and groups it by warp
 * (the scheduler's own layout, packed_record.h). */
static held_cta *decode(cta_cache *c, uint32_t kernel, uint32_t cta, uint32_t warps,
                        ws_error *err)
{
    held_cta *h = calloc(1, sizeof *h);
    if (!h || !(h->starts = calloc((size_t)warps + 1, sizeof *h->starts)) ||
        ws_grow((void **)&c->held, &c->held_capacity, c->held_count + 1, sizeof *c->held)) {
        if (h)
            drop(h);
        return ws_fail(err, "out of memory"), NULL;
    }
    *h = (held_cta){.kernel = kernel, .cta = cta, .to_borrow = c->readers, .warps = warps,
                    .starts = h->starts};
    cta_grouping g = {.records = &h->records, .starts = h->starts, .warps = warps,
                      .kernel = kernel, .cta = cta};
    if (sched_source_pack(&c->inner, kernel, cta, &g, err) != 0 ||
        cta_grouping_finish(&g, &c->spare, err) != 0) {
        drop(h);
        return NULL;
    }
    c->held[c->held_count++] = h;
    if (c->held_count > c->peak)
        c->peak = (uint32_t)c->held_count;
    return h;
}

static const packed_cta *borrow_cta(void *ctx, uint32_t kernel, uint32_t cta, uint32_t warps,
                                    const uint32_t **starts, ws_error *err)
{
    cta_cache *c = ctx;
    size_t at = find(c, kernel, cta);
    held_cta *h = at < c->held_count ? c->held[at] : decode(c, kernel, cta, warps, err);
    if (!h)
        return NULL;
    if (h->warps != warps)
        return ws_fail(err, "kernel %u CTA %u: %u warps for one scheduler, %u for another",
                       kernel, cta, h->warps, warps),
               NULL;
    h->to_borrow--;
    h->lent++;
    *starts = h->starts;
    return &h->records;
}

/* A scheduler retired the CTA: the copy goes once every scheduler has
 * borrowed it and given it back. */
static void give_back_cta(void *ctx, uint32_t kernel, uint32_t cta)
{
    cta_cache *c = ctx;
    size_t at = find(c, kernel, cta);
    if (at == c->held_count)
        return;
    held_cta *h = c->held[at];
    if (--h->lent == 0 && h->to_borrow == 0) {
        drop(h);
        c->held[at] = c->held[--c->held_count];
    }
}

sched_source cta_cache_source(cta_cache *c)
{
    return (sched_source){.ctx = c, .trace = c->inner.trace, .ctas = cached_ctas,
                          .load_cta = passed_load_cta, .borrow_cta = borrow_cta,
                          .give_back_cta = give_back_cta};
}
