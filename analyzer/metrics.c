/* analyzer/metrics.c: see metrics.h (docs/metrics.md §2, §3). */
#include "analyzer/metrics.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

/* Who holds a per-warp slot: a new owner restarts the slot's stream. */
typedef struct slot_owner {
    uint32_t cta;
    uint32_t warp;
    uint32_t kernel_serial; /* kernel the owner belongs to; 0 = empty */
} slot_owner;

/* Accesses wait here, one list per granularity and scope, and reach their
 * reuse states in batches (reuse_access_each), so the table lookups of many
 * accesses are in flight at once: a lookup is usually a cache miss, and
 * taken one by one those misses dominated the pass.  Each state still sees
 * its own accesses in order, so the results are those of feeding them at
 * once. */
#define PENDING_KEYS 512
_Static_assert(PENDING_KEYS >= COALESCE_MAX_REQUESTS * 4, "one instruction fits a pending list");
typedef struct pending_keys {
    reuse_state *states[PENDING_KEYS];
    uint64_t keys[PENDING_KEYS];
    uint32_t pcs[PENDING_KEYS]; /* the issuing PC of each key */
    uint32_t count;
} pending_keys;

struct metrics {
    metrics_options options;
    reuse_options reuse_opts;
    uint32_t line_shift;
    reuse_state *global[GRANULARITIES];
    reuse_state **per_sm[GRANULARITIES];   /* [sm_count], lazily created */
    pending_keys *pending[GRANULARITIES][SCOPES];
    reuse_state **per_warp[GRANULARITIES]; /* [sm_count × slots], lazily created */
    slot_owner *owners;                    /* [sm_count × slots] */
    uint32_t kernel_serial;
    bypass_table *lines;                   /* per-line U of the current kernel */
    /* Only the last KERNEL_SLOTS kernels are kept (analyzer/kernel_slots.h). */
    metrics_kernel kernels[KERNEL_SLOTS];
    /* The ordinal each slot holds.  Another thread reads a slot while this
     * instance goes on with later kernels: it reads only that slot, never
     * kernel_count. */
    uint32_t slot_kernel[KERNEL_SLOTS];
    uint32_t kernel_count; /* kernels begun */
    metrics_totals summary;
};

const char *reuse_scope_name(reuse_scope scope)
{
    static const char *const names[SCOPES] = {"global", "per_sm", "per_warp"};
    return (unsigned)scope < SCOPES ? names[scope] : "?";
}

const char *reuse_granularity_name(reuse_granularity gran)
{
    static const char *const names[GRANULARITIES] = {"line", "sector"};
    return (unsigned)gran < GRANULARITIES ? names[gran] : "?";
}

static int pair_init(reuse_pair *p, uint64_t exact, ws_error *err)
{
    if (reuse_hist_init(&p->distance, exact, err) != 0)
        return -1;
    return reuse_hist_init(&p->time, exact, err);
}

static void pair_clear(reuse_pair *p)
{
    reuse_hist_clear(&p->distance);
    reuse_hist_clear(&p->time);
}

static int totals_init(metrics_totals *t, uint64_t exact, ws_error *err)
{
    memset(t, 0, sizeof *t);
    for (int g = 0; g < GRANULARITIES; g++)
        for (int s = 0; s < SCOPES; s++)
            if (pair_init(&t->reuse[g][s], exact, err) != 0)
                return -1;
    return 0;
}

static void totals_clear(metrics_totals *t)
{
    for (int g = 0; g < GRANULARITIES; g++)
        for (int s = 0; s < SCOPES; s++)
            pair_clear(&t->reuse[g][s]);
}

static void kernel_clear(metrics_kernel *k)
{
    totals_clear(&k->totals);
    for (uint32_t i = 0; k->pcs && i < k->pc_count; i++)
        pc_reuse_free(&k->pcs[i].reuse);
    free(k->pcs);
}

static void free_states(reuse_state **states, size_t count)
{
    for (size_t i = 0; states && i < count; i++) {
        reuse_state_free(states[i]);
        states[i] = NULL;
    }
}

static size_t slot_count(const metrics *m)
{
    return (size_t)m->options.sm_count * m->options.warp_slots_per_sm;
}

void metrics_free(metrics *m)
{
    if (!m)
        return;
    for (int g = 0; g < GRANULARITIES; g++) {
        reuse_state_free(m->global[g]);
        free_states(m->per_sm[g], m->options.sm_count);
        free_states(m->per_warp[g], slot_count(m));
        free(m->per_sm[g]);
        free(m->per_warp[g]);
        for (int sc = 0; sc < SCOPES; sc++)
            free(m->pending[g][sc]);
    }
    free(m->owners);
    bypass_table_free(m->lines);
    for (int i = 0; i < KERNEL_SLOTS; i++)
        kernel_clear(&m->kernels[i]);
    totals_clear(&m->summary);
    free(m);
}

metrics *metrics_new(const metrics_options *options, ws_error *err)
{
    if (coalesce_config_check(&options->coalesce, err) != 0)
        return NULL;
    if (options->sm_count == 0 || options->warp_slots_per_sm == 0) {
        ws_fail(err, "metrics: need at least one SM and one warp slot");
        return NULL;
    }
    metrics *m = calloc(1, sizeof *m);
    if (!m) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    m->options = *options;
    memset(m->slot_kernel, 0xff, sizeof m->slot_kernel); /* no kernel yet */
    m->reuse_opts.sample_rate = options->sample_rate;
    m->line_shift = (uint32_t)__builtin_ctz(options->coalesce.line_bytes);
    if (totals_init(&m->summary, options->exact_distances, err) != 0)
        goto fail;
    for (int g = 0; g < GRANULARITIES; g++) {
        if (!(m->global[g] = reuse_state_new(&m->reuse_opts, err)))
            goto fail; /* err says why: a bad sample rate, or memory */
        m->per_sm[g] = calloc(options->sm_count, sizeof(reuse_state *));
        m->per_warp[g] = calloc(slot_count(m), sizeof(reuse_state *));
        if (!m->per_sm[g] || !m->per_warp[g])
            goto oom;
        for (int sc = 0; sc < SCOPES; sc++)
            if (!(m->pending[g][sc] = calloc(1, sizeof(pending_keys))))
                goto oom;
    }
    m->owners = calloc(slot_count(m), sizeof *m->owners);
    if (!m->owners)
        goto oom;
    return m;
oom:
    ws_fail(err, "out of memory");
fail:
    metrics_free(m);
    return NULL;
}

/* The kernel being fed (kernel_count > 0). */
static metrics_kernel *current(metrics *m)
{
    return &m->kernels[(m->kernel_count - 1) % KERNEL_SLOTS];
}

static void add_pair(reuse_pair *p, uint64_t distance, uint64_t time)
{
    reuse_hist_add(&p->distance, distance);
    reuse_hist_add(&p->time, time);
}

/* A PC's histograms of scope s: distance at 2s, time at 2s + 1. */
static int add_pc_pair(metrics_pc *pc, int s, uint64_t distance, uint64_t time)
{
    return pc_reuse_add(&pc->reuse, (unsigned)s * 2, distance) |
           pc_reuse_add(&pc->reuse, (unsigned)s * 2 + 1, time);
}

void metrics_pc_reuse(const metrics_pc *pc, reuse_scope scope, reuse_pair *out)
{
    pc_reuse_hist(&pc->reuse, (unsigned)scope * 2, &out->distance);
    pc_reuse_hist(&pc->reuse, (unsigned)scope * 2 + 1, &out->time);
}

/* Adds `count` results of scope s to the current kernel's histograms and,
 * at line granularity, to their PCs' (pcs[i]). */
static int attribute(metrics *m, int g, int s, const uint64_t *distances, const uint64_t *times,
                     const uint32_t *pcs, size_t count, ws_error *err)
{
    metrics_kernel *k = current(m);
    for (size_t i = 0; i < count; i++) {
        if (distances[i] == REUSE_FAILED)
            return ws_fail(err, "out of memory");
        add_pair(&k->totals.reuse[g][s], distances[i], times[i]);
        if (g == GRAN_LINE && add_pc_pair(&k->pcs[pcs[i]], s, distances[i], times[i]) != 0)
            return ws_fail(err, "out of memory");
    }
    return 0;
}

static int flush_pending(metrics *m, int g, int s, ws_error *err)
{
    pending_keys *p = m->pending[g][s];
    if (p->count == 0)
        return 0;
    uint64_t distances[PENDING_KEYS], times[PENDING_KEYS];
    reuse_access_each(p->states, p->keys, p->count, distances, times);
    int rc = attribute(m, g, s, distances, times, p->pcs, p->count, err);
    p->count = 0;
    return rc;
}

static int queue_keys(metrics *m, int g, int s, reuse_state *state, const uint64_t *keys,
                      size_t count, uint32_t pc, ws_error *err)
{
    pending_keys *p = m->pending[g][s];
    if (p->count + count > PENDING_KEYS && flush_pending(m, g, s, err) != 0)
        return -1;
    for (size_t i = 0; i < count; i++) {
        p->states[p->count] = state;
        p->keys[p->count] = keys[i];
        p->pcs[p->count++] = pc;
    }
    return 0;
}

/* Runs every pending access. */
static int flush_all(metrics *m, ws_error *err)
{
    for (int g = 0; g < GRANULARITIES; g++)
        for (int s = 0; s < SCOPES; s++)
            if (flush_pending(m, g, s, err) != 0)
                return -1;
    return 0;
}

int metrics_kernel_begin(metrics *m, uint32_t pc_count, ws_error *err)
{
    /* Normally a no-op: kernel_end ran them. */
    if (m->kernel_count && flush_all(m, err) != 0)
        return -1;
    metrics_kernel *k = &m->kernels[m->kernel_count % KERNEL_SLOTS];
    kernel_clear(k);
    memset(k, 0, sizeof *k);
    m->slot_kernel[m->kernel_count % KERNEL_SLOTS] = m->kernel_count;
    m->kernel_count++;
    if (totals_init(&k->totals, m->options.exact_distances, err) != 0)
        return -1;
    k->pcs = calloc(pc_count ? pc_count : 1, sizeof *k->pcs);
    if (!k->pcs)
        return ws_fail(err, "out of memory");
    k->pc_count = pc_count; /* each PC's reuse starts empty (pc_reuse.h) */
    /* L1 views restart with the kernel; the L2 view carries on unless the
     * L2 is cold at each kernel (see .h).  A new state, not a reset one: a
     * sampled distance depends on when the timeline renumbers, so on the
     * capacity earlier kernels grew, and a kernel must not (docs/analysis.md
     * "Ranks": it is then the same on whichever rank runs it). */
    for (int g = 0; g < GRANULARITIES; g++) {
        free_states(m->per_sm[g], m->options.sm_count);
        free_states(m->per_warp[g], slot_count(m));
        if (m->options.global_per_kernel) {
            reuse_state_free(m->global[g]);
            if (!(m->global[g] = reuse_state_new(&m->reuse_opts, err)))
                return -1;
        }
    }
    m->kernel_serial++;
    bypass_table_free(m->lines);
    m->lines = bypass_table_new(m->options.coalesce.line_bytes, BYPASS_U_SECTOR, err);
    return m->lines ? 0 : -1;
}

static int counts_instruction(const metrics *m, const metrics_issue *issue)
{
    const metrics_issue *r = issue;
    if (r->space != WST_GLOBAL)
        return 0;
    return r->kind == WST_LOAD || m->options.include_stores;
}

static reuse_state *lazy_state(metrics *m, reuse_state **slot, ws_error *err)
{
    if (!*slot)
        *slot = reuse_state_new(&m->reuse_opts, err);
    return *slot;
}

/* The issuing warp's slot (SM × slots + slot), whose per-warp streams
 * restart if a new warp holds it. */
static int claim_warp_slot(metrics *m, const metrics_issue *issue, size_t *slot_out,
                           ws_error *err)
{
    if (issue->warp_slot >= m->options.warp_slots_per_sm)
        return ws_fail(err, "metrics: warp slot %u outside 0..%u", issue->warp_slot,
                       m->options.warp_slots_per_sm - 1);
    size_t slot = (size_t)issue->sm * m->options.warp_slots_per_sm + issue->warp_slot;
    slot_owner *owner = &m->owners[slot];
    const metrics_issue *r = issue;
    if (owner->kernel_serial != m->kernel_serial || owner->cta != r->cta ||
        owner->warp != r->warp) {
        *owner = (slot_owner){.cta = r->cta, .warp = r->warp, .kernel_serial = m->kernel_serial};
        for (int g = 0; g < GRANULARITIES; g++) {
            if (!m->per_warp[g][slot])
                continue;
            /* The old warp's waiting accesses go first. */
            if (flush_pending(m, g, SCOPE_PER_WARP, err) != 0)
                return -1;
            reuse_state_reset(m->per_warp[g][slot]);
        }
    }
    *slot_out = slot;
    return 0;
}

static unsigned u_bin(double u)
{
    unsigned bin = (unsigned)(u * METRICS_U_BINS);
    return bin >= METRICS_U_BINS ? METRICS_U_BINS - 1 : bin;
}

static void counts_add(metrics_counts *c, const coalesce_summary *s)
{
    c->executions++;
    c->requests += s->requests;
    c->bytes_used += s->bytes_used;
    c->sectors += s->sectors;
    if (coalesce_is_coherent(s->requests))
        c->coherent++;
    else
        c->divergent++;
    c->u_hist[u_bin(coalesce_line_utilization(s))]++;
}

int metrics_instruction(metrics *m, const metrics_issue *issue, const ws_request *requests,
                        const coalesce_summary *summary, ws_error *err)
{
    if (m->kernel_count == 0)
        return ws_fail(err, "metrics: instruction before any kernel");
    metrics_kernel *k = current(m);
    const metrics_issue *r = issue;
    if (r->kind == WST_LOAD)
        k->totals.loads++;
    else if (r->kind == WST_STORE)
        k->totals.stores++;
    else
        k->totals.atomics++;
    if (!counts_instruction(m, issue) || summary->requests == 0)
        return 0;
    if (r->pc >= k->pc_count)
        return ws_fail(err, "metrics: PC index %u outside the kernel's %u PCs", r->pc, k->pc_count);
    if (issue->sm >= m->options.sm_count)
        return ws_fail(err, "metrics: SM %u outside 0..%u", issue->sm, m->options.sm_count - 1);

    metrics_pc *pc = &k->pcs[r->pc];
    uint32_t mask = m->options.reuse_mask ? m->options.reuse_mask : METRICS_REUSE_ALL;
    int everything = !m->options.reuse_only;
    if (everything) {
        counts_add(&k->totals.counts, summary);
        counts_add(&pc->counts, summary);
        k->totals.req_hist[summary->requests]++;
    }

    size_t slot = 0;
    if (claim_warp_slot(m, issue, &slot, err) != 0)
        return -1;

    for (unsigned i = 0; everything && summary->requests > 1 && i < summary->requests; i++)
        bypass_table_prefetch(m->lines, requests[i].line_addr >> m->line_shift);
    /* Keys of the instruction, in request (ascending line) order. */
    uint64_t keys[GRANULARITIES][COALESCE_MAX_REQUESTS * 4];
    size_t key_count[GRANULARITIES] = {0, 0};
    for (unsigned i = 0; i < summary->requests; i++) {
        const ws_request *q = &requests[i];
        keys[GRAN_LINE][key_count[GRAN_LINE]++] = q->line_addr >> m->line_shift;
        uint64_t first_sector = q->line_addr / REQUEST_SECTOR_BYTES;
        for (unsigned bits = q->sector_mask; bits; bits &= bits - 1)
            keys[GRAN_SECTOR][key_count[GRAN_SECTOR]++] = first_sector + (unsigned)__builtin_ctz(bits);
        if (everything && bypass_table_request(m->lines, q->line_addr >> m->line_shift,
                                               q->bytes_used, q->sector_mask, err) != 0)
            return -1;
    }
    for (int g = 0; g < GRANULARITIES; g++) {
        for (int sc = 0; sc < SCOPES; sc++) {
            if (!(mask & METRICS_REUSE_BIT(g, sc)))
                continue;
            reuse_state *state = sc == SCOPE_GLOBAL ? m->global[g]
                               : sc == SCOPE_PER_WARP ? lazy_state(m, &m->per_warp[g][slot], err)
                               : lazy_state(m, &m->per_sm[g][issue->sm], err);
            if (!state || queue_keys(m, g, sc, state, keys[g], key_count[g], r->pc, err) != 0)
                return -1;
        }
    }
    return 0;
}

static void counts_merge(metrics_counts *dst, const metrics_counts *src)
{
    dst->executions += src->executions;
    dst->requests += src->requests;
    dst->bytes_used += src->bytes_used;
    dst->sectors += src->sectors;
    dst->coherent += src->coherent;
    dst->divergent += src->divergent;
    for (int b = 0; b < METRICS_U_BINS; b++)
        dst->u_hist[b] += src->u_hist[b];
}

/* The trace's totals take a kernel's (docs/metrics.md §2-3: the summary is
 * the sum of the kernels). */
static int summary_add(metrics_totals *sum, const metrics_totals *t, ws_error *err)
{
    counts_merge(&sum->counts, &t->counts);
    sum->loads += t->loads;
    sum->stores += t->stores;
    sum->atomics += t->atomics;
    for (int r = 0; r <= COALESCE_MAX_REQUESTS; r++)
        sum->req_hist[r] += t->req_hist[r];
    for (int g = 0; g < GRANULARITIES; g++) {
        for (int b = 0; b < METRICS_U_BINS; b++)
            sum->line_u_hist[g][b] += t->line_u_hist[g][b];
        for (int s = 0; s < SCOPES; s++)
            if (reuse_hist_merge(&sum->reuse[g][s].distance, &t->reuse[g][s].distance, err) ||
                reuse_hist_merge(&sum->reuse[g][s].time, &t->reuse[g][s].time, err))
                return -1;
    }
    return 0;
}

int metrics_kernel_end(metrics *m, ws_error *err)
{
    if (m->kernel_count == 0)
        return ws_fail(err, "metrics: kernel end without a kernel");
    if (flush_all(m, err) != 0)
        return -1;
    metrics_totals *t = &current(m)->totals;
    for (uint64_t i = 0; i < bypass_table_count(m->lines); i++) {
        const bypass_line *line;
        bypass_table_line_at(m->lines, i, &line);
        t->line_u_hist[GRAN_LINE][u_bin(bypass_line_utilization_of(m->lines, line,
                                                                   BYPASS_U_RAW_BYTES))]++;
        /* Sector-granularity U of a line: used bytes ÷ bytes of the sectors
         * fetched for it. */
        double sector_u = line->sector_bytes ? (double)line->raw_bytes / line->sector_bytes : 1.0;
        t->line_u_hist[GRAN_SECTOR][u_bin(sector_u)]++;
    }
    return summary_add(&m->summary, t, err);
}

int metrics_kernel_adopt(metrics *m, metrics_kernel *k, ws_error *err)
{
    metrics_kernel *slot = &m->kernels[m->kernel_count % KERNEL_SLOTS];
    kernel_clear(slot);
    *slot = *k;
    *k = (metrics_kernel){0};
    m->slot_kernel[m->kernel_count % KERNEL_SLOTS] = m->kernel_count;
    m->kernel_count++;
    return summary_add(&m->summary, &slot->totals, err);
}

static void swap_pairs(reuse_pair *a, reuse_pair *b)
{
    reuse_pair t = *a;
    *a = *b;
    *b = t;
}

static void adopt(metrics_totals *into, metrics_totals *from, uint32_t mask)
{
    for (int g = 0; g < GRANULARITIES; g++)
        for (int s = 0; s < SCOPES; s++)
            if (mask & METRICS_REUSE_BIT(g, s))
                swap_pairs(&into->reuse[g][s], &from->reuse[g][s]);
}

int metrics_adopt_kernel_reuse(metrics *into, metrics *from, uint32_t kernel, uint32_t mask,
                               ws_error *err)
{
    metrics_kernel *a = (metrics_kernel *)metrics_kernel_at(into, kernel);
    metrics_kernel *b = (metrics_kernel *)metrics_kernel_at(from, kernel);
    if (!a || !b)
        return ws_fail(err, "metrics: kernel %u is not held by both passes", kernel);
    adopt(&a->totals, &b->totals, mask);
    return 0;
}

int metrics_adopt_reuse(metrics *into, metrics *from, uint32_t mask, ws_error *err)
{
    if (into->kernel_count != from->kernel_count)
        return ws_fail(err, "metrics: joining passes over different kernels");
    adopt(&into->summary, &from->summary, mask);
    return 0;
}

uint32_t metrics_kernel_count(const metrics *m) { return m->kernel_count; }

const metrics_kernel *metrics_kernel_at(const metrics *m, uint32_t kernel)
{
    return m->slot_kernel[kernel % KERNEL_SLOTS] == kernel ? &m->kernels[kernel % KERNEL_SLOTS]
                                                           : NULL;
}

const metrics_totals *metrics_summary(const metrics *m) { return &m->summary; }

double metrics_utilization(const metrics_counts *c, uint32_t line_bytes, reuse_granularity gran)
{
    double transferred = gran == GRAN_LINE ? (double)c->requests * line_bytes
                                           : (double)c->sectors * REQUEST_SECTOR_BYTES;
    return transferred > 0 ? (double)c->bytes_used / transferred : 0.0;
}
