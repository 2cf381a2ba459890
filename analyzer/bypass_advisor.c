/* analyzer/bypass_advisor.c: see bypass_advisor.h. */
#include "analyzer/bypass_advisor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/bypass_pcs.h"
#include "analyzer/l1_rules.h"
#include "formats/trace.h"
#include "util/u64map.h"

uint64_t bypass_traffic(const replay_counts *c)
{
    const traffic_counts *t = &c->traffic;
    return t->l1_to_l2_read_bytes + t->l1_to_l2_write_bytes + t->dram_read_bytes +
           t->dram_write_bytes;
}

double bypass_share(const bypass_pc_hint *h)
{
    return h->accesses ? (double)h->worthy / (double)h->accesses : 0.0;
}

/* ---- PCs across launches ---- */

typedef struct advisor {
    bypass_advice *out;
    const wst_trace *trace;
    uint32_t **group_of; /* [kernel][pc] -> hint index, UINT32_MAX if not a global load yet */
    u64map by_key;       /* (kernel name, offset) -> hint index */
    uint32_t capacity;
    uint32_t line_shift;
} advisor;

static uint64_t pc_key(const char *name, uint64_t offset)
{
    uint64_t h = 0xcbf29ce484222325ULL; /* FNV-1a over the name, then the offset */
    for (const char *p = name ? name : ""; *p; p++)
        h = (h ^ (uint8_t)*p) * 0x100000001b3ULL;
    return (h ^ offset) * 0x9e3779b97f4a7c15ULL;
}

static int build_groups(advisor *ad, ws_error *err)
{
    const wst_trace *t = ad->trace;
    if (!(ad->group_of = calloc(t->kernel_count + 1, sizeof *ad->group_of)) ||
        u64map_init(&ad->by_key, 64) != 0)
        return ws_fail(err, "out of memory");
    for (uint32_t k = 0; k < t->kernel_count; k++) {
        uint32_t n = t->kernels[k].pc_count;
        if (!(ad->group_of[k] = malloc((n ? n : 1) * sizeof **ad->group_of)))
            return ws_fail(err, "out of memory");
        for (uint32_t i = 0; i < n; i++)
            ad->group_of[k][i] = UINT32_MAX;
    }
    return 0;
}

/* The hint of (kernel, pc), created on the first global load seen. */
static bypass_pc_hint *hint_for(advisor *ad, uint32_t kernel, uint32_t pc, ws_error *err)
{
    uint32_t *g = &ad->group_of[kernel][pc];
    if (*g != UINT32_MAX)
        return &ad->out->pcs[*g];
    const wst_kernel *k = &ad->trace->kernels[kernel];
    int inserted;
    uint32_t *slot = u64map_upsert(&ad->by_key, pc_key(k->name, k->pcs[pc].offset),
                                   ad->out->pc_count, &inserted);
    if (!slot)
        return ws_fail(err, "out of memory"), NULL;
    if (inserted) {
        if (ad->out->pc_count == ad->capacity) {
            uint32_t cap = ad->capacity ? 2 * ad->capacity : 64;
            bypass_pc_hint *grown = realloc(ad->out->pcs, cap * sizeof *grown);
            if (!grown)
                return ws_fail(err, "out of memory"), NULL;
            ad->out->pcs = grown;
            ad->capacity = cap;
        }
        ad->out->pcs[ad->out->pc_count++] = (bypass_pc_hint){.kernel = kernel, .pc = pc};
    }
    *g = *slot;
    return &ad->out->pcs[*slot];
}

/* ---- pass 1: the table ---- */

static int is_global_load(const replay_issue *is)
{
    return is->kind == WST_LOAD && is->space == WST_GLOBAL;
}

static int profile_requests(void *ctx, const replay_issue *is, const ws_request *rq, int n,
                            ws_error *err)
{
    advisor *ad = ctx;
    if (!is_global_load(is) || n == 0 || l1_excluded(is->cache_op)) /* cg, cv: L1 never sees them */
        return 0;
    bypass_pc_hint *h = hint_for(ad, is->kernel, is->pc, err);
    if (!h)
        return -1;
    h->accesses += (uint64_t)n;
    load_evidence_instruction(&h->evidence, rq, n);
    for (int i = 0; i < n; i++)
        if (bypass_table_request(ad->out->table, rq[i].line_addr >> ad->line_shift, rq[i].bytes_used,
                                 rq[i].sector_mask, err) != 0)
            return -1;
    return 0;
}

/* R(A) of Eq. 1: the baseline's L1 hits per fill of each line, heard as an
 * L1 collector of global-load hits and fills. */
static int profile_hit(void *ctx, const replay_issue *is, uint64_t line, uint32_t owner,
                       ws_error *err)
{
    (void)owner;
    advisor *ad = ctx;
    return is_global_load(is) ? bypass_table_hit(ad->out->table, line, err) : 0;
}

static int profile_fill(void *ctx, const replay_issue *is, uint64_t line, ws_error *err)
{
    advisor *ad = ctx;
    return is_global_load(is) ? bypass_table_fill(ad->out->table, line, err) : 0;
}

/* The evidence's groups are the hints (analyzer/load_evidence.h): made by
 * profile_requests, which sees each instruction before the hierarchy. */
static uint32_t evidence_group(void *ctx, const replay_issue *is)
{
    advisor *ad = ctx;
    return is_global_load(is) ? ad->group_of[is->kernel][is->pc] : UINT32_MAX;
}

static load_evidence *evidence_at(void *ctx, uint32_t group)
{
    advisor *ad = ctx;
    return &ad->out->pcs[group].evidence;
}

/* ---- pass 2: shares ---- */

static int count_worthy(void *ctx, const replay_issue *is, const ws_request *rq, int n,
                        ws_error *err)
{
    (void)err;
    advisor *ad = ctx;
    if (!is_global_load(is) || n == 0 || ad->group_of[is->kernel][is->pc] == UINT32_MAX)
        return 0;
    bypass_pc_hint *h = &ad->out->pcs[ad->group_of[is->kernel][is->pc]];
    for (int i = 0; i < n; i++)
        h->worthy += (uint64_t)bypass_table_verdict(ad->out->table, rq[i].line_addr >> ad->line_shift);
    return 0;
}

/* ---- bypass-pc parameters ---- */

typedef struct pc_marks {
    bypass_pcs set;
    uint8_t **flags;
    uint32_t *counts;
} pc_marks;

static int marks_init(pc_marks *m, const advisor *ad, ws_error *err)
{
    const wst_trace *t = ad->trace;
    memset(m, 0, sizeof *m);
    if (!(m->flags = calloc(t->kernel_count + 1, sizeof *m->flags)) ||
        !(m->counts = calloc(t->kernel_count + 1, sizeof *m->counts)))
        return ws_fail(err, "out of memory");
    for (uint32_t k = 0; k < t->kernel_count; k++) {
        m->counts[k] = t->kernels[k].pc_count;
        if (!(m->flags[k] = calloc(m->counts[k] + 1, 1)))
            return ws_fail(err, "out of memory");
    }
    m->set = (bypass_pcs){.kernels = t->kernel_count, .pc_counts = m->counts, .flags = m->flags};
    return 0;
}

/* Marks every (kernel, pc) of hint `g` (all launches). */
static void marks_add(pc_marks *m, const advisor *ad, uint32_t g)
{
    for (uint32_t k = 0; k < ad->trace->kernel_count; k++)
        for (uint32_t i = 0; i < m->counts[k]; i++)
            if (ad->group_of[k][i] == g)
                m->flags[k][i] = 1;
}

static void marks_free(pc_marks *m, uint32_t kernels)
{
    for (uint32_t k = 0; m->flags && k < kernels; k++)
        free(m->flags[k]);
    free(m->flags);
    free(m->counts);
}

/* ---- the passes ---- */

/* The baseline's L1 replacement (resolved) with an admission module and its
 * table: `bypass-table` on LRU, `srrip+bypass-table` on SRRIP. */
static hierarchy_options with_admission(const hierarchy_options *base, const char *name,
                                        const void *param)
{
    hierarchy_options o = *base;
    const policy_ops *replacement = base->l1_spec.replacement;
    if (replacement == policy_find("lru"))
        snprintf(o.config.l1.policy, sizeof o.config.l1.policy, "%s", name);
    else
        snprintf(o.config.l1.policy, sizeof o.config.l1.policy, "%s+%s", replacement->name, name);
    o.l1_spec = (policy_spec){.replacement = replacement, .admission = admission_find(name)};
    o.l1_param = param;
    o.observer_count = 0;
    return o;
}

/* ---- the advice (analyzer/advice.h) ---- */

/* Where an item is changed, for grouping: its source line, else its PC;
 * the CTA dispatch is a place of its own. */
static const char *advice_place(void *ctx, const advice_item *item, char *buf, size_t cap)
{
    const advisor *ad = ctx;
    if (item->pc == UINT32_MAX)
        return "\x01cta";
    const bypass_pc_hint *h = &ad->out->pcs[item->pc];
    const wst_kernel *k = &ad->trace->kernels[h->kernel];
    const wst_pc *pc = &k->pcs[h->pc];
    if (pc->file && pc->line)
        snprintf(buf, cap, "%s:%u", pc->file, pc->line);
    else
        snprintf(buf, cap, "%s+%llx", k->name ? k->name : "", (unsigned long long)pc->offset);
    return buf;
}

static advice_item ldcg_item(const bypass_pc_hint *h, uint32_t index)
{
    const load_evidence *e = &h->evidence;
    advice_item it = {.kind = ADVICE_LDCG, .pc = index, .checked = 1,
                      .saved_bytes = (uint64_t)(-h->traffic_change)};
    double dead = e->fills ? (double)e->dead_fills / (double)e->fills : 0.0;
    if (e->evicted_reused && dead >= ADVICE_STREAMING_DEAD_SHARE)
        it.finding = FINDING_STREAMING, it.share = dead, it.count = e->evicted_reused;
    else if (h->worthy)
        it.finding = FINDING_BYPASS_WORTHY, it.share = bypass_share(h), it.count = h->worthy;
    else
        it.finding = FINDING_REPLAY;
    return it;
}

/* Coalescing changes the addresses, so no replay checks it: the estimate
 * is the PC's bytes below L1 shrunk by its excess share (docs/metrics.md §9). */
static int coalesce_item(const bypass_pc_hint *h, uint32_t index, advice_item *it)
{
    const load_evidence *e = &h->evidence;
    if (!e->sectors || e->sectors <= e->ideal_sectors)
        return 0;
    uint64_t excess = e->sectors - e->ideal_sectors;
    double share = (double)excess / (double)e->sectors;
    uint64_t saved = (uint64_t)((double)e->below_l1_bytes * share);
    if (share < ADVICE_UNCOALESCED_SHARE || saved == 0)
        return 0;
    *it = (advice_item){.kind = ADVICE_COALESCE, .finding = FINDING_UNCOALESCED, .pc = index,
                        .saved_bytes = saved, .share = share, .count = excess};
    return 1;
}

static int build_advice(advisor *ad, ws_error *err)
{
    bypass_advice *a = ad->out;
    if (!(a->advice = calloc(2 * (size_t)a->pc_count + 2, sizeof *a->advice)))
        return ws_fail(err, "out of memory");
    for (uint32_t i = 0; i < a->pc_count; i++) {
        if (a->pcs[i].recommend)
            a->advice[a->advice_count++] = ldcg_item(&a->pcs[i], i);
        if (coalesce_item(&a->pcs[i], i, &a->advice[a->advice_count]))
            a->advice_count++;
    }
    uint64_t before = bypass_traffic(&a->baseline), after = bypass_traffic(&a->with_schedule);
    if (a->schedule != CTA_RR && after < before)
        a->advice[a->advice_count++] =
            (advice_item){.kind = ADVICE_CTA_SCHEDULE, .finding = FINDING_SHARING, .pc = UINT32_MAX,
                          .saved_bytes = before - after, .checked = 1, .schedule = a->schedule};
    advice_rank(a->advice, a->advice_count, advice_place, ad);
    return 0;
}

/* S0's sharing-aware dispatches, each replayed in place of the baseline's
 * rr (a dispatch is a stream of its own): the one that saves most. */
static int try_schedules(const sched_source *src, const gpu_config *config,
                         const replay_options *replay, const hierarchy_options *base,
                         bypass_advice *out, int quiet, ws_error *err);

static int by_accesses(const void *a, const void *b, void *ctx)
{
    const bypass_pc_hint *pcs = ctx;
    uint64_t x = pcs[*(const uint32_t *)a].accesses, y = pcs[*(const uint32_t *)b].accesses;
    return (x < y) - (x > y);
}

static int run(const sched_source *src, const gpu_config *config, const replay_options *ro,
               hierarchy_options *o, uint32_t count, hierarchy **h, const char *label, int quiet,
               ws_error *err)
{
    uint64_t records = 0;
    for (uint32_t k = 0; k < src->trace->kernel_count; k++)
        records += src->trace->kernels[k].record_count;
    progress *bar = progress_new(label, records, quiet);
    int rc = replay_run(src, config, ro, o, count, h, bar, err);
    progress_free(bar);
    return rc;
}

bypass_advice *bypass_advise(const sched_source *src, const replay_options *replay,
                             const hierarchy_options *base, uint32_t max_trials,
                             bypass_u_kind utilization, int quiet, ws_error *err)
{
    const gpu_config *config = &base->config;
    bypass_advice *out = calloc(1, sizeof *out);
    advisor ad = {.out = out, .trace = src->trace,
                  .line_shift = (uint32_t)__builtin_ctz(config->l1.line_bytes)};
    uint32_t kernels = src->trace->kernel_count;
    uint32_t trials = 0, *order = NULL;
    pc_marks *marks = NULL, all = {0};
    load_evidence_collector *evidence = NULL;
    hierarchy *h[1 + BYPASS_MAX_TRIALS] = {0}; /* the table's run, then one per trial */
    hierarchy_options o[1 + BYPASS_MAX_TRIALS];
    int ok = 0;
    hierarchy_options resolved = *base;
    if (!out || hierarchy_resolve_policies(&resolved, err) != 0 ||
        !(out->table = bypass_table_new(config->l1.line_bytes, utilization, err)) ||
        build_groups(&ad, err) != 0)
        goto done;
    resolved.collect = COLLECT_TOTALS; /* the advice reads totals only */
    base = &resolved;
    out->utilization = utilization;
    snprintf(out->l1_policy, sizeof out->l1_policy, "%s", config->l1.policy);
    if (max_trials > BYPASS_MAX_TRIALS)
        max_trials = BYPASS_MAX_TRIALS;

    /* 1. Baseline: the table. */
    replay_options ro = *replay;
    ro.observe = profile_requests;
    ro.observe_ctx = &ad;
    o[0] = *base;
    o[0].observers[o[0].observer_count++] =
        (l1_observer){.ctx = &ad, .hit = profile_hit, .fill = profile_fill};
    if (!(evidence = load_evidence_new((load_evidence_groups){.ctx = &ad, .group = evidence_group,
                                                              .at = evidence_at},
                                       err)))
        goto done;
    o[0].observers[o[0].observer_count++] = load_evidence_observer(evidence);
    if (run(src, config, &ro, o, 1, h, "bypass 1/3", quiet, err) != 0)
        goto done;
    out->baseline = hierarchy_results(h[0])->total;
    hierarchy_free(h[0]);
    h[0] = NULL;

    /* 2. The table applied, and each candidate PC alone. */
    if (!(order = malloc((out->pc_count + 1) * sizeof *order)) ||
        !(marks = calloc(max_trials + 1, sizeof *marks)))
        goto oom;
    for (uint32_t i = 0; i < out->pc_count; i++)
        order[i] = i;
    qsort_r(order, out->pc_count, sizeof *order, by_accesses, out->pcs);
    trials = out->pc_count < max_trials ? out->pc_count : max_trials;
    o[0] = with_admission(base, "bypass-table", out->table);
    for (uint32_t i = 0; i < trials; i++) {
        if (marks_init(&marks[i], &ad, err) != 0)
            goto done;
        marks_add(&marks[i], &ad, order[i]);
        o[1 + i] = with_admission(base, "bypass-pc", &marks[i].set);
    }
    ro.observe = count_worthy;
    if (run(src, config, &ro, o, 1 + trials, h, "bypass 2/3", quiet, err) != 0)
        goto done;
    out->with_table = hierarchy_results(h[0])->total;
    uint64_t before = bypass_traffic(&out->baseline);
    if (marks_init(&all, &ad, err) != 0)
        goto done;
    for (uint32_t i = 0; i < trials; i++) {
        bypass_pc_hint *hint = &out->pcs[order[i]];
        hint->tested = 1;
        hint->traffic_change =
            (int64_t)bypass_traffic(&hierarchy_results(h[1 + i])->total) - (int64_t)before;
        hint->recommend = hint->traffic_change < 0;
        if (hint->recommend) {
            out->recommended++;
            marks_add(&all, &ad, order[i]);
        }
    }
    for (uint32_t i = 0; i < 1 + trials; i++) {
        hierarchy_free(h[i]);
        h[i] = NULL;
    }

    /* 3. Every recommended PC together. */
    out->with_pcs = out->baseline;
    if (out->recommended) {
        o[0] = with_admission(base, "bypass-pc", &all.set);
        if (run(src, config, replay, o, 1, h, "bypass 3/3", quiet, err) != 0)
            goto done;
        out->with_pcs = hierarchy_results(h[0])->total;
    }
    if (try_schedules(src, config, replay, base, out, quiet, err) != 0 ||
        build_advice(&ad, err) != 0)
        goto done;
    out->recommended_pcs = all.set; /* kept for `compare`'s bypass-pc */
    all.flags = NULL;
    all.counts = NULL;
    ok = 1;
    goto done;
oom:
    ws_fail(err, "out of memory");
done:
    for (uint32_t i = 0; i < 1 + BYPASS_MAX_TRIALS; i++)
        hierarchy_free(h[i]);
    for (uint32_t i = 0; marks && i < trials; i++)
        marks_free(&marks[i], kernels);
    free(marks);
    marks_free(&all, kernels);
    load_evidence_free(evidence);
    free(order);
    for (uint32_t k = 0; ad.group_of && k < kernels; k++)
        free(ad.group_of[k]);
    free(ad.group_of);
    u64map_destroy(&ad.by_key);
    if (!ok) {
        bypass_advice_free(out);
        return NULL;
    }
    return out;
}

void bypass_advice_free(bypass_advice *a)
{
    if (!a)
        return;
    bypass_table_free(a->table);
    free(a->pcs);
    free(a->advice);
    for (uint32_t k = 0; a->recommended_pcs.flags && k < a->recommended_pcs.kernels; k++)
        free(a->recommended_pcs.flags[k]);
    free((void *)a->recommended_pcs.flags);
    free((void *)a->recommended_pcs.pc_counts);
    free(a);
}

static int try_schedules(const sched_source *src, const gpu_config *config,
                         const replay_options *replay, const hierarchy_options *base,
                         bypass_advice *out, int quiet, ws_error *err)
{
    static const cta_policy tried[] = {CTA_BCS, CTA_QX_ADPT};
    out->schedule = CTA_RR;
    /* Only against rr, in the functional order, with more than one SM. */
    if (replay->schedule.cta != CTA_RR || replay->schedule.timed || base->timed || config->sms < 2)
        return 0;
    uint64_t best = bypass_traffic(&out->baseline);
    for (size_t i = 0; i < sizeof tried / sizeof *tried; i++) {
        replay_options ro = *replay;
        ro.schedule.cta = tried[i];
        hierarchy_options o = *base;
        o.observer_count = 0;
        hierarchy *h = NULL;
        char label[32];
        snprintf(label, sizeof label, "advice: %s", tried[i] == CTA_BCS ? "bcs" : "qx_adpt");
        if (run(src, config, &ro, &o, 1, &h, label, quiet, err) != 0)
            return hierarchy_free(h), -1;
        replay_counts c = hierarchy_results(h)->total;
        hierarchy_free(h);
        if (bypass_traffic(&c) < best) {
            best = bypass_traffic(&c);
            out->schedule = tried[i];
            out->with_schedule = c;
        }
    }
    return 0;
}
