/* analyzer/sched.c: see sched.h (docs/metrics.md §6). */
#include "analyzer/sched.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/packed_record.h"
#include "util/grow.h"
#include "util/spare.h"
#include "analyzer/sched_internal.h"

/* ---- options ---- */

/* NAME:N or NAME:N,p of an order that takes parameters; p, when taken,
 * is the next comma-separated part.  0, or -1 with err set (err->msg empty
 * when NAME is no such order). */
static int parse_throttle(char *part, char **save, sched_options *out, ws_error *err)
{
    char *colon = strchr(part, ':');
    *colon = '\0';
    const warp_order_ops *order = warp_order_find(part);
    *colon = ':';
    err->msg[0] = '\0';
    if (!order || !order->parameters)
        return -1;
    char text[64];
    snprintf(text, sizeof text, "%s", part);
    if (order->takes_p) { /* "pcal:6,2": p is the next part */
        const char *next = strtok_r(NULL, ",", save);
        size_t used = strlen(text);
        if (next)
            snprintf(text + used, sizeof text - used, ",%s", next);
    }
    warp_order_spec spec;
    if (warp_order_spec_parse(text, &spec, err) != 0) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        return ws_fail(err, "--schedule: %s", why);
    }
    out->warp = spec.ops;
    out->warp_n = spec.n;
    out->warp_p = spec.p;
    return 0;
}

int sched_options_parse(const char *text, sched_options *out, ws_error *err)
{
    *out = (sched_options){.cta = CTA_RR, .warp = &warp_order_gto};
    char buf[64];
    snprintf(buf, sizeof buf, "%s", text);
    int saw_warp = 0, saw_cta = 0;
    for (char *save = NULL, *part = strtok_r(buf, ",", &save); part;
         part = strtok_r(NULL, ",", &save)) {
        /* CTA,WARP: one of each, or the second would silently win. */
        int is_cta = strcmp(part, "rr") == 0 || strcmp(part, "qx") == 0 ||
                     strcmp(part, "qx_adpt") == 0 || strcmp(part, "bcs") == 0 ||
                     strcmp(part, "recorded") == 0 || (part[0] == 'q' && part[1] >= '1' && part[1] <= '9');
        if (is_cta ? saw_cta++ : saw_warp && (warp_order_find(part) || strchr(part, ':')))
            return ws_fail(err, "--schedule: '%s' is a second %s; give at most one CTA schedule and "
                           "one warp order, like rr,gto", part, is_cta ? "CTA schedule" : "warp order");
        if (strcmp(part, "rr") == 0)
            out->cta = CTA_RR;
        else if (strcmp(part, "qx") == 0)
            out->cta = CTA_QX;
        else if (strcmp(part, "qx_adpt") == 0)
            out->cta = CTA_QX_ADPT;
        else if (strcmp(part, "bcs") == 0)
            out->cta = CTA_BCS;
        else if (part[0] == 'q' && part[1] >= '1' && part[1] <= '9' && strlen(part) < 6) {
            char *end;
            out->group = (uint32_t)strtoul(part + 1, &end, 10);
            if (*end)
                return ws_fail(err, "--schedule: '%s' is not qN", part);
            out->cta = CTA_QN;
        } else if (strcmp(part, "recorded") == 0) {
            out->cta = CTA_RECORDED;
            if (!saw_warp)
                out->warp = &warp_order_recorded;
        } else if (warp_order_find(part)) {
            out->warp = warp_order_find(part), saw_warp = 1;
            if (out->warp->parameters)
                return ws_fail(err, "--schedule: '%s' takes parameters: %s", part,
                               out->warp->description);
        } else if (strchr(part, ':') && parse_throttle(part, &save, out, err) == 0) {
            saw_warp = 1;
        } else {
            if (strchr(part, ':') && err->msg[0])
                return -1;
            char orders[256];
            warp_order_names(orders, sizeof orders);
            return ws_fail(err,
                           "--schedule: unknown CTA schedule or warp order '%s' (CTA schedules: "
                           "rr, qN, qx, qx_adpt, bcs, recorded; warp orders: %s)",
                           part, orders);
        }
    }
    if ((out->cta == CTA_RECORDED) != (out->warp->recorded != 0))
        return ws_fail(err, "--schedule: 'recorded' replays the trace's own order for both CTAs "
                       "and warps; use it alone");
    return 0;
}

void sched_options_format(const sched_options *o, char *buf, size_t cap)
{
    static const char *const cta[] = {"rr", "recorded", "q", "qx", "qx_adpt", "bcs"};
    char warp[48];
    warp_order_spec spec = {o->warp, o->warp_n, o->warp_p};
    warp_order_spec_format(&spec, warp, sizeof warp);
    if (o->cta == CTA_RECORDED)
        snprintf(buf, cap, "recorded");
    else if (o->cta == CTA_QN)
        snprintf(buf, cap, "q%u,%s", o->group, warp);
    else
        snprintf(buf, cap, "%s,%s", cta[o->cta], warp);
}

/* ---- sources ---- */

static const uint32_t *wst_ctas(void *ctx, uint32_t kernel, uint32_t *count)
{
    return wst_reader_ctas(ctx, kernel, count);
}

static int wst_load_cta(void *ctx, uint32_t kernel, uint32_t cta, sched_take_fn take,
                        void *take_ctx, ws_error *err)
{
    wst_cursor *c = wst_cursor_cta(ctx, kernel, cta, err);
    if (!c)
        return -1;
    const wst_record *batch = NULL; /* set whenever n > 0; LTO cannot see that */
    int64_t n;
    int rc = 0;
    while (rc == 0 && (n = wst_cursor_next_batch(c, &batch, NULL, err)) != 0)
        rc = n < 0 ? -1 : take(take_ctx, batch, (size_t)n, err);
    wst_cursor_free(c);
    return rc < 0 ? -1 : 0; /* rc 1: the taker has enough */
}

static int wst_pack_cta(void *ctx, uint32_t kernel, uint32_t cta, cta_grouping *g, ws_error *err)
{
    wst_cursor *c = wst_cursor_cta(ctx, kernel, cta, err);
    if (!c)
        return -1;
    int rc = cta_grouping_read(g, c, err);
    wst_cursor_free(c);
    return rc;
}

int sched_source_pack(const sched_source *s, uint32_t kernel, uint32_t cta, cta_grouping *g,
                      ws_error *err)
{
    if (s->pack_cta)
        return s->pack_cta(s->ctx, kernel, cta, g, err);
    return s->load_cta(s->ctx, kernel, cta, cta_grouping_take, g, err);
}

sched_source sched_source_wst(wst_reader *r)
{
    return (sched_source){.ctx = r, .trace = wst_reader_trace(r), .ctas = wst_ctas,
                          .load_cta = wst_load_cta, .pack_cta = wst_pack_cta};
}

/* The memtrace keeps records per kernel in arrival order; CTA lists are
 * built once. */
typedef struct mem_ctx {
    const wst_memtrace *m;
    uint32_t **ctas;
    uint32_t *counts;
} mem_ctx;

static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

static const uint32_t *mem_ctas(void *ctx, uint32_t kernel, uint32_t *count)
{
    mem_ctx *mc = ctx;
    *count = mc->counts[kernel];
    return mc->ctas[kernel];
}

static int mem_load_cta(void *ctx, uint32_t kernel, uint32_t cta, sched_take_fn take,
                        void *take_ctx, ws_error *err)
{
    mem_ctx *mc = ctx;
    const wst_memkernel_records *per = &mc->m->per_kernel[kernel];
    /* The CTA's records, as runs of neighbours in arrival order. */
    for (size_t i = 0; i < per->count;) {
        if (per->records[i].cta != cta) {
            i++;
            continue;
        }
        size_t end = i + 1;
        while (end < per->count && per->records[end].cta == cta)
            end++;
        int rc = take(take_ctx, per->records + i, end - i, err);
        if (rc != 0)
            return rc < 0 ? -1 : 0;
        i = end;
    }
    return 0;
}

sched_source sched_source_memtrace(const wst_memtrace *m)
{
    mem_ctx *mc = calloc(1, sizeof *mc);
    uint32_t kernels = m->trace.kernel_count;
    mc->m = m;
    mc->ctas = calloc(kernels + 1, sizeof *mc->ctas);
    mc->counts = calloc(kernels + 1, sizeof *mc->counts);
    for (uint32_t k = 0; k < kernels; k++) {
        const wst_memkernel_records *per = &m->per_kernel[k];
        uint32_t *list = malloc((per->count + 1) * sizeof *list);
        uint32_t n = 0;
        for (size_t i = 0; i < per->count; i++)
            list[n++] = per->records[i].cta;
        qsort(list, n, sizeof *list, compare_u32);
        uint32_t distinct = 0;
        for (uint32_t i = 0; i < n; i++)
            if (i == 0 || list[i] != list[i - 1])
                list[distinct++] = list[i];
        mc->ctas[k] = list;
        mc->counts[k] = distinct;
    }
    return (sched_source){.ctx = mc, .trace = &m->trace, .ctas = mem_ctas, .load_cta = mem_load_cta};
}

void sched_source_free(sched_source *s)
{
    if (s->ctas != mem_ctas)
        return;
    mem_ctx *mc = s->ctx;
    for (uint32_t k = 0; k < mc->m->trace.kernel_count; k++)
        free(mc->ctas[k]);
    free(mc->ctas);
    free(mc->counts);
    free(mc);
}

/* ---- residency ---- */

uint32_t sched_residency(const gpu_config *c, const wst_kernel *k)
{
    uint64_t threads = (uint64_t)k->block.x * k->block.y * k->block.z;
    uint64_t warps = (threads + 31) / 32;
    uint64_t limit = c->max_ctas_per_sm;
    if (warps && c->max_warps_per_sm / warps < limit)
        limit = c->max_warps_per_sm / warps;
    if (threads && c->max_threads_per_sm / threads < limit)
        limit = c->max_threads_per_sm / threads;
    if (k->registers_per_thread && threads) {
        uint64_t regs = threads * k->registers_per_thread;
        if (c->registers_per_sm / regs < limit)
            limit = c->registers_per_sm / regs;
    }
    if (k->shared_mem_bytes && c->shared_mem_per_sm / k->shared_mem_bytes < limit)
        limit = c->shared_mem_per_sm / k->shared_mem_bytes;
    return (uint32_t)limit;
}

uint32_t sched_peak_resident_ctas(const sched *s) { return s->peak_resident; }

/* ---- events ---- */

int sched_push(sched *s, sched_event e, ws_error *err)
{
    if (s->queue_head == s->queue_count)
        s->queue_head = s->queue_count = 0;
    if (ws_grow((void **)&s->queue, &s->queue_capacity, s->queue_count + 1, sizeof *s->queue))
        return ws_fail(err, "out of memory");
    s->queue[s->queue_count++] = e;
    return 0;
}

/* ---- dispatch ---- */

/* The bytes of an SM's arrays (sm_grow, sm_arrays), as given back: a
 * spare block goes back to the class of the size it was taken for
 * (util/spare.h), so each size has one definition. */
static size_t ctas_bytes(uint32_t ctas) { return (size_t)ctas * sizeof(cta_state); }
static size_t warps_bytes(uint32_t ctas, uint32_t wpc)
{
    return ctas ? ((size_t)ctas * wpc + 1) * sizeof(warp_state) : 0;
}
static size_t by_age_bytes(const sched *s, const sm_state *sm)
{
    return ((size_t)s->age_stride * s->config.schedulers_per_sm + 1) * sizeof *sm->by_age;
}
static size_t live_bytes(const sched *s, const sm_state *sm)
{
    return (s->warp_slots + 1) * sizeof *sm->live;
}
static size_t rank_bytes(const sched *s, const sm_state *sm)
{
    return (s->warp_slots + 1) * sizeof *sm->rank;
}

static void free_sms(sched *s)
{
    for (uint32_t i = 0; s->sms && i < s->config.sms; i++) {
        sm_state *sm = &s->sms[i];
        for (uint32_t c = 0; c < sm->cta_capacity; c++)
            packed_cta_free(&sm->ctas[c].records);
        ws_spare_release(sm->ctas, ctas_bytes(sm->cta_capacity));
        ws_spare_release(sm->warps, warps_bytes(sm->cta_capacity, s->warps_per_cta));
        if (sm->by_age != s->no_by_age)
            ws_spare_release(sm->by_age, by_age_bytes(s, sm));
        if (sm->live != s->no_live)
            ws_spare_release(sm->live, live_bytes(s, sm));
        ws_spare_release(sm->rank, rank_bytes(s, sm));
        sched_timed_free(sm, sched_sm_slots(s, sm));
    }
    free(s->sms);
    s->sms = NULL;
    free(s->no_live);
    s->no_live = NULL;
    free(s->no_by_age);
    s->no_by_age = NULL;
}

/* The SM's arrays per CTA slot for `ctas` slots, the first cta_capacity
 * kept (new ones cleared).  A CTA's own records live in its cta_state,
 * so its view is pointed at them again where they moved.  The arrays of
 * the SMs come from the caches' huge page where it has room
 * (util/spare.h): their first touches were a third of a small replay's
 * page faults on the heap (bench/RESULTS.md, "Branch heap45"). */
static int sm_grow(sched *s, sm_state *sm, uint32_t ctas, ws_error *err)
{
    uint32_t old = sm->cta_capacity, wpc = s->warps_per_cta;
    for (uint32_t c = 0; c < old; c++) /* NULL: its own records, wherever they go */
        if (sm->ctas[c].view == &sm->ctas[c].records)
            sm->ctas[c].view = NULL;
    size_t bytes = ctas_bytes(ctas);
    cta_state *grown = ws_spare_resize(sm->ctas, ctas_bytes(old), &bytes);
    if (grown)
        sm->ctas = grown;
    for (uint32_t c = 0; c < old; c++)
        if (!sm->ctas[c].view)
            sm->ctas[c].view = &sm->ctas[c].records;
    bytes = warps_bytes(ctas, wpc);
    warp_state *warps = grown ? ws_spare_resize(sm->warps, warps_bytes(old, wpc), &bytes) : NULL;
    if (warps)
        sm->warps = warps;
    if (!grown || !warps)
        return ws_fail(err, "out of memory");
    memset(sm->ctas + old, 0, (ctas - old) * sizeof *sm->ctas);
    memset(sm->warps + (size_t)old * wpc, 0, (size_t)(ctas - old) * wpc * sizeof *sm->warps);
    sm->cta_capacity = ctas;
    return s->timed ? sched_timed_grow_sm(sm, old * wpc, ctas * wpc, err) : 0;
}

/* The SM's arrays for the kernel, allocated when it takes its first CTA:
 * an SM that takes none (a kernel of fewer CTAs than SMs, on an 80-SM
 * GPU) costs no memory, no clearing and no page (until then its live[]
 * is the kernel's shared no_live, all zero, the only array an order may
 * read of an SM without warps, and its age lists, all empty, are in the
 * shared no_by_age).  The arrays per CTA slot hold one CTA
 * until the SM takes a second at once (sm_grow): on a kernel of fewer
 * CTAs than the GPU's slots most SMs hold one, and their arrays share
 * pages instead of spreading a CTA's few hundred bytes over every slot's
 * room (malloc's headers touch each page of them). */
static int sm_arrays(sched *s, sm_state *sm, ws_error *err)
{
    sm->by_age = ws_spare_cleared(by_age_bytes(s, sm));
    sm->live = ws_spare_cleared(live_bytes(s, sm));
    sm->rank = ws_spare_cleared(rank_bytes(s, sm));
    if (!sm->by_age || !sm->live || !sm->rank)
        return ws_fail(err, "out of memory");
    return sm_grow(s, sm, 1, err);
}

/* Warp slot w belongs to scheduler w mod schedulers_per_sm. */
static inline uint32_t scheduler_of(const sched *s, uint32_t warp_slot)
{
    return warp_slot % s->config.schedulers_per_sm;
}

uint32_t sched_scheduler_of(const sched *s, uint32_t warp_slot) { return scheduler_of(s, warp_slot); }

/* Loads a CTA into a free slot of sm and makes its warps issuable; an
 * `empty` one (no records: its threads exit at once) takes the slot and
 * retires the next cycle (timed, docs/metrics.md §12). */
static int dispatch(sched *s, uint32_t sm_index, uint32_t cta, int empty, ws_error *err)
{
    sm_state *sm = &s->sms[sm_index];
    if (!sm->ctas && sm_arrays(s, sm, err) != 0)
        return -1;
    uint32_t slot = 0;
    while (slot < sm->cta_capacity && sm->ctas[slot].active)
        slot++;
    if (slot == sm->cta_capacity && slot < s->cta_slots && sm_grow(s, sm, s->cta_slots, err) != 0)
        return -1;
    if (slot == s->cta_slots)
        return ws_fail(err, "scheduler: SM %u has no free CTA slot", sm_index);
    cta_state *c = &sm->ctas[slot];
    const uint32_t *starts;
    /* begin_kernel checked the count.  Cleared only where it is used, and
     * only the CTA's warps: a borrowed CTA (every compare of several
     * policies) has its own starts, and all 4 KiB cleared at each dispatch
     * were about 500 instructions. */
    uint32_t own_starts[SCHED_MAX_WARPS_PER_CTA + 1];
    if (!s->source.borrow_cta || empty)
        memset(own_starts, 0, (s->warps_per_cta + 1) * sizeof *own_starts);
    if (empty) {
        packed_cta_clear(&c->records);
        c->view = &c->records;
        starts = own_starts;
    } else if (s->source.borrow_cta) { /* packed and grouped once for several schedulers */
        if (!(c->view = s->source.borrow_cta(s->source.ctx, s->kernel, cta, s->warps_per_cta,
                                             &starts, err)))
            return -1;
        c->borrowed = 1;
    } else {
        packed_cta_clear(&c->records);
        cta_grouping g = {.records = &c->records, .starts = own_starts,
                          .warps = s->warps_per_cta, .kernel = s->kernel, .cta = cta};
        if (sched_source_pack(&s->source, s->kernel, cta, &g, err) != 0 ||
            cta_grouping_finish(&g, &s->spare, err) != 0)
            return -1;
        c->view = &c->records;
        starts = own_starts;
    }
    c->active = 1;
    c->cta = cta;
    c->warps_left = 0;
    c->draining = 0;
    c->done_at = 0;
    for (uint32_t w = 0; w < s->warps_per_cta; w++) {
        warp_state *ws = &sm->warps[slot * s->warps_per_cta + w];
        *ws = (warp_state){.cta_slot = slot, .next = starts[w], .end = starts[w + 1],
                           .id = s->next_warp_id++};
        ws->active = ws->next < ws->end;
        c->warps_left += ws->active;
        /* Ids grow with dispatch, so appending keeps each list oldest first. */
        uint32_t warp_slot = slot * s->warps_per_cta + w, t = scheduler_of(s, warp_slot);
        sm->live[warp_slot] = (uint8_t)ws->active;
        if (ws->active) {
            sm->rank[warp_slot] = sm->age_count[t];
            sched_age_list(s, sm, t)[sm->age_count[t]++] = warp_slot;
            if (s->options.warp->arrived)
                s->options.warp->arrived(s->order, sm_index, warp_slot);
        }
    }
    sm->live_warps += c->warps_left;
    sm->free_ctas--;
    if (empty) { /* its warps' EXITs: it retires the next cycle (sched_timed.c) */
        c->draining = 1;
        c->done_at = s->cycle + 1;
        if (c->done_at < sm->drain_at)
            sm->drain_at = c->done_at;
    }
    if (s->timed &&
        sched_timed_dispatched(s, sm_index, slot * s->warps_per_cta, s->warps_per_cta, err) != 0)
        return -1;
    if (++s->resident > s->peak_resident)
        s->peak_resident = s->resident;
    return sched_push(s, (sched_event){.kind = SCHED_CTA_DISPATCH, .kernel = s->kernel, .cta = cta,
                                 .sm = sm_index}, err);
}

/* The next CTA the dispatch policy gives SM sm, or -1 (docs/metrics.md §6). */
static int64_t next_cta_for(sched *s, uint32_t sm_index)
{
    sm_state *sm = &s->sms[sm_index];
    switch (s->options.cta) {
    case CTA_QN:
    case CTA_QX:
    case CTA_QX_ADPT: {
        if (sm->group_next < sm->group_end)
            return sm->group_next++;
        if (s->options.cta == CTA_QX_ADPT && !s->adaptive_rr &&
            s->group_count - s->groups_handed_out < s->config.sms)
            s->adaptive_rr = 1; /* too few groups left to keep every SM busy */
        if (s->adaptive_rr || s->next_cta >= s->cta_count)
            break;
        /* The group is cut by linear id (docs/metrics.md §6): the CTAs the trace holds
         * of group ⌊id ÷ N⌋, handed out whole. */
        uint32_t group = s->ctas[s->next_cta] / s->group_size;
        sm->group_next = s->next_cta;
        while (s->next_cta < s->cta_count && s->ctas[s->next_cta] / s->group_size == group)
            s->next_cta++;
        sm->group_end = s->next_cta;
        s->groups_handed_out++;
        return sm->group_next++;
    }
    default:
        break;
    }
    return s->next_cta < s->cta_count ? (int64_t)s->next_cta++ : -1; /* linear order */
}

/* Timed, CTA_RR over the whole grid (grid_ctas): the next linear id, and
 * whether the trace holds no record of it.  0, or -1 when none is left. */
static int next_grid_cta(sched *s, uint32_t *cta, int *empty)
{
    if (s->next_id >= s->grid_ctas)
        return -1;
    *cta = s->next_id++;
    *empty = !(s->next_cta < s->cta_count && s->ctas[s->next_cta] == *cta);
    s->next_cta += !*empty;
    return 0;
}

/* Gives SMs new CTAs while they have room (one SM, or all when sm < 0),
 * cycling over the SMs one CTA (BCS: one pair) at a time. */
int sched_fill(sched *s, int64_t only_sm, ws_error *err)
{
    int progress = 1;
    while (progress) {
        progress = 0;
        for (uint32_t i = 0; i < s->config.sms; i++) {
            if (only_sm >= 0 && i != (uint32_t)only_sm)
                continue;
            sm_state *sm = &s->sms[i];
            uint32_t want = 1;
            if (s->options.cta == CTA_BCS) {
                /* Pairs of consecutive CTAs, so neighbours share an L1; single
             * CTAs where an SM holds only one (docs/metrics.md §6). */
                uint32_t left = s->cta_count - s->next_cta;
                want = left >= 2 && s->cta_slots >= 2 ? 2 : left ? 1 : 0;
                if (want == 0 || sm->free_ctas < want)
                    continue;
            } else if (sm->free_ctas == 0) {
                continue;
            }
            for (uint32_t n = 0; n < want; n++) {
                uint32_t cta;
                int empty = 0;
                if (s->grid_ctas) {
                    if (next_grid_cta(s, &cta, &empty) != 0)
                        break;
                } else {
                    int64_t pos = next_cta_for(s, i);
                    if (pos < 0)
                        break;
                    cta = s->ctas[pos];
                }
                if (dispatch(s, i, cta, empty, err) != 0)
                    return -1;
                progress = 1;
            }
        }
    }
    return 0;
}

/* ---- the recorded schedule ---- */

static int compare_first_time(const void *a, const void *b, void *ctx)
{
    const uint64_t *t = ctx;
    uint64_t x = t[*(const uint32_t *)a], y = t[*(const uint32_t *)b];
    if (x != y)
        return x < y ? -1 : 1;
    return (*(const uint32_t *)a > *(const uint32_t *)b) - (*(const uint32_t *)a < *(const uint32_t *)b);
}

typedef struct first_record {
    wst_record record;
    int found;
} first_record;

static int take_first(void *ctx, const wst_record *records, size_t n, ws_error *err)
{
    (void)n, (void)err;
    first_record *f = ctx;
    f->record = records[0]; /* a batch is never empty */
    f->found = 1;
    return 1; /* nothing more needed */
}

/* Reads each CTA's first record for its SM and start time. */
static int prepare_recorded(sched *s, ws_error *err)
{
    free(s->admission);
    free(s->recorded_sm);
    free(s->first_time);
    s->admission = malloc((s->cta_count + 1) * sizeof *s->admission);
    s->recorded_sm = malloc((s->cta_count + 1) * sizeof *s->recorded_sm);
    s->first_time = malloc((s->cta_count + 1) * sizeof *s->first_time);
    if (!s->admission || !s->recorded_sm || !s->first_time)
        return ws_fail(err, "out of memory");
    int rc = 0;
    for (uint32_t i = 0; i < s->cta_count && rc == 0; i++) {
        first_record found = {0};
        rc = s->source.load_cta(s->source.ctx, s->kernel, s->ctas[i], take_first, &found, err);
        const wst_record *first = &found.record;
        if (rc == 0 && (!found.found || !first->has_sm || !first->has_time))
            rc = ws_fail(err, "the recorded schedule needs SM ids and timestamps, which this "
                         "trace lacks (emulated and imported traces have none); use rr,gto");
        if (rc == 0 && first->sm >= s->config.sms)
            rc = ws_fail(err, "the trace ran on SM %u but the GPU config has %u SMs", first->sm,
                         s->config.sms);
        if (rc == 0) {
            s->admission[i] = i;
            s->recorded_sm[i] = first->sm;
            s->first_time[i] = first->timestamp;
        }
    }
    if (rc == 0)
        qsort_r(s->admission, s->cta_count, sizeof *s->admission, compare_first_time,
                s->first_time);
    s->admitted = 0;
    return rc;
}

/* The timestamp of the warp's next record. */
static uint64_t warp_head_time(const sm_state *sm, const warp_state *w)
{
    return packed_cta_timestamp(sm->ctas[w->cta_slot].view, w->next);
}

/* Admits CTAs whose start time has come: before the earliest pending record
 * of the resident ones (or when none is resident). */
static int admit_recorded(sched *s, uint64_t earliest, int any_resident, ws_error *err)
{
    while (s->admitted < s->cta_count) {
        uint32_t i = s->admission[s->admitted];
        if (any_resident && s->first_time[i] > earliest)
            break;
        uint32_t sm = s->recorded_sm[i];
        if (s->sms[sm].free_ctas == 0)
            return ws_fail(err, "the recorded schedule had more CTAs on SM %u than the GPU "
                           "config allows (%u); use a config with more CTAs per SM",
                           sm, s->cta_slots);
        if (dispatch(s, sm, s->ctas[i], 0, err) != 0)
            return -1;
        s->admitted++;
        any_resident = 1;
    }
    return 0;
}

/* ---- issue ---- */

static int warp_ready(const warp_state *w) { return w->active; }

int sched_next_load(const void *sched_sm, uint32_t slot, uint32_t *pc)
{
    const sm_state *sm = sched_sm;
    const warp_state *w = &sm->warps[slot];
    if (!w->active)
        return 0;
    const packed_record *q = &sm->ctas[w->cta_slot].view->records[w->next];
    *pc = q->pc;
    return packed_kind(q) == WST_LOAD && packed_space(q) == WST_GLOBAL;
}


void sched_retire_warp_from_age_list(sched *s, sm_state *sm, uint32_t slot)
{
    uint32_t t = scheduler_of(s, slot);
    uint32_t *list = sched_age_list(s, sm, t), n = sm->age_count[t];
    uint32_t at = 0;
    while (at < n && list[at] != slot)
        at++;
    if (at == n)
        return;
    memmove(list + at, list + at + 1, (n - at - 1) * sizeof *list);
    sm->age_count[t] = n - 1;
    for (uint32_t k = at; k < n - 1; k++) /* the younger warps move up one rank */
        sm->rank[list[k]] = k;
}


static int issue_recorded(sched *s, sched_event *e, ws_error *err)
{
    for (;;) {
        int32_t best_sm = -1, best_slot = -1;
        uint64_t best_time = 0;
        for (uint32_t i = 0; i < s->config.sms; i++) {
            sm_state *sm = &s->sms[i];
            if (!sm->live_warps)
                continue;
            for (uint32_t slot = 0; slot < sched_sm_slots(s, sm); slot++) {
                const warp_state *w = &sm->warps[slot];
                if (!warp_ready(w))
                    continue;
                uint64_t t = warp_head_time(sm, w);
                if (best_sm < 0 || t < best_time) {
                    best_sm = (int32_t)i, best_slot = (int32_t)slot, best_time = t;
                }
            }
        }
        uint32_t before = s->resident;
        if (admit_recorded(s, best_time, best_sm >= 0, err) != 0)
            return -1;
        if (s->resident != before)
            return 2; /* dispatch events first; issue on the next call */
        if (best_sm < 0)
            return 0;
        sched_issue(s, (uint32_t)best_sm, (uint32_t)best_slot,
                    scheduler_of(s, (uint32_t)best_slot), e);
        return 1;
    }
}

/* One issue from the next SM (round robin) that has work. */
static int issue_next(sched *s, sched_event *e)
{
    for (uint32_t k = 0; k < s->config.sms; k++) {
        uint32_t i = (s->sm_cursor + k) % s->config.sms;
        sm_state *sm = &s->sms[i];
        if (!sm->live_warps)
            continue;
        uint32_t schedulers = s->config.schedulers_per_sm;
        const warp_order_ops *order = s->options.warp;
        for (uint32_t t = 0; t < schedulers; t++) {
            uint32_t scheduler = (sm->next_scheduler + t) % schedulers;
            warp_view v = sched_view(s, sm, i, scheduler);
            int32_t slot = order->pick(s->order, &v);
            if (slot < 0)
                continue;
            sm->next_scheduler = (scheduler + 1) % schedulers;
            sched_issue(s, i, (uint32_t)slot, scheduler, e);
            /* The reference L1's answer, for an order that uses it (GTO). */
            int missed = order->uses_misses && s->miss && s->miss(s->miss_ctx, e);
            if (order->issued) {
                v.live_count = sm->age_count[scheduler]; /* the issue may have ended the warp */
                order->issued(s->order, &v, (uint32_t)slot, missed);
            }
            s->sm_cursor = (i + 1) % s->config.sms;
            return 1;
        }
    }
    return 0;
}

void sched_record_lanes(sched *s, const sched_event *issue)
{
    if (issue->affine)
        packed_affine_lanes(&s->issued, issue->stride);
}

void sched_observe(sched *s, const sched_event *e, const ws_request *requests,
                   const replay_ref *refs, int n)
{
    const warp_order_ops *order = s->options.warp;
    if (order->observed)
        order->observed(s->order, e->sm, e->warp_slot, (uint32_t)e->warp_id, e->record->pc,
                        requests, refs, n);
}

/* ---- kernels ---- */

static int begin_kernel(sched *s, ws_error *err)
{
    const wst_kernel *k = &s->source.trace->kernels[s->kernel];
    free_sms(s);
    s->ctas = s->source.ctas(s->source.ctx, s->kernel, &s->cta_count);
    uint64_t threads = (uint64_t)k->block.x * k->block.y * k->block.z;
    s->warps_per_cta = (uint32_t)((threads + 31) / 32);
    if (s->warps_per_cta > SCHED_MAX_WARPS_PER_CTA)
        return ws_fail(err, "kernel %u: %u warps per CTA", s->kernel, s->warps_per_cta);
    s->cta_slots = sched_residency(&s->config, k);
    if (s->cta_slots == 0)
        return ws_fail(err, "kernel %u (%s): a CTA of %llu threads does not fit on an SM of the "
                       "%s config", s->kernel, k->name ? k->name : "?",
                       (unsigned long long)threads, s->config.name);
    s->warp_slots = s->cta_slots * s->warps_per_cta;
    s->age_stride = (s->warp_slots + s->config.schedulers_per_sm - 1) / s->config.schedulers_per_sm;
    s->sms = calloc(s->config.sms, sizeof *s->sms);
    s->no_live = calloc(s->warp_slots + 1, 1);
    s->no_by_age = calloc((size_t)s->age_stride * s->config.schedulers_per_sm + 1,
                          sizeof *s->no_by_age);
    if (!s->sms || !s->no_live || !s->no_by_age)
        return ws_fail(err, "out of memory");
    for (uint32_t i = 0; i < s->config.sms; i++) {
        s->sms[i].live = s->no_live; /* its arrays come with its first CTA (sm_arrays) */
        s->sms[i].by_age = s->no_by_age;
        s->sms[i].free_ctas = s->cta_slots;
    }
    if (s->options.warp->kernel_begin)
        s->options.warp->kernel_begin(s->order, s->warp_slots, k->pc_count);
    s->next_cta = s->groups_handed_out = 0;
    s->grid_ctas = s->next_id = 0;
    if (s->timed && s->options.cta == CTA_RR && wst_grid_fits(k->grid)) {
        uint64_t all = (uint64_t)k->grid.x * k->grid.y * k->grid.z;
        int ascending = 1;
        for (uint32_t i = 1; i < s->cta_count && ascending; i++)
            ascending = s->ctas[i - 1] < s->ctas[i];
        if (all > s->cta_count && ascending)
            s->grid_ctas = (uint32_t)all;
    }
    s->adaptive_rr = 0;
    s->sm_cursor = 0;
    /* qx: a group per row of CTAs; on a 1-D grid, min(gridDim.x, ⌈CTAs ÷ SMs⌉) (docs/metrics.md §6). */
    s->group_size = s->options.group ? s->options.group : 1;
    if (s->options.cta == CTA_QX || s->options.cta == CTA_QX_ADPT) {
        s->group_size = k->grid.x;
        if (k->grid.y == 1 && k->grid.z == 1) {
            uint32_t per_sm = (s->cta_count + s->config.sms - 1) / s->config.sms;
            if (per_sm < s->group_size)
                s->group_size = per_sm ? per_sm : 1;
        }
    }
    s->group_count = 0;
    for (uint32_t i = 0; i < s->cta_count; i++)
        s->group_count += i == 0 || s->ctas[i] / s->group_size != s->ctas[i - 1] / s->group_size;
    if (s->timed && sched_timed_begin_kernel(s, err) != 0)
        return -1;
    if (sched_push(s, (sched_event){.kind = SCHED_KERNEL_BEGIN, .kernel = s->kernel,
                                    .step = s->cycle}, err) != 0)
        return -1;
    if (s->options.cta == CTA_RECORDED)
        return prepare_recorded(s, err);
    return sched_fill(s, -1, err);
}

int sched_retire_slot(sched *s, uint32_t sm_index, uint32_t slot, ws_error *err)
{
    sm_state *sm = &s->sms[sm_index];
    cta_state *c = &sm->ctas[slot];
    c->active = 0;
    if (c->borrowed) {
        s->source.give_back_cta(s->source.ctx, s->kernel, c->cta);
        c->borrowed = 0;
    }
    sm->free_ctas++;
    s->resident--;
    if (sched_push(s, (sched_event){.kind = SCHED_CTA_RETIRE, .kernel = s->kernel, .cta = c->cta,
                              .sm = sm_index}, err) != 0)
        return -1;
    /* The freed SM takes the next CTA the policy gives it. */
    return s->options.cta == CTA_RECORDED ? 0 : sched_fill(s, sm_index, err);
}

static int retire(sched *s, ws_error *err)
{
    s->retire_pending = 0;
    return sched_retire_slot(s, s->retire_sm, s->retire_slot, err);
}

/* Nothing left to issue: the kernel is over, its end queued. */
static int end_kernel(sched *s, ws_error *err)
{
    if (sched_push(s, (sched_event){.kind = SCHED_KERNEL_END, .kernel = s->kernel,
                                    .step = s->cycle}, err) != 0)
        return -1;
    s->kernel++;
    s->state = STATE_NEED_KERNEL;
    return 0;
}

/* sched_next's whole loop, which starts each kernel, retires and
 * hands out queued events; apart (not inlined) from the timed replay's
 * common call, which sched_next makes at once. */
static __attribute__((noinline)) int next_event(sched *s, sched_event *e, ws_error *err)
{
    for (;;) {
        if (s->retire_pending && retire(s, err) != 0)
            return -1;
        if (s->queue_head < s->queue_count) {
            *e = s->queue[s->queue_head++];
            return 1;
        }
        if (s->state == STATE_DONE)
            return 0;
        if (s->state == STATE_NEED_KERNEL) {
            if (s->kernel >= s->source.trace->kernel_count) {
                s->state = STATE_DONE;
                continue;
            }
            if (begin_kernel(s, err) != 0)
                return -1;
            s->state = STATE_RUNNING;
            continue;
        }
        int rc = s->timed                   ? sched_timed_next(s, e, err)
                 : s->options.warp->recorded ? issue_recorded(s, e, err)
                                             : issue_next(s, e);
        if (rc < 0)
            return -1;
        if (rc == 1)
            return 1;
        if (rc == 2)
            continue;
        if (end_kernel(s, err) != 0)
            return -1;
    }
}

int sched_next(sched *s, sched_event *e, ws_error *err)
{
    /* The timed replay's common call (next_event's first pass, taken
     * here): nothing queued, the kernel running, and an issue found. */
    if (s->timed && s->state == STATE_RUNNING && !s->retire_pending &&
        s->queue_head >= s->queue_count) {
        int rc = sched_timed_next(s, e, err);
        if (rc == 1 || rc < 0)
            return rc;
        if (rc == 0 && end_kernel(s, err) != 0)
            return -1;
    }
    return next_event(s, e, err);
}

sched *sched_new(const gpu_config *config, const sched_options *options, const sched_source *source,
                 sched_miss_fn miss, void *miss_ctx, ws_error *err)
{
    if (config->schedulers_per_sm > 8)
        return ws_fail(err, "at most 8 warp schedulers per SM"), NULL;
    sched *s = calloc(1, sizeof *s);
    if (!s) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    s->config = *config;
    s->options = *options;
    s->timed = options->timed;
    if (s->timed && options->warp->recorded) {
        free(s);
        return ws_fail(err, "the timed replay makes its own order: it does not take the recorded "
                       "schedule"), NULL;
    }
    s->source = *source;
    s->miss = miss;
    s->miss_ctx = miss_ctx;
    /* Residency never gives an SM more warp slots than max_warps_per_sm. */
    warp_order_geometry g = {.sms = config->sms, .schedulers = config->schedulers_per_sm,
                             .line_bytes = config->l1.line_bytes,
                             .l2_latency = config->l2_latency,
                             .dram_latency = config->dram_latency,
                             .slots = config->max_warps_per_sm, .gto_k = config->gto_k,
                             .issue_n = options->warp_n, .allocate_p = options->warp_p};
    if (!(s->order = options->warp->create(&g, err))) {
        free(s);
        return NULL;
    }
    if (s->timed && options->warp->timed_greedy)
        s->timed_greedy = options->warp->timed_greedy(s->order);
    return s;
}

void sched_free(sched *s)
{
    if (!s)
        return;
    free_sms(s);
    if (s->order)
        s->options.warp->destroy(s->order);
    free(s->queue);
    free(s->admission);
    free(s->recorded_sm);
    free(s->first_time);
    free(s->scheduler_stalls);
    free(s->ldst_rings);
    free(s->wakes);
    free(s->block_wakes);
    packed_cta_free(&s->spare);
    free(s);
}
