/* analyzer/l1_collectors.h: the replay's built-in metric collectors, as
 * subscribers to the L1 events of hierarchy.h (DESIGN: collectors subscribe
 * to cache events):
 *   miss classes   docs/metrics.md §8: cold / intra-warp / inter-warp / write-evict,
 *                  and the 3C split from a fully-associative LRU per SM;
 *   generations    docs/metrics.md §4: the locality classes of this L1's lines;
 *   inter-core     docs/metrics.md §5: μRC, the remote-holder matrix and the
 *                  replication factor, from a map of which L1s hold a line.
 * They write into the hierarchy's results: per-kernel figures into the
 * kernel *current points to. */
#ifndef WS_L1_COLLECTORS_H
#define WS_L1_COLLECTORS_H

#include "analyzer/cache.h"
#include "analyzer/falru.h"
#include "analyzer/hierarchy.h"
#include "analyzer/holders.h"
#include "analyzer/mask_counts.h"
#include "formats/trace.h"

typedef struct l1_collectors l1_collectors;

/* generations: whether to keep the locality generations (else the
 * kernels' `locality` is NULL). */
l1_collectors *l1_collectors_new(uint32_t sms, uint32_t l1_lines, int generations,
                                 replay_results *res, replay_kernel *const *current,
                                 ws_error *err);
void l1_collectors_free(l1_collectors *c);
/* Makes SM sm's own state (its 3C reference) if it has none yet: the
 * hierarchy calls it before the SM's first event. */
int l1_collectors_sm_begin(l1_collectors *c, uint32_t sm, ws_error *err);

/* Kernel end: the generations and replication at the end, then a fresh
 * start (the L1s are flushed). */
int l1_collectors_kernel_end(l1_collectors *c, ws_error *err);
/* The run's end: the figures kept across kernels (the remote-holder
 * matrix) are complete. */
void l1_collectors_finish(l1_collectors *c);

/* ---- the events, inline ----
 *
 * The L1 events of hierarchy.h, each handed to the three.  The hierarchy
 * raises them here directly (then to the caller's subscribers); they are
 * inline because they run several times a request on the replay's hottest
 * path.  The l1c_ helpers are the three collectors' own, not for callers. */

struct l1_collectors {
    uint32_t sms, l1_lines;
    replay_results *res;
    replay_kernel *const *current;
    /* miss classes */
    missclass *classes;
    falru **fully;       /* per SM: the 3C reference (NULL until the SM issues) */
    int fully_hit;       /* of the request being looked up */
    /* generations (NULL: not kept) */
    locality *generations;
    /* inter-core */
    holders holders;     /* which L1s hold each line */
    mask_counts remote;  /* the remote-holder matrix's rows, counted a mask at a time */
};

static inline void l1_collectors_prefetch(const l1_collectors *c, uint32_t sm, uint64_t line)
{
    missclass_prefetch(c->classes, sm, line);
}

static inline replay_counts *l1c_counts_of(const l1_collectors *c)
{
    return &(*c->current)->counts;
}

/* ---- miss classes (docs/metrics.md §8) ---- */

static inline int l1c_classes_begin(void *ctx, uint32_t kernel, uint32_t pcs, ws_error *err)
{
    (void)kernel, (void)pcs, (void)err;
    missclass_begin_kernel(((l1_collectors *)ctx)->classes);
    return 0;
}

static inline int l1c_classes_lookup(void *ctx, const replay_issue *is, uint64_t line,
                                     ws_error *err)
{
    l1_collectors *c = ctx;
    return (c->fully_hit = falru_access(c->fully[is->sm], line, err)) < 0 ? -1 : 0;
}

static inline int l1c_classes_miss(void *ctx, const replay_issue *is, uint64_t line, int present,
                        ws_error *err)
{
    (void)present, (void)err;
    l1_collectors *c = ctx;
    missclass_miss(c->classes, is->sm, line, is->warp, c->fully_hit,
                   &l1c_counts_of(c)->miss_classes);
    return 0;
}

static inline int l1c_classes_depart(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor,
                          evict_cause cause, ws_error *err)
{
    l1_collectors *c = ctx;
    return cause == EVICT_REPLACE ? missclass_evicted(c->classes, sm, line, evictor, err)
                                  : missclass_invalidated(c->classes, sm, line, err);
}

static inline int l1c_classes_store(void *ctx, const replay_issue *is, uint64_t line, int present,
                         ws_error *err)
{
    (void)present, (void)err;
    l1_collectors *c = ctx;
    falru_invalidate(c->fully[is->sm], line);
    return 0;
}

/* ---- locality generations (docs/metrics.md §4) ---- */

static inline int l1c_generations_begin(void *ctx, uint32_t kernel, uint32_t pcs, ws_error *err)
{
    (void)kernel;
    locality *generations = ((l1_collectors *)ctx)->generations;
    return generations ? locality_begin_kernel(generations, pcs, err) : 0;
}

static inline int l1c_generations_hit(void *ctx, const replay_issue *is, uint64_t line,
                                      uint32_t owner,
                           ws_error *err)
{
    (void)owner, (void)err;
    locality *generations = ((l1_collectors *)ctx)->generations;
    if (generations)
        locality_hit(generations, is->sm, line, is->warp);
    return 0;
}

static inline int l1c_generations_fill(void *ctx, const replay_issue *is, uint64_t line,
                                       ws_error *err)
{
    /* S2's single monitored warp: the one in slot 0 of each SM. */
    locality *generations = ((l1_collectors *)ctx)->generations;
    return generations ? locality_fill(generations, is->sm, line, is->warp, is->pc,
                                       is->warp_slot == 0, err)
                       : 0;
}

static inline int l1c_generations_depart(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor,
                              evict_cause cause, ws_error *err)
{
    (void)evictor, (void)cause, (void)err;
    locality *generations = ((l1_collectors *)ctx)->generations;
    if (generations)
        locality_evict(generations, sm, line);
    return 0;
}

/* ---- inter-core reuse and replication (docs/metrics.md §5) ---- */

/* A μRC candidate: a global load that looked L1 up and missed.  Counts it,
 * and which other SMs' L1s hold its line now. */
static inline int l1c_inter_core_miss(void *ctx, const replay_issue *is, uint64_t line, int present,
                           ws_error *err)
{
    (void)present, (void)err;
    l1_collectors *c = ctx;
    if (is->space != WST_GLOBAL)
        return 0;
    replay_counts *k = l1c_counts_of(c);
    k->l1_load_misses++;
    c->res->sm_load_misses[is->sm]++;
    const uint64_t *held = holders_of(&c->holders, line);
    if (!held)
        return 0;
    /* Row x gains the other SMs holding the line (a sector miss: not its own copy). */
    int others = mask_counts_add(&c->remote, is->sm, held, is->sm);
    k->remote_held_misses += (uint64_t)others;
    return 0;
}

static inline int l1c_inter_core_fill(void *ctx, const replay_issue *is, uint64_t line,
                                      ws_error *err)
{
    l1_collectors *c = ctx;
    return holders_add(&c->holders, line, is->sm) != 0 ? ws_fail(err, "out of memory") : 0;
}

static inline int l1c_inter_core_depart(void *ctx, uint32_t sm, uint64_t line, uint32_t evictor,
                             evict_cause cause, ws_error *err)
{
    (void)evictor, (void)cause, (void)err;
    holders_remove(&((l1_collectors *)ctx)->holders, line, sm);
    return 0;
}

static inline void l1c_inter_core_instruction(void *ctx, const replay_issue *is)
{
    (void)is;
    l1_collectors *c = ctx;
    if (c->holders.distinct) { /* undefined while the L1s are empty (docs/metrics.md §5) */
        c->res->replication_sum += (double)c->holders.copies / (double)c->holders.distinct;
        c->res->replication_samples++;
    }
}

/* ---- the events, each to the three (l1_collectors.h) ---- */

static inline int l1_collectors_kernel_begin(l1_collectors *c, uint32_t kernel, uint32_t pcs,
                                             ws_error *err)
{
    return l1c_classes_begin(c, kernel, pcs, err) != 0 ? -1 : l1c_generations_begin(c, kernel, pcs,
                             err);
}

static inline int l1_collectors_lookup(l1_collectors *c, const replay_issue *is, uint64_t line,
                                       ws_error *err)
{
    return l1c_classes_lookup(c, is, line, err);
}

static inline int l1_collectors_hit(l1_collectors *c, const replay_issue *is, uint64_t line,
                                    uint32_t owner,
                      ws_error *err)
{
    return l1c_generations_hit(c, is, line, owner, err);
}

static inline int l1_collectors_miss(l1_collectors *c, const replay_issue *is, uint64_t line,
                                     int present,
                       ws_error *err)
{
    l1c_classes_miss(c, is, line, present, err);
    return l1c_inter_core_miss(c, is, line, present, err);
}

static inline int l1_collectors_fill(l1_collectors *c, const replay_issue *is, uint64_t line,
                                     ws_error *err)
{
    return l1c_generations_fill(c, is, line, err) != 0 ? -1 : l1c_inter_core_fill(c, is, line, err);
}

static inline int l1_collectors_depart(l1_collectors *c, uint32_t sm, uint64_t line,
                                       uint32_t evictor,
                         evict_cause cause, ws_error *err)
{
    if (l1c_classes_depart(c, sm, line, evictor, cause, err) != 0)
        return -1;
    l1c_generations_depart(c, sm, line, evictor, cause, err);
    return l1c_inter_core_depart(c, sm, line, evictor, cause, err);
}

static inline int l1_collectors_store(l1_collectors *c, const replay_issue *is, uint64_t line,
                                      int present,
                        ws_error *err)
{
    return l1c_classes_store(c, is, line, present, err);
}

static inline void l1_collectors_instruction(l1_collectors *c, const replay_issue *is)
{
    l1c_inter_core_instruction(c, is);
}

#endif
