/* analyzer/l1_collectors.c: see l1_collectors.h. */
#include "analyzer/l1_collectors.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/falru.h"
#include "formats/trace.h"
#include "util/u64map.h"

struct l1_collectors {
    uint32_t sms;
    cache *const *l1;
    replay_results *res;
    replay_kernel *const *current;
    /* miss classes */
    missclass *classes;
    falru **fully;       /* per SM: the 3C reference */
    int fully_hit;       /* of the request being looked up */
    /* generations */
    locality *generations;
    /* inter-core */
    u64map holders;      /* line -> number of L1s holding it */
    uint64_t copies, distinct;
};

l1_collectors *l1_collectors_new(uint32_t sms, uint32_t l1_lines, cache *const *l1,
                                 replay_results *res, replay_kernel *const *current,
                                 ws_error *err)
{
    l1_collectors *c = calloc(1, sizeof *c);
    if (!c)
        return ws_fail(err, "out of memory"), NULL;
    c->sms = sms;
    c->l1 = l1;
    c->res = res;
    c->current = current;
    if (u64map_init(&c->holders, 1024) != 0 || !(c->fully = calloc(sms, sizeof *c->fully))) {
        ws_fail(err, "out of memory");
        goto fail;
    }
    for (uint32_t s = 0; s < sms; s++)
        if (!(c->fully[s] = falru_new(l1_lines, err)))
            goto fail;
    if (!(c->classes = missclass_new(sms, err)) || !(c->generations = locality_new(sms, err)))
        goto fail;
    return c;
fail:
    l1_collectors_free(c);
    return NULL;
}

void l1_collectors_free(l1_collectors *c)
{
    if (!c)
        return;
    for (uint32_t s = 0; c->fully && s < c->sms; s++)
        falru_free(c->fully[s]);
    free(c->fully);
    missclass_free(c->classes);
    locality_free(c->generations);
    u64map_destroy(&c->holders);
    free(c);
}

void l1_collectors_prefetch(const l1_collectors *c, uint32_t sm, uint64_t line)
{
    missclass_prefetch(c->classes, sm, line);
}

static replay_counts *counts_of(const l1_collectors *c) { return &(*c->current)->counts; }

/* ---- miss classes (SPEC §8) ---- */

static int classes_begin(void *ctx, uint32_t kernel, uint32_t pcs, ws_error *err)
{
    (void)kernel, (void)pcs, (void)err;
    missclass_begin_kernel(((l1_collectors *)ctx)->classes);
    return 0;
}

static int classes_lookup(void *ctx, const replay_issue *is, uint64_t line, ws_error *err)
{
    l1_collectors *c = ctx;
    return (c->fully_hit = falru_access(c->fully[is->sm], line, err)) < 0 ? -1 : 0;
}

static int classes_miss(void *ctx, const replay_issue *is, uint64_t line, int present,
                        ws_error *err)
{
    (void)present, (void)err;
    l1_collectors *c = ctx;
    missclass_miss(c->classes, is->sm, line, is->warp, c->fully_hit, &counts_of(c)->miss_classes);
    return 0;
}

static int classes_depart(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor,
                          evict_cause cause, ws_error *err)
{
    l1_collectors *c = ctx;
    return cause == EVICT_REPLACE ? missclass_evicted(c->classes, sm, line, evictor, err)
                                  : missclass_invalidated(c->classes, sm, line, err);
}

static int classes_store(void *ctx, const replay_issue *is, uint64_t line, int present,
                         ws_error *err)
{
    (void)present, (void)err;
    l1_collectors *c = ctx;
    falru_invalidate(c->fully[is->sm], line);
    return 0;
}

/* ---- locality generations (SPEC §4) ---- */

static int generations_begin(void *ctx, uint32_t kernel, uint32_t pcs, ws_error *err)
{
    (void)kernel;
    return locality_begin_kernel(((l1_collectors *)ctx)->generations, pcs, err);
}

static int generations_hit(void *ctx, const replay_issue *is, uint64_t line, uint32_t owner,
                           ws_error *err)
{
    (void)owner, (void)err;
    locality_hit(((l1_collectors *)ctx)->generations, is->sm, line, is->warp);
    return 0;
}

static int generations_fill(void *ctx, const replay_issue *is, uint64_t line, ws_error *err)
{
    /* S2's single monitored warp: the one in slot 0 of each SM. */
    return locality_fill(((l1_collectors *)ctx)->generations, is->sm, line, is->warp, is->pc,
                         is->warp_slot == 0, err);
}

static int generations_depart(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor,
                              evict_cause cause, ws_error *err)
{
    (void)evictor, (void)cause, (void)err;
    locality_evict(((l1_collectors *)ctx)->generations, sm, line);
    return 0;
}

/* ---- inter-core reuse and replication (SPEC §5) ---- */

/* A μRC candidate: a global load that looked L1 up and missed.  Counts it,
 * and which other SMs' L1s hold its line now. */
static int inter_core_miss(void *ctx, const replay_issue *is, uint64_t line, int present,
                           ws_error *err)
{
    (void)err;
    l1_collectors *c = ctx;
    if (is->space != WST_GLOBAL)
        return 0;
    replay_counts *k = counts_of(c);
    uint32_t *held = u64map_find(&c->holders, line);
    uint32_t others = held ? *held - (present ? 1 : 0) : 0;
    k->l1_load_misses++;
    c->res->sm_load_misses[is->sm]++;
    if (!others)
        return 0;
    k->remote_held_misses++;
    uint64_t *row = c->res->remote_holders + (size_t)is->sm * c->sms;
    for (uint32_t s = 0; s < c->sms; s++)
        if (s != is->sm && cache_contains(c->l1[s], line))
            row[s]++;
    return 0;
}

static int inter_core_fill(void *ctx, const replay_issue *is, uint64_t line, ws_error *err)
{
    (void)is;
    l1_collectors *c = ctx;
    int inserted;
    uint32_t *n = u64map_upsert(&c->holders, line, 0, &inserted);
    if (!n)
        return ws_fail(err, "out of memory");
    c->distinct += *n == 0;
    c->copies++;
    (*n)++;
    return 0;
}

static int inter_core_depart(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor,
                             evict_cause cause, ws_error *err)
{
    (void)sm, (void)evictor, (void)cause, (void)err;
    l1_collectors *c = ctx;
    uint32_t *n = u64map_find(&c->holders, line);
    if (!n || *n == 0)
        return 0;
    (*n)--;
    c->copies--;
    if (*n == 0) {
        c->distinct--;
        u64map_remove(&c->holders, line); /* the map holds only what the L1s hold */
    }
    return 0;
}

static void inter_core_instruction(void *ctx, const replay_issue *is)
{
    (void)is;
    l1_collectors *c = ctx;
    if (c->distinct) { /* undefined while the L1s are empty (SPEC §5) */
        c->res->replication_sum += (double)c->copies / (double)c->distinct;
        c->res->replication_samples++;
    }
}

void l1_collectors_observers(l1_collectors *c, l1_observer *out)
{
    out[0] = (l1_observer){.ctx = c, .kernel_begin = classes_begin, .lookup = classes_lookup,
                           .miss = classes_miss, .depart = classes_depart, .store = classes_store};
    out[1] = (l1_observer){.ctx = c, .kernel_begin = generations_begin, .hit = generations_hit,
                           .fill = generations_fill, .depart = generations_depart};
    out[2] = (l1_observer){.ctx = c, .miss = inter_core_miss, .fill = inter_core_fill,
                           .depart = inter_core_depart, .instruction_end = inter_core_instruction};
}

int l1_collectors_kernel_end(l1_collectors *c, ws_error *err)
{
    replay_kernel *k = *c->current;
    k->end_copies = c->copies;
    k->end_lines = c->distinct;
    locality_end_kernel(c->generations);
    uint32_t n;
    const locality_pc *loc = locality_pcs(c->generations, &n);
    if (!(k->locality = malloc((n ? n : 1) * sizeof *loc)))
        return ws_fail(err, "out of memory");
    memcpy(k->locality, loc, n * sizeof *loc);
    for (uint32_t s = 0; s < c->sms; s++)
        falru_flush(c->fully[s]);
    u64map_clear(&c->holders);
    c->copies = c->distinct = 0;
    return 0;
}
