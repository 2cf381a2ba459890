/* analyzer/ref_l1.c: see ref_l1.h. */
#include "analyzer/ref_l1.h"

#include <stdlib.h>

#include "analyzer/cache.h"

struct ref_l1 {
    uint32_t sms, line_shift, line_bytes;
    uint8_t all_sectors;
    cache **l1; /* [sms] */
};

ref_l1 *ref_l1_new(const gpu_config *config, ws_error *err)
{
    const policy_ops *lru = policy_find("lru");
    ref_l1 *r = calloc(1, sizeof *r);
    if (!r || !(r->l1 = calloc(config->sms ? config->sms : 1, sizeof *r->l1))) {
        free(r);
        return ws_fail(err, "out of memory"), NULL;
    }
    r->sms = config->sms;
    r->line_shift = (uint32_t)__builtin_ctz(config->l1.line_bytes);
    r->line_bytes = config->l1.line_bytes;
    r->all_sectors = (uint8_t)((1u << (config->l1.line_bytes / REQUEST_SECTOR_BYTES)) - 1);
    cache_options o = cache_options_for(&config->l1, 1);
    o.policy = lru;
    for (uint32_t s = 0; s < r->sms; s++)
        if (!(r->l1[s] = cache_new(&o, err))) {
            ref_l1_free(r);
            return NULL;
        }
    return r;
}

void ref_l1_free(ref_l1 *r)
{
    if (!r)
        return;
    for (uint32_t s = 0; r->l1 && s < r->sms; s++)
        cache_free(r->l1[s]);
    free(r->l1);
    free(r);
}

void ref_l1_flush(ref_l1 *r)
{
    for (uint32_t s = 0; s < r->sms; s++)
        cache_flush(r->l1[s]);
}

int ref_l1_request(ref_l1 *r, uint32_t sm, l1_route route, uint32_t warp, const ws_request *rq,
                   replay_ref *out)
{
    uint64_t line = rq->line_addr >> r->line_shift;
    cache *l1 = r->l1[sm];
    *out = (replay_ref){.outcome = (uint8_t)route};
    if (route == L1_BYPASS)
        return 1;
    if (route == L1_WRITE_EVICT) {
        out->evicted = cache_invalidate(l1, line) != 0;
        out->victim_line = line;
        out->victim_warp = UINT32_MAX;
        return 0;
    }
    cache_req q = {.line = line, .warp = warp,
                   .sector_mask = l1_request_sectors(rq->sector_mask, r->all_sectors)};
    cache_result res;
    if (route == L1_WRITE_BACK)
        cache_write(l1, &q, 0, &res);
    else if (route == L1_WRITE_ALLOCATE)
        cache_write_through(l1, &q, l1_whole_sectors(rq->byte_mask, r->line_bytes), 1, 0, &res);
    else
        cache_read(l1, &q, 1, 0, &res);
    out->hit = res.hit;
    out->present = res.present;
    out->filled = res.allocated && !res.present;
    out->evicted = res.evicted;
    out->victim_line = res.evicted ? res.victim_line : 0;
    out->victim_warp = res.evicted ? res.victim_warp : UINT32_MAX;
    return route != L1_WRITE_ALLOCATE && !res.hit; /* a store waits for nothing */
}
