/* analyzer/locality.c: see locality.h (docs/metrics.md §4). */
#include "analyzer/locality.h"

#include <stdlib.h>
#include <string.h>

#include "util/slot_pool.h"
#include "util/u64map.h"

/* One per line an SM's L1 holds now: an eviction closes the generation and
 * frees its entry, so the index stays as small as the L1 (and in cache). */
typedef struct generation {
    uint32_t filler_warp;
    uint32_t filler_pc;
    uint32_t total;
    uint32_t intra;
    uint8_t open;
    uint8_t monitored;
} generation;

typedef struct sm_generations {
    u64map index; /* held line -> position in gens */
    generation *gens;
    slot_pool slots;   /* of gens: freed by evictions, reused first */
} sm_generations;

struct locality {
    uint32_t sm_count;
    sm_generations *per_sm;
    locality_pc *pcs;
    uint32_t pc_count;
    uint32_t threshold; /* close a generation once Tot reaches it (0: never) */
    locality_close_fn on_close;
    void *close_ctx;
};

locality *locality_new(uint32_t sm_count, ws_error *err)
{
    locality *loc = calloc(1, sizeof *loc);
    if (!loc || !(loc->per_sm = calloc(sm_count ? sm_count : 1, sizeof *loc->per_sm)))
        goto oom;
    loc->sm_count = sm_count;
    for (uint32_t s = 0; s < sm_count; s++)
        if (u64map_init(&loc->per_sm[s].index, 256) != 0)
            goto oom;
    return loc;
oom:
    ws_fail(err, "out of memory");
    locality_free(loc);
    return NULL;
}

void locality_free(locality *loc)
{
    if (!loc)
        return;
    for (uint32_t s = 0; loc->per_sm && s < loc->sm_count; s++) {
        u64map_destroy(&loc->per_sm[s].index);
        free(loc->per_sm[s].gens);
        slot_pool_destroy(&loc->per_sm[s].slots);
    }
    free(loc->per_sm);
    free(loc->pcs);
    free(loc);
}

int locality_begin_kernel(locality *loc, uint32_t pc_count, ws_error *err)
{
    locality_pc *pcs = calloc(pc_count ? pc_count : 1, sizeof *pcs);
    if (!pcs)
        return ws_fail(err, "out of memory");
    free(loc->pcs);
    loc->pcs = pcs;
    loc->pc_count = pc_count;
    for (uint32_t s = 0; s < loc->sm_count; s++) {
        u64map_clear(&loc->per_sm[s].index);
        slot_pool_clear(&loc->per_sm[s].slots);
    }
    return 0;
}

locality_class locality_classify(uint32_t total, uint32_t intra)
{
    if (total <= 1)
        return LOCALITY_STREAMING;
    if (intra >= total)
        return LOCALITY_INTRA_ONLY;
    return intra > 1 ? LOCALITY_BOTH : LOCALITY_INTER_ONLY;
}

void locality_watch(locality *loc, uint32_t threshold, locality_close_fn on_close, void *ctx)
{
    loc->threshold = threshold;
    loc->on_close = on_close;
    loc->close_ctx = ctx;
}

static void close_generation(locality *loc, uint32_t sm, generation *g)
{
    if (!g->open)
        return;
    g->open = 0;
    if (g->filler_pc >= loc->pc_count)
        return;
    locality_pc *pc = &loc->pcs[g->filler_pc];
    locality_class c = locality_classify(g->total, g->intra);
    pc->generations[c]++;
    if (g->monitored)
        pc->monitored_generations[c]++;
    if (loc->on_close)
        loc->on_close(loc->close_ctx, sm, g->filler_pc, c, g->monitored);
}

static generation *find(const locality *loc, uint32_t sm, uint64_t line)
{
    if (sm >= loc->sm_count)
        return NULL;
    const sm_generations *s = &loc->per_sm[sm];
    uint32_t *slot = u64map_find(&s->index, line);
    return slot ? &s->gens[*slot] : NULL;
}

int locality_fill(locality *loc, uint32_t sm, uint64_t line, uint32_t warp, uint32_t pc,
                  int monitored, ws_error *err)
{
    if (sm >= loc->sm_count)
        return ws_fail(err, "locality: SM %u outside 0..%u", sm, loc->sm_count - 1);
    sm_generations *s = &loc->per_sm[sm];
    int inserted;
    uint32_t *slot = u64map_upsert(&s->index, line, 0, &inserted);
    if (!slot)
        return ws_fail(err, "out of memory");
    if (!inserted) {
        close_generation(loc, sm, &s->gens[*slot]); /* a fill without an eviction event */
    } else if (slot_pool_take(&s->slots, (void **)&s->gens, sizeof *s->gens, slot) != 0) {
        u64map_remove(&s->index, line);
        return ws_fail(err, "out of memory");
    }
    s->gens[*slot] = (generation){.filler_warp = warp, .filler_pc = pc, .total = 1,
                                  .intra = 1, .open = 1, .monitored = monitored != 0};
    return 0;
}

void locality_hit(locality *loc, uint32_t sm, uint64_t line, uint32_t warp)
{
    generation *g = find(loc, sm, line);
    if (!g || !g->open)
        return;
    g->total++;
    int same_warp = warp == g->filler_warp;
    g->intra += same_warp;
    if (g->filler_pc < loc->pc_count) {
        locality_pc *pc = &loc->pcs[g->filler_pc];
        if (same_warp)
            pc->intra_warp_hits++;
        else
            pc->inter_warp_hits++;
    }
    if (loc->threshold && g->total >= loc->threshold)
        close_generation(loc, sm, g); /* S2's observation ends at Tot >= T */
}

void locality_evict(locality *loc, uint32_t sm, uint64_t line)
{
    generation *g = find(loc, sm, line);
    if (!g)
        return;
    close_generation(loc, sm, g);
    sm_generations *s = &loc->per_sm[sm];
    slot_pool_put(&s->slots, (uint32_t)(g - s->gens));
    u64map_remove(&s->index, line);
}

void locality_end_kernel(locality *loc)
{
    for (uint32_t s = 0; s < loc->sm_count; s++)
        for (size_t i = 0; i < loc->per_sm[s].slots.count; i++)
            close_generation(loc, s, &loc->per_sm[s].gens[i]);
}

const locality_pc *locality_pcs(const locality *loc, uint32_t *pc_count)
{
    *pc_count = loc->pc_count;
    return loc->pcs;
}

const char *locality_class_name(locality_class c)
{
    static const char *const names[LOCALITY_CLASSES] = {"streaming", "intra", "inter", "both"};
    return (unsigned)c < LOCALITY_CLASSES ? names[c] : "?";
}

locality_class locality_dominant(const uint64_t counts[LOCALITY_CLASSES])
{
    locality_class best = LOCALITY_STREAMING;
    for (int c = 1; c < LOCALITY_CLASSES; c++)
        if (counts[c] > counts[best])
            best = (locality_class)c;
    return best;
}

void locality_totals_add(locality_totals *t, const locality_pc *pcs, uint32_t pc_count)
{
    for (uint32_t i = 0; i < pc_count; i++) {
        uint64_t monitored = 0;
        for (int c = 0; c < LOCALITY_CLASSES; c++) {
            t->generations[c] += pcs[i].generations[c];
            monitored += pcs[i].monitored_generations[c];
        }
        t->intra_warp_hits += pcs[i].intra_warp_hits;
        t->inter_warp_hits += pcs[i].inter_warp_hits;
        if (!monitored)
            continue;
        t->compared++;
        t->agreed += locality_dominant(pcs[i].monitored_generations) ==
                     locality_dominant(pcs[i].generations);
    }
}

double locality_totals_agreement(const locality_totals *t)
{
    return t->compared ? (double)t->agreed / (double)t->compared : -1.0;
}
