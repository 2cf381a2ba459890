/* analyzer/analysis.c: see analysis.h.
 *
 * The pass is a consumer of the scheduled request stream (replay.c), like
 * the replay's hierarchies: the trace is decoded, scheduled and coalesced on
 * one thread while the metrics, and the replay of the config's policies, run
 * on workers.  The stream's reference L1 (ref_l1.h) gives GTO its misses and,
 * handed over with each request, the locality generations and LRU counts
 * here, so the order is the one `dump --order scheduled` prints and `replay`
 * replays, and that L1 is simulated once. */
#include "analyzer/analysis.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/coalesce.h"
#include "analyzer/ref_l1.h"
#include "analyzer/replay.h"
#include "analyzer/tagcache.h"
#include "util/grow.h"

void analysis_options_default(analysis_options *o)
{
    memset(o, 0, sizeof *o);
    o->schedule = (sched_options){.cta = CTA_RR, .warp = &warp_order_gto};
    o->replay = 1;
    o->replay_seed = 1;
}

/* The reuse streams split off to a second metrics instance on its own
 * thread: sector granularity (up to 4 keys a request) in the two big scopes. */
#define SPLIT_REUSE (METRICS_REUSE_BIT(GRAN_SECTOR, SCOPE_GLOBAL) | \
                     METRICS_REUSE_BIT(GRAN_SECTOR, SCOPE_PER_SM))

typedef struct pass {
    analysis *a;
    metrics *split; /* runs SPLIT_REUSE; joined into a->metrics at the end */
    metrics_sink sinks[2];
    tagcache **window; /* per SM, with locality_window: the generations' cache */
    locality *locality;
    uint32_t line_shift, line_bytes;
    uint32_t sharing_block; /* bytes (docs/metrics.md §5): the line, or a sector or word */
    analysis_kernel *kernel;
    size_t locality_capacity[KERNEL_SLOTS]; /* of a->kernels[i].locality, owned by a */
    uint64_t issued; /* the access map's clock */
} pass;

static int counted(const pass *p, const replay_issue *is)
{
    return is->space == WST_GLOBAL && (is->kind == WST_LOAD || p->a->options.include_stores);
}

/* The L1 side of one request: locality generations and the LRU counts,
 * from the stream's reference L1 (the same L1 gives GTO its misses). */
static int l1_request(pass *p, const replay_issue *is, uint64_t line, const replay_ref *ref,
                      int is_counted, ws_error *err)
{
    if (ref->outcome == L1_WRITE_EVICT) {
        if (ref->evicted)
            locality_evict(p->locality, is->sm, line);
        return 0;
    }
    if (ref->outcome == L1_WRITE_ALLOCATE)
        is_counted = 0; /* stores are not L1 hits or misses; the lines they fill and evict are */
    if (ref->outcome == L1_BYPASS) { /* a miss that never looked L1 up, as in the replay */
        p->kernel->l1_misses += (uint64_t)is_counted;
        p->kernel->l1_bypasses += (uint64_t)is_counted;
        return 0;
    }
    tagcache_result hit = {.hit = ref->hit, .evicted = ref->evicted, .victim_line = ref->victim_line};
    if (is_counted)
        *(hit.hit ? &p->kernel->l1_hits : &p->kernel->l1_misses) += 1;
    if (p->window) /* the cache-independent window decides generations */
        hit = tagcache_access(p->window[is->sm], line, 1, is->warp);
    else if (ref->present && !ref->hit)
        return 0; /* a sector miss: the line's generation goes on (as the replay's) */
    if (hit.hit) {
        if (is_counted)
            locality_hit(p->locality, is->sm, line, is->warp);
        return 0;
    }
    if (hit.evicted)
        locality_evict(p->locality, is->sm, hit.victim_line);
    /* S2's single monitored warp: the one in slot 0 of each SM. */
    return is_counted ? locality_fill(p->locality, is->sm, line, is->warp, is->pc,
                                      is->warp_slot == 0, err)
                      : 0;
}

/* Consumer 1: U, Req and reuse distance (metrics.c), the heaviest. */
static int metrics_on_instruction(void *ctx, const replay_issue *is, const ws_request *rq,
                                  const replay_ref *refs, int n, ws_error *err)
{
    (void)refs;
    metrics_sink *sink = ctx;
    coalesce_summary summary = coalesce_summarize(rq, (unsigned)n, sink->line_bytes);
    metrics_issue mi = {.kind = is->kind, .space = is->space, .pc = is->pc, .cta = is->cta,
                        .warp = is->cta_warp, .sm = is->sm, .warp_slot = is->warp_slot};
    return metrics_instruction(sink->m, &mi, rq, &summary, err);
}

static int metrics_on_kernel_begin(void *ctx, uint32_t k, uint32_t pcs, ws_error *err)
{
    (void)k;
    return metrics_kernel_begin(((metrics_sink *)ctx)->m, pcs, err);
}

static int metrics_on_kernel_end(void *ctx, ws_error *err)
{
    return metrics_kernel_end(((metrics_sink *)ctx)->m, err);
}

replay_consumer metrics_sink_consumer(metrics_sink *sink)
{
    return (replay_consumer){.ctx = sink, .kernel_begin = metrics_on_kernel_begin,
                             .instruction = metrics_on_instruction,
                             .kernel_end = metrics_on_kernel_end};
}

/* docs/metrics.md §5 sharing of one request: its line, or, at a finer granularity,
 * each sector or word of the line that a lane asked for a byte of. */
static int sharing_request(pass *p, const replay_issue *is, const ws_request *rq, ws_error *err)
{
    uint32_t block = p->sharing_block;
    if (block >= p->line_bytes)
        return sharing_touch(p->a->sharing, rq->line_addr, is->sm, is->cta, err);
    /* block < line <= 128 B: each block lies within one mask word. */
    uint64_t bits = block == 64 ? ~UINT64_C(0) : (UINT64_C(1) << block) - 1;
    for (uint32_t offset = 0; offset < p->line_bytes; offset += block)
        if ((rq->byte_mask[offset / 64] >> (offset % 64) & bits) &&
            sharing_touch(p->a->sharing, rq->line_addr + offset, is->sm, is->cta, err) != 0)
            return -1;
    return 0;
}

/* Consumer 2: sharing, the access map, the LRU L1 and its generations. */
static int on_instruction(void *ctx, const replay_issue *is, const ws_request *rq,
                          const replay_ref *refs, int n, ws_error *err)
{
    pass *p = ctx;
    int is_counted = counted(p, is);
    p->issued++;
    for (int i = 0; is_counted && n > 1 && i < n; i++)
        sharing_prefetch(p->a->sharing, rq[i].line_addr);
    for (int i = 0; i < n; i++) {
        if (is_counted && (sharing_request(p, is, &rq[i], err) != 0 ||
                           access_map_touch(p->a->access_map, p->issued, rq[i].line_addr, err) != 0))
            return -1;
        if (l1_request(p, is, rq[i].line_addr >> p->line_shift, &refs[i], is_counted, err) != 0)
            return -1;
    }
    return 0;
}

static int on_kernel_begin(void *ctx, uint32_t k, uint32_t pcs, ws_error *err)
{
    pass *p = ctx;
    analysis *a = p->a;
    p->kernel = &a->kernels[k % KERNEL_SLOTS];
    *p->kernel = (analysis_kernel){.locality = p->kernel->locality};
    a->kernel_index[k % KERNEL_SLOTS] = k;
    for (uint32_t s = 0; p->window && s < a->config.sms; s++)
        tagcache_flush(p->window[s]); /* L1s are flushed between kernels (docs/metrics.md §7) */
    return locality_begin_kernel(p->locality, pcs, err);
}

static int on_kernel_end(void *ctx, ws_error *err)
{
    pass *p = ctx;
    analysis *a = p->a;
    locality_end_kernel(p->locality);
    uint32_t n;
    const locality_pc *pcs = locality_pcs(p->locality, &n);
    size_t slot = (size_t)(p->kernel - a->kernels);
    if (ws_grow((void **)&p->kernel->locality, &p->locality_capacity[slot], n + 1, sizeof *pcs) != 0)
        return ws_fail(err, "out of memory");
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
    return 0;
}

/* Every part of the pass has ended the kernel (replay_options.kernel_done):
 * the split reuse joins it, the trace's sums take it, the caller reports it. */
static int kernel_done(void *ctx, uint32_t kernel, ws_error *err)
{
    pass *p = ctx;
    analysis *a = p->a;
    if (a->options.metrics_where == METRICS_ELSEWHERE
            ? a->options.kernel_metrics(a->options.kernel_metrics_ctx, a->metrics, kernel, err) != 0
            : metrics_adopt_kernel_reuse(a->metrics, p->split, kernel, SPLIT_REUSE, err) != 0)
        return -1;
    const analysis_kernel *k = &a->kernels[kernel % KERNEL_SLOTS];
    a->kernel_count++;
    a->l1_hits += k->l1_hits;
    a->l1_misses += k->l1_misses;
    a->l1_bypasses += k->l1_bypasses;
    locality_totals_add(&a->locality, k->locality, k->pc_count);
    return a->options.kernel_done ? a->options.kernel_done(a->options.kernel_done_ctx, a, kernel, err)
                                  : 0;
}

const analysis_kernel *analysis_kernel_at(const analysis *a, uint32_t k)
{
    return a->kernel_index[k % KERNEL_SLOTS] == k
               ? &a->kernels[k % KERNEL_SLOTS]
               : NULL;
}

uint32_t analysis_sharing_block(const analysis_options *options, const gpu_config *config)
{
    return options->sharing_block ? options->sharing_block : config->l1.line_bytes;
}

void analysis_free(analysis *a)
{
    if (!a)
        return;
    metrics_free(a->metrics);
    for (int i = 0; i < KERNEL_SLOTS; i++)
        free(a->kernels[i].locality);
    sharing_free(a->sharing);
    access_map_free(a->access_map);
    hierarchy_free(a->replay);
    memory_workload_free(a->memory);
    free(a);
}

static tagcache **tagcaches(uint32_t n, const cache_config *geometry, ws_error *err)
{
    tagcache **t = calloc(n, sizeof *t);
    if (!t)
        return ws_fail(err, "out of memory"), NULL;
    for (uint32_t i = 0; i < n; i++)
        if (!(t[i] = tagcache_new(geometry, err))) {
            for (uint32_t j = 0; j < i; j++)
                tagcache_free(t[j]);
            free(t);
            return NULL;
        }
    return t;
}

static void tagcaches_free(tagcache **t, uint32_t n)
{
    for (uint32_t i = 0; t && i < n; i++)
        tagcache_free(t[i]);
    free(t);
}

/* The replay of the config's policies, unless one needs a backward pass,
 * with its memory workload collected. */
static int start_replay(analysis *a, const wst_trace *t, ws_error *err)
{
    hierarchy_options ho = {.config = a->config, .seed = a->options.replay_seed,
                            .l2_cold = a->options.l2_cold};
    ws_error ignored;
    if (!a->options.replay || hierarchy_resolve_policies(&ho, &ignored) != 0 ||
        ho.l1_spec.replacement->needs_next_use || ho.l2_spec.replacement->needs_next_use ||
        ho.l1_spec.admission || ho.l2_spec.admission) /* a backward pass or a table: not here */
        return 0;
    if (!(a->memory = memory_workload_new(t->kernel_count, a->config.l2.slices, err)))
        return -1;
    ho.observers[ho.observer_count++] = memory_workload_observer(a->memory);
    return (a->replay = hierarchy_new(&ho, t->kernel_count, err)) ? 0 : -1;
}

/* The pass's consumers, in the order the stream feeds them. */
enum { CONSUMER_METRICS, CONSUMER_SECTOR_REUSE, CONSUMER_SHARING, CONSUMER_REPLAY, CONSUMERS };

static int run_pass(pass *p, const sched_source *source, progress *bar, ws_error *err)
{
    analysis *a = p->a;
    /* One thread per consumer: the operating system balances them over the
     * cores (the two metrics halves are the heavy ones). */
    replay_consumer all[CONSUMERS] = {
        [CONSUMER_METRICS] = metrics_sink_consumer(&p->sinks[0]),
        [CONSUMER_SECTOR_REUSE] = metrics_sink_consumer(&p->sinks[1]),
        [CONSUMER_SHARING] = {.ctx = p, .kernel_begin = on_kernel_begin,
                              .instruction = on_instruction, .kernel_end = on_kernel_end}};
    if (a->replay)
        all[CONSUMER_REPLAY] = hierarchy_consumer(a->replay);
    /* The consumers this pass runs (options.metrics_where), and which each is. */
    replay_consumer consumers[CONSUMERS];
    uint32_t role[CONSUMERS], count = 0;
    for (uint32_t c = 0; c < CONSUMERS; c++) {
        int metrics_part = c == CONSUMER_METRICS || c == CONSUMER_SECTOR_REUSE;
        if ((c == CONSUMER_REPLAY && !a->replay) ||
            (metrics_part && a->options.metrics_where == METRICS_ELSEWHERE) ||
            (!metrics_part && a->options.metrics_where == METRICS_ONLY))
            continue;
        role[count] = c;
        consumers[count++] = all[c];
    }
    p->sinks[0] = (metrics_sink){.m = a->metrics, .line_bytes = p->line_bytes};
    p->sinks[1] = (metrics_sink){.m = p->split, .line_bytes = p->line_bytes};
    replay_options ro;
    replay_options_default(&ro);
    ro.schedule = a->options.schedule;
    ro.half_warp = a->options.half_warp;
    ro.threads = a->options.threads ? a->options.threads : count;
    ro.observe_event = a->options.observe;
    ro.observe_event_ctx = a->options.observe_ctx;
    ro.kernel_done = kernel_done;
    ro.kernel_done_ctx = p;
    double consumer_cpu[CONSUMERS] = {0}, cpu[CONSUMERS] = {0};
    if (a->options.measure_cpu)
        ro.consumer_cpu_seconds = consumer_cpu;
    replay_stream_stats stats;
    if (replay_stream_run(source, &a->config, &ro, consumers, count, bar, &stats, err) != 0)
        return -1;
    a->issued = stats.issued;
    a->peak_resident_ctas = stats.peak_resident_ctas;
    for (uint32_t i = 0; i < count; i++)
        cpu[role[i]] = consumer_cpu[i];
    if (a->options.measure_cpu)
        a->cpu = (analysis_cpu){.schedule = stats.decode_cpu_seconds,
                                .metrics = cpu[CONSUMER_METRICS],
                                .sector_reuse = cpu[CONSUMER_SECTOR_REUSE],
                                .sharing = cpu[CONSUMER_SHARING],
                                .replay = cpu[CONSUMER_REPLAY]};
    /* Elsewhere, each kernel came whole (kernel_done): nothing to join. */
    if (a->options.metrics_where != METRICS_ELSEWHERE &&
        metrics_adopt_reuse(a->metrics, p->split, SPLIT_REUSE, err) != 0)
        return -1;
    return a->replay ? hierarchy_finish(a->replay, err) : 0;
}

analysis *analysis_run(wst_reader *r, const gpu_config *config, const analysis_options *options,
                       progress *bar, ws_error *err)
{
    const wst_trace *t = wst_reader_trace(r);
    analysis *a = calloc(1, sizeof *a);
    pass p = {.a = a};
    if (!a) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    a->config = *config;
    a->options = *options;
    memset(a->kernel_index, 0xff, sizeof a->kernel_index); /* no kernel yet */
    p.line_bytes = config->l1.line_bytes;
    p.line_shift = (uint32_t)__builtin_ctz(config->l1.line_bytes);
    coalesce_config cc = {.line_bytes = config->l1.line_bytes, .half_warp = options->half_warp};
    metrics_options mo = {.coalesce = cc,
                          .sm_count = config->sms,
                          .warp_slots_per_sm = config->max_warps_per_sm,
                          .exact_distances = 2 * cache_config_lines(&config->l1),
                          .include_stores = options->include_stores,
                          .sample_rate = options->sample_rate,
                          .global_per_kernel = options->l2_cold};
    uint32_t block = p.sharing_block = analysis_sharing_block(options, config);
    sched_source source = sched_source_wst(r);
    cache_config fully = {.size_bytes = (uint64_t)options->locality_window * config->l1.line_bytes,
                          .ways = options->locality_window, .line_bytes = config->l1.line_bytes,
                          .slices = 1};
    int rc = -1;
    metrics_options split = mo;
    mo.reuse_mask = METRICS_REUSE_ALL & ~SPLIT_REUSE;
    split.reuse_mask = SPLIT_REUSE;
    split.reuse_only = 1;
    if ((a->metrics = metrics_new(&mo, err)) && (p.split = metrics_new(&split, err)) &&
        (a->sharing = sharing_new(config->sms, block, err)) &&
        (a->access_map = access_map_new(err)) && (p.locality = locality_new(config->sms, err)) &&
        (!options->locality_window || (p.window = tagcaches(config->sms, &fully, err))) &&
        start_replay(a, t, err) == 0)
        rc = run_pass(&p, &source, bar, err);
    metrics_free(p.split);
    tagcaches_free(p.window, config->sms);
    locality_free(p.locality);
    if (rc != 0) {
        analysis_free(a);
        return NULL;
    }
    return a;
}
