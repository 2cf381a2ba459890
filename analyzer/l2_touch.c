/* analyzer/l2_touch.c: see l2_touch.h. */
#include "analyzer/l2_touch.h"

#include <stdlib.h>

#include "analyzer/cache.h"
#include "analyzer/coalesce.h"
#include "analyzer/l1_rules.h"
#include "util/u64map.h"

/* ---- the trace's check ---- */

typedef struct fit_check {
    const gpu_config *config;
    coalesce_config coalesce;
    uint32_t line_shift, kernel;
    cache *slice;       /* one L2 slice: its set index (cache_set_of) */
    u64map seen;        /* every line so far */
    uint8_t *lines_of;  /* distinct lines per set, [slice × sets + set] */
    uint32_t sets;
    int fits;
} fit_check;

/* Takes a run of one CTA's records; 1 (enough) once the trace cannot fit. */
static int take(void *ctx, const wst_record *records, size_t n, ws_error *err)
{
    fit_check *f = ctx;
    ws_request rq[COALESCE_MAX_REQUESTS];
    for (size_t i = 0; i < n && f->fits; i++) {
        const wst_record *r = &records[i];
        if (l1_route_of(r->kind, r->space, r->cache_op, f->config->l1.write) == L1_WRITE_BACK) {
            f->fits = 0; /* its line is dirty in L1 and written back later */
            break;
        }
        int got = coalesce_record(&f->coalesce, r, f->kernel, rq, NULL, err);
        if (got < 0)
            return -1;
        for (int q = 0; q < got && f->fits; q++) {
            uint64_t line = rq[q].line_addr >> f->line_shift;
            int inserted;
            if (!u64map_upsert(&f->seen, line, 0, &inserted))
                return ws_fail(err, "out of memory");
            if (!inserted)
                continue;
            uint32_t slices = f->config->l2.slices;
            size_t at = (size_t)(line % slices) * f->sets + cache_set_of(f->slice, line);
            f->fits = ++f->lines_of[at] <= f->config->l2.ways;
        }
    }
    return f->fits ? 0 : 1;
}

int l2_touch_fits(const sched_source *source, const gpu_config *config, int half_warp,
                  ws_error *err)
{
    const cache_config *l2 = &config->l2;
    fit_check f = {.config = config,
                   .coalesce = {.line_bytes = config->l1.line_bytes, .half_warp = half_warp},
                   .line_shift = (uint32_t)__builtin_ctz(config->l1.line_bytes),
                   .sets = (uint32_t)cache_config_sets(l2), .fits = 1};
    if (l2->ways >= UINT8_MAX || l2->slices == 0)
        return 0; /* a set's count could not pass its ways: no shortcut */
    cache_options co = cache_options_for(l2, l2->slices);
    co.policy = policy_spec_lru().replacement;
    int rc = -1;
    if (!(f.slice = cache_new(&co, err)))
        return -1;
    if (u64map_init(&f.seen, 1024) != 0 ||
        !(f.lines_of = calloc((size_t)l2->slices * f.sets, 1))) {
        ws_fail(err, "out of memory");
        goto out;
    }
    const wst_trace *t = source->trace;
    for (uint32_t k = 0; k < t->kernel_count && f.fits; k++) {
        uint32_t count;
        const uint32_t *ctas = source->ctas(source->ctx, k, &count);
        f.kernel = k;
        for (uint32_t c = 0; c < count && f.fits; c++)
            if (source->load_cta(source->ctx, k, ctas[c], take, &f, err) != 0)
                goto out;
    }
    rc = f.fits;
out:
    cache_free(f.slice);
    u64map_destroy(&f.seen);
    free(f.lines_of);
    return rc;
}

/* ---- one stream's record ---- */

struct l2_touch {
    u64map lines; /* every line the stream has asked for: 1 once written */
};

l2_touch *l2_touch_new(ws_error *err)
{
    l2_touch *t = calloc(1, sizeof *t);
    if (!t || u64map_init(&t->lines, 1024) != 0) {
        free(t);
        return ws_fail(err, "out of memory"), NULL;
    }
    return t;
}

void l2_touch_free(l2_touch *t)
{
    if (!t)
        return;
    u64map_destroy(&t->lines);
    free(t);
}

uint8_t l2_touch_request(l2_touch *t, uint64_t line, int write, int *failed)
{
    int inserted;
    uint32_t *written = u64map_upsert(&t->lines, line, 0, &inserted);
    if (!written) {
        *failed = 1;
        return 0;
    }
    uint8_t flags = (uint8_t)(inserted ? L2_TOUCH_FIRST : 0);
    if (write && !*written) {
        *written = 1;
        flags |= L2_TOUCH_FIRST_WRITE;
    }
    return flags;
}
