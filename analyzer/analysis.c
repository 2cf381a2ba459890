/* analyzer/analysis.c: see analysis.h. */
#include "analyzer/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/coalesce.h"
#include "analyzer/tagcache.h"

void analysis_options_default(analysis_options *o)
{
    memset(o, 0, sizeof *o);
    o->schedule = (sched_options){.cta = CTA_RR, .warp = WARP_GTO};
}

typedef struct pass {
    analysis *a;
    coalesce_config coalesce;
    locality *locality;
    tagcache **l1;     /* per SM */
    tagcache **window; /* per SM, with locality_window: the generations' cache */
    uint32_t line_shift;
    analysis_kernel *kernel;
    ws_error err;
    int failed;
} pass;

static int counted(const pass *p, const wst_record *r)
{
    return r->space == WST_GLOBAL && (r->kind == WST_LOAD || p->a->options.include_stores);
}

/* One issued instruction through every consumer; returns whether it missed
 * in the L1 (the scheduler's GTO signal). */
static int handle_issue(void *ctx, const sched_event *e)
{
    pass *p = ctx;
    if (p->failed)
        return 0;
    const wst_record *r = e->record;
    ws_request requests[COALESCE_MAX_REQUESTS];
    coalesce_summary summary;
    int n = coalesce_record(&p->coalesce, r, e->kernel, requests, &summary, &p->err);
    metrics_issue issue = {.record = r, .sm = e->sm, .warp_slot = e->warp_slot};
    if (n < 0 || metrics_instruction(p->a->metrics, &issue, requests, &summary, &p->err) != 0) {
        p->failed = 1;
        return 0;
    }
    int is_counted = counted(p, r);
    uint32_t warp = (uint32_t)e->warp_id;
    tagcache *l1 = p->l1[e->sm];
    int missed = 0;
    for (int i = 0; i < n; i++) {
        uint64_t line = requests[i].line_addr >> p->line_shift;
        if (is_counted &&
            sharing_touch(p->a->sharing, requests[i].line_addr, e->sm, e->cta, &p->err) != 0) {
            p->failed = 1;
            return 0;
        }
        if (is_counted &&
            access_map_touch(p->a->access_map, p->a->issued, requests[i].line_addr, &p->err) != 0) {
            p->failed = 1;
            return 0;
        }
        /* L1 rules of SPEC §7: global stores and atomics write-evict, cg
         * loads bypass, local space is cached (write-back). */
        if (r->space == WST_GLOBAL && r->kind != WST_LOAD) {
            if (tagcache_invalidate(l1, line))
                locality_evict(p->locality, e->sm, line);
            continue;
        }
        if (r->space == WST_GLOBAL && r->cache_op == WST_OP_CG) {
            missed = 1;
            continue;
        }
        tagcache_result hit = tagcache_access(l1, line, 1, warp);
        missed |= !hit.hit;
        if (is_counted)
            *(hit.hit ? &p->kernel->l1_hits : &p->kernel->l1_misses) += 1;
        if (p->window) /* the cache-independent window decides generations */
            hit = tagcache_access(p->window[e->sm], line, 1, warp);
        if (hit.hit) {
            if (is_counted)
                locality_hit(p->locality, e->sm, line, warp);
            continue;
        }
        if (hit.evicted)
            locality_evict(p->locality, e->sm, hit.victim_line);
        /* S2's single monitored warp: the one in slot 0 of each SM. */
        if (is_counted && locality_fill(p->locality, e->sm, line, warp, r->pc, e->warp_slot == 0,
                                        &p->err) != 0) {
            p->failed = 1;
            return 0;
        }
    }
    return missed;
}

static int kernel_begin(pass *p, const wst_trace *t, uint32_t k)
{
    analysis *a = p->a;
    p->kernel = &a->kernels[k];
    uint32_t pcs = t->kernels[k].pc_count;
    for (uint32_t s = 0; s < a->config.sms; s++) {
        tagcache_flush(p->l1[s]); /* L1s are flushed between kernels (SPEC §7) */
        if (p->window)
            tagcache_flush(p->window[s]);
    }
    return metrics_kernel_begin(a->metrics, pcs, &p->err) || locality_begin_kernel(p->locality, pcs, &p->err)
               ? -1
               : 0;
}

static int kernel_end(pass *p)
{
    analysis *a = p->a;
    locality_end_kernel(p->locality);
    uint32_t n;
    const locality_pc *pcs = locality_pcs(p->locality, &n);
    p->kernel->locality = malloc((n ? n : 1) * sizeof *pcs);
    if (!p->kernel->locality)
        return ws_fail(&p->err, "out of memory");
    memcpy(p->kernel->locality, pcs, n * sizeof *pcs);
    p->kernel->pc_count = n;
    /* Sharing is folded per kernel; the kernel's own figures are the growth. */
    sharing_results before = *sharing_get(a->sharing);
    uint64_t near_before = sharing_neighbour_pairs(&before);
    sharing_end_kernel(a->sharing);
    const sharing_results *after = sharing_get(a->sharing);
    uint64_t near_after = sharing_neighbour_pairs(after);
    p->kernel->sharing_blocks = after->blocks - before.blocks;
    p->kernel->sharing_shared = after->shared_blocks - before.shared_blocks;
    p->kernel->sharing_multi_cta = after->multi_cta_blocks - before.multi_cta_blocks;
    p->kernel->sharing_pairs = after->cta_pairs - before.cta_pairs;
    p->kernel->sharing_neighbour_pairs = near_after - near_before;
    return metrics_kernel_end(a->metrics, &p->err);
}

void analysis_free(analysis *a)
{
    if (!a)
        return;
    metrics_free(a->metrics);
    sharing_free(a->sharing);
    access_map_free(a->access_map);
    for (uint32_t k = 0; a->kernels && k < a->kernel_count; k++)
        free(a->kernels[k].locality);
    free(a->kernels);
    free(a);
}

analysis *analysis_run(wst_reader *r, const gpu_config *config, const analysis_options *options,
                       progress *bar, ws_error *err)
{
    const wst_trace *t = wst_reader_trace(r);
    analysis *a = calloc(1, sizeof *a);
    pass p = {.a = a};
    if (!a || !(a->kernels = calloc(t->kernel_count + 1, sizeof *a->kernels))) {
        free(a);
        ws_fail(err, "out of memory");
        return NULL;
    }
    a->config = *config;
    a->options = *options;
    a->kernel_count = t->kernel_count;
    p.coalesce = (coalesce_config){.line_bytes = config->l1.line_bytes, .half_warp = options->half_warp};
    p.line_shift = (uint32_t)__builtin_ctz(config->l1.line_bytes);
    metrics_options mo = {.coalesce = p.coalesce,
                          .sm_count = config->sms,
                          .warp_slots_per_sm = config->max_warps_per_sm,
                          .exact_distances = 2 * cache_config_lines(&config->l1),
                          .include_stores = options->include_stores,
                          .sample_rate = options->sample_rate};
    uint32_t block = options->sharing_block ? options->sharing_block : config->l1.line_bytes;
    sched_source source = sched_source_wst(r);
    sched *s = NULL;
    int rc = -1;
    if (!(a->metrics = metrics_new(&mo, err)) || !(a->sharing = sharing_new(config->sms, block, err)) ||
        !(p.locality = locality_new(config->sms, err)))
        goto out;
    p.l1 = calloc(config->sms, sizeof *p.l1);
    for (uint32_t i = 0; p.l1 && i < config->sms; i++)
        if (!(p.l1[i] = tagcache_new(&config->l1, err)))
            goto out;
    if (!p.l1) {
        ws_fail(err, "out of memory");
        goto out;
    }
    if (options->locality_window) {
        cache_config fully = {.size_bytes = (uint64_t)options->locality_window * config->l1.line_bytes,
                              .ways = options->locality_window, .line_bytes = config->l1.line_bytes,
                              .slices = 1};
        p.window = calloc(config->sms, sizeof *p.window);
        for (uint32_t i = 0; p.window && i < config->sms; i++)
            if (!(p.window[i] = tagcache_new(&fully, err)))
                goto out;
        if (!p.window) {
            ws_fail(err, "out of memory");
            goto out;
        }
    }
    if (!(a->access_map = access_map_new(err)))
        goto out;
    s = sched_new(config, &options->schedule, &source, handle_issue, &p, err);
    if (!s)
        goto out;
    int gto = options->schedule.warp == WARP_GTO;
    sched_event e;
    int got;
    while ((got = sched_next(s, &e, err)) == 1) {
        if (e.kind == SCHED_KERNEL_BEGIN && kernel_begin(&p, t, e.kernel) != 0)
            break;
        if (e.kind == SCHED_KERNEL_END && kernel_end(&p) != 0)
            break;
        if (e.kind == SCHED_ISSUE) {
            if (!gto) /* GTO already ran it through the consumers to learn the miss */
                handle_issue(&p, &e);
            if (options->observe)
                options->observe(options->observe_ctx, &e);
            progress_update(bar, ++a->issued);
        }
        if (p.failed)
            break;
    }
    if (got < 0)
        goto out;
    if (got == 1 || p.failed) {
        ws_fail(err, "%s", p.err.msg);
        goto out;
    }
    a->peak_resident_ctas = sched_peak_resident_ctas(s);
    rc = 0;
out:
    sched_free(s);
    for (uint32_t i = 0; p.l1 && i < config->sms; i++)
        tagcache_free(p.l1[i]);
    free(p.l1);
    for (uint32_t i = 0; p.window && i < config->sms; i++)
        tagcache_free(p.window[i]);
    free(p.window);
    locality_free(p.locality);
    if (rc != 0) {
        analysis_free(a);
        return NULL;
    }
    return a;
}
