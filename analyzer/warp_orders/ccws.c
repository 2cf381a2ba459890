/* analyzer/warp_orders/ccws.c: cache-conscious wavefront scheduling (docs/metrics.md
 * §9's baseline; Rogers, O'Connor and Aamodt, "Cache-Conscious Wavefront
 * Scheduling", MICRO 2012; as S3 §5.2 describes it).
 *
 * Each warp has a victim tag array (VTA) of the lines it filled that L1
 * evicted, and a lost-locality score (LLS).  A miss of a warp on a line
 * still in its own VTA is intra-warp locality lost to thrashing: its LLS
 * rises.  The L1 it watches is the scheduler's reference L1 in the
 * functional replay (docs/metrics.md §6) and the replayed hierarchy's own
 * in the timed one (§12), where a merge into a line in flight is a hit: the
 * line is there.  Per scheduler, the warps are ranked by LLS
 * (highest first, older first on ties) and admitted while the scores summed
 * before them stay under the cut-off = live warps × the base score; the
 * lowest-scoring warps stop issuing until the scores decay.  Among the
 * admitted warps the order is GTO's.
 *
 * Parameters (S3 gives none; warpscope's, named in docs/replay.md): 8
 * victim tags per warp (FIFO), base score 100 (every live warp's floor),
 * +100 per VTA hit (one lost hit shuts out about one warp), scores decaying
 * by 1 per issue of the warp's scheduler. */
#include <stdlib.h>
#include <string.h>

#include "analyzer/warp_order.h"

enum { VTA_TAGS = 8, BASE_SCORE = 100, HIT_SCORE = 100, DECAY = 1 };

typedef struct vta {
    uint64_t tags[VTA_TAGS];
    uint32_t next, valid;
} vta;

typedef struct ccws {
    void *gto;
    uint32_t sms, slots, schedulers, line_shift;
    uint32_t *score;   /* [sms × slots]: LLS */
    uint32_t *warp;    /* [sms × slots]: the slot's warp, as the reference L1 names it */
    vta *victims;      /* [sms × slots] */
    uint32_t *admitted; /* scratch: a scheduler's admitted slots, oldest first */
    uint8_t *live;      /* scratch: the admitted as a live mask */
} ccws;

static void ccws_destroy(void *state)
{
    ccws *c = state;
    if (!c)
        return;
    if (c->gto)
        warp_order_gto.destroy(c->gto);
    free(c->score);
    free(c->warp);
    free(c->victims);
    free(c->admitted);
    free(c->live);
    free(c);
}

static void *ccws_create(const warp_order_geometry *g, ws_error *err)
{
    ccws *c = calloc(1, sizeof *c);
    if (!c)
        return ws_fail(err, "out of memory"), NULL;
    if (!(c->gto = warp_order_gto.create(g, err))) {
        free(c);
        return NULL;
    }
    size_t slots = g->slots ? g->slots : 1, n = (size_t)g->sms * slots;
    if (!(c->score = calloc(n, sizeof *c->score)) || !(c->warp = calloc(n, sizeof *c->warp)) ||
        !(c->victims = calloc(n, sizeof *c->victims)) ||
        !(c->admitted = calloc(slots, sizeof *c->admitted)) || !(c->live = calloc(slots, 1))) {
        ccws_destroy(c);
        return ws_fail(err, "out of memory"), NULL;
    }
    c->sms = g->sms;
    c->slots = g->slots;
    c->schedulers = g->schedulers ? g->schedulers : 1;
    c->line_shift = g->line_bytes ? (uint32_t)__builtin_ctz(g->line_bytes) : 7;
    return c;
}

static void reset_slot(ccws *c, uint32_t sm, uint32_t slot)
{
    size_t at = (size_t)sm * c->slots + slot;
    c->score[at] = BASE_SCORE;
    c->warp[at] = UINT32_MAX;
    c->victims[at] = (vta){0};
}

static void ccws_kernel_begin(void *state, uint32_t slots, uint32_t pc_count)
{
    ccws *c = state;
    warp_order_gto.kernel_begin(c->gto, slots, pc_count);
    for (uint32_t sm = 0; sm < c->sms; sm++)
        for (uint32_t s = 0; s < c->slots; s++)
            reset_slot(c, sm, s);
}

static void ccws_arrived(void *state, uint32_t sm, uint32_t slot)
{
    ccws *c = state;
    reset_slot(c, sm, slot);
    warp_order_gto.arrived(c->gto, sm, slot);
}

static void ccws_left(void *state, uint32_t sm, uint32_t scheduler, uint32_t slot)
{
    ccws *c = state;
    reset_slot(c, sm, slot);
    warp_order_gto.left(c->gto, sm, scheduler, slot);
}

static int vta_take(vta *v, uint64_t line)
{
    for (uint32_t i = 0; i < v->valid; i++)
        if (v->tags[i] == line) {
            v->tags[i] = v->tags[--v->valid]; /* a hit consumes the tag */
            if (v->next > v->valid)
                v->next = v->valid;
            return 1;
        }
    return 0;
}

static void vta_put(vta *v, uint64_t line)
{
    if (v->valid < VTA_TAGS) {
        v->tags[v->valid++] = line;
        return;
    }
    v->tags[v->next] = line; /* FIFO over a full array */
    v->next = (v->next + 1) % VTA_TAGS;
}

/* L1's answer: evicted lines go to their filler's VTA; a miss that finds
 * its line in its own VTA raises the warp's score. */
static void ccws_observed(void *state, uint32_t sm, uint32_t slot, uint32_t warp, uint32_t pc,
                          const ws_request *requests, const replay_ref *refs, int n)
{
    (void)pc;
    ccws *c = state;
    size_t base = (size_t)sm * c->slots;
    c->warp[base + slot] = warp;
    for (int i = 0; i < n; i++) {
        const replay_ref *r = &refs[i];
        if (r->outcome == L1_LOOKUP && !r->hit &&
            vta_take(&c->victims[base + slot], requests[i].line_addr >> c->line_shift))
            c->score[base + slot] += HIT_SCORE;
        if (r->evicted && r->victim_warp != UINT32_MAX)
            for (uint32_t s = 0; s < c->slots; s++)
                if (c->warp[base + s] == r->victim_warp) {
                    vta_put(&c->victims[base + s], r->victim_line);
                    break;
                }
    }
}

/* Admits the scheduler's warps by score, highest first (older on ties),
 * while the scores before each stay under the cut-off; returns how many,
 * in c->admitted, oldest first. */
static uint32_t admit(ccws *c, const warp_view *v)
{
    const uint32_t *score = c->score + (size_t)v->sm * c->slots;
    uint64_t cutoff = (uint64_t)v->live_count * BASE_SCORE, before = 0;
    uint32_t count = 0;
    memset(c->live, 0, v->slot_count);
    for (;;) { /* the best warp not yet admitted; live_count is at most a few dozen */
        int32_t best = -1;
        for (uint32_t k = 0; k < v->live_count; k++) {
            uint32_t s = v->by_age[k];
            if (!c->live[s] && (best < 0 || score[s] > score[best]))
                best = (int32_t)s;
        }
        if (best < 0 || (count > 0 && before >= cutoff))
            break;
        c->live[best] = 1;
        before += score[best];
        count++;
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < v->live_count; k++)
        if (c->live[v->by_age[k]])
            c->admitted[n++] = v->by_age[k];
    return n;
}

static int32_t ccws_pick(void *state, const warp_view *v)
{
    ccws *c = state;
    warp_view only = *v;
    only.live_count = admit(c, v);
    only.by_age = c->admitted;
    only.live = c->live;
    return warp_order_gto.pick(c->gto, &only);
}

static void ccws_issued(void *state, const warp_view *v, uint32_t slot, int missed)
{
    ccws *c = state;
    uint32_t *score = c->score + (size_t)v->sm * c->slots;
    for (uint32_t k = 0; k < v->live_count; k++) { /* the scheduler's scores decay */
        uint32_t s = v->by_age[k];
        score[s] = score[s] > BASE_SCORE + DECAY ? score[s] - DECAY : BASE_SCORE;
    }
    warp_order_gto.issued(c->gto, v, slot, missed);
}

const warp_order_ops warp_order_ccws = {
    .name = "ccws",
    .description = "cache-conscious wavefront scheduling: warps that lose locality to L1 "
                   "thrashing shut the lowest-scoring warps out (GTO among the rest)",
    .uses_misses = 1,
    .under_study = 1,
    .create = ccws_create,
    .destroy = ccws_destroy,
    .kernel_begin = ccws_kernel_begin,
    .arrived = ccws_arrived,
    .pick = ccws_pick,
    .issued = ccws_issued,
    .left = ccws_left,
    .observed = ccws_observed,
};
