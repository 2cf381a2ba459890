/* analyzer/l2_touch.c: see l2_touch.h. */
#include "analyzer/l2_touch.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/cache.h"
#include "analyzer/coalesce.h"
#include "analyzer/l1_rules.h"
#include "formats/packed_record.h"
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

/* One CTA's records, packed as the scheduler reads them (affine ones
 * coalesce without sorting their lanes); clears f->fits once the trace
 * cannot fit.  0, or -1 with err set. */
static int check_cta(fit_check *f, const packed_cta *records, uint32_t cta, ws_error *err)
{
    ws_request rq[COALESCE_MAX_REQUESTS];
    wst_record r;
    for (size_t i = 0; i < records->count && f->fits; i++) {
        packed_cta_expand(records, i, cta, &r);
        if (l1_route_of(r.kind, r.space, r.cache_op, f->config->l1.write) == L1_WRITE_BACK) {
            f->fits = 0; /* its line is dirty in L1 and written back later */
            break;
        }
        const packed_record *q = &records->records[i];
        int got = packed_affine(q)
                      ? coalesce_record_affine(&f->coalesce, &r, q->stride, f->kernel, rq, NULL, err)
                      : coalesce_record(&f->coalesce, &r, f->kernel, rq, NULL, err);
        if (got < 0)
            return -1;
        for (int j = 0; j < got && f->fits; j++) {
            uint64_t line = rq[j].line_addr >> f->line_shift;
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
    return 0;
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
    packed_cta records = {0};
    uint32_t *starts = NULL;
    if (!(f.slice = cache_new(&co, err)))
        return -1;
    if (u64map_init(&f.seen, 1024) != 0 ||
        !(f.lines_of = calloc((size_t)l2->slices * f.sets, 1))) {
        ws_fail(err, "out of memory");
        goto out;
    }
    const wst_trace *t = source->trace;
    for (uint32_t k = 0; k < t->kernel_count && f.fits; k++) {
        const wst_kernel *kernel = &t->kernels[k];
        uint64_t threads = (uint64_t)kernel->block.x * kernel->block.y * kernel->block.z;
        if ((threads + 31) / 32 > SCHED_MAX_WARPS_PER_CTA) {
            f.fits = 0; /* no shortcut: the replay refuses the kernel in its own words */
            break;
        }
        uint32_t warps = (uint32_t)((threads + 31) / 32), count;
        const uint32_t *ctas = source->ctas(source->ctx, k, &count);
        f.kernel = k;
        free(starts);
        if (!(starts = malloc(((size_t)warps + 1) * sizeof *starts))) {
            ws_fail(err, "out of memory");
            goto out;
        }
        for (uint32_t c = 0; c < count && f.fits; c++) {
            memset(starts, 0, ((size_t)warps + 1) * sizeof *starts);
            packed_cta_clear(&records);
            cta_grouping g = {.records = &records, .starts = starts, .warps = warps,
                              .kernel = k, .cta = ctas[c]};
            if (sched_source_pack(source, k, ctas[c], &g, err) != 0 ||
                check_cta(&f, &records, ctas[c], err) != 0)
                goto out;
        }
    }
    rc = f.fits;
out:
    cache_free(f.slice);
    u64map_destroy(&f.seen);
    free(f.lines_of);
    free(starts);
    packed_cta_free(&records);
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
