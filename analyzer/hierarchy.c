/* analyzer/hierarchy.c: see hierarchy.h.
 *
 * The core keeps the levels, the traffic and the per-PC counts; the metric
 * collectors (l1_collectors.c, and any the caller adds) subscribe to its L1
 * events, and the stages of hierarchy.h hook into an L1 load at fixed
 * places. */
#include "analyzer/hierarchy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/cache.h"
#include "analyzer/coalesce.h"
#include "analyzer/l1_collectors.h"
#include "analyzer/l1_rules.h"
#include "analyzer/l2_touch.h"
#include "formats/trace.h"
#include "util/counts.h"
#include "util/fastdiv.h"
#include "util/zeroed.h"

/* The L1 events, as indices of hierarchy.on. */
enum { EV_LOOKUP, EV_HIT, EV_MISS, EV_FILL, EV_DEPART, EV_STORE, EV_INSTRUCTION, EV_REQUESTS,
       EV_TRANSFER, L1_EVENTS };

/* One MSHR entry of the timed replay (docs/metrics.md §12). */
typedef struct mshr_entry {
    uint64_t line, ready;
    uint32_t merges;
} mshr_entry;

struct hierarchy {
    hierarchy_options o;
    uint32_t sms, slices, line_bytes, line_shift, l1_sectored, l2_sectored;
    uint32_t l2_lazy_fetch; /* l2.write lazy-fetch (docs/metrics.md §7) */
    fastdiv by_slices; /* a line's slice is line mod slices */
    int sharing;      /* L2 tracks owners; the L1 fill waits for L2's LINE_SHARED */
    int fill_later;   /* the L1 fill comes after L2 answers (stages or sharing) */
    int has_front_end; /* a stage may rewrite a load's requests before L1 */
    /* The path its requests take (PATH_*, below). */
    int path;
    uint8_t all_sectors; /* every 32 B sector of a line, as a mask */
    cache **l1, **l2;
    uint8_t *started; /* per SM: sm_begin made its models */
    ccn *ring;        /* the CCN over the L1s, when on */
    lcm *lcm;         /* locality-based management, when on */
    l1_collectors *collectors;
    /* The caller's collectors; per event, those with a hook for it. */
    const l1_observer *on[L1_EVENTS][HIERARCHY_MAX_OBSERVERS];
    uint32_t on_count[L1_EVENTS];
    mshr_entry *mshr; /* [sms × mshr_entries] */
    uint32_t mshr_entries;
    /* The one clock (docs/metrics.md §12): the cycle the request being
     * served reached its level (functional: the SM's issue step).  Timed:
     * the memory side's queues, each SM's LD/ST unit (its next free slot,
     * in 1 ÷ ldst_requests_per_cycle cycles), and the instruction's
     * answer. */
    uint64_t now;
    mem_timing *timing;
    uint64_t *ldst_next;
    uint64_t back;      /* the last load request's data back */
    uint64_t data_back; /* the instruction's */
    uint64_t ldst_free;
    /* OPT behind a front-end stage: the next uses of the instruction's
     * requests as they entered the stages (front_lines[i] -> front_next[i]). */
    int front_keyed, front_n;
    uint64_t front_lines[COALESCE_MAX_REQUESTS], front_next[COALESCE_MAX_REQUESTS];
    /* What every request of the instruction being served tells a policy
     * of it (make_req). */
    cache_req issue_req;
    /* The instruction's requests after the front-end stages rewrote them. */
    ws_request staged[COALESCE_MAX_REQUESTS];
    /* Timed: L1 as the instruction found it (hierarchy_l1_view): its
     * requests as L1 received them, L1's answer on each, and the answer
     * of the request being served (NULL in the functional replay, and
     * when no one reads the view: view_kept 0, hierarchy_keep_l1_view). */
    const ws_request *view_requests;
    replay_ref view[COALESCE_MAX_REQUESTS];
    int view_n;
    int view_kept;
    replay_ref *ref;
    /* l2_by_touch: the stream's L2_TOUCH_* flags of the request being
     * served, and the lines written so far (dirty at the end). */
    uint8_t touch;
    uint64_t l2_dirty_lines;
    replay_results res;
    replay_kernel *kernel;
    int in_kernel;
    replay_pc unread_pc; /* COLLECT_GRID: every PC's counts, which no one reads */
};

double level_hit_rate(const level_counts *c)
{
    return c->accesses ? (double)c->hits / (double)c->accesses : -1.0;
}

/* ---- the paths of a request ----
 *
 * The steps of a request (hierarchy_instruction_refs, l1_load,
 * global_write, l2_slices and what they call) are compiled once a path,
 * with `path` a constant; the rules are the same code, so the numbers
 * cannot differ (docs/replay.md, "The direct path" and "The timed path"):
 *   PATH_GENERAL  everything checked as it comes;
 *   PATH_DIRECT   a functional hierarchy with no built-in collector
 *                 (COLLECT_NONE, COLLECT_GRID), no subscriber, no stage, no
 *                 sharing and no OPT stream: it raises no event, waits for
 *                 nothing and keys nothing (tests/test_direct_path.c).
 *                 Most of the sweep's work is such hierarchies;
 *   PATH_TIMED    a timed hierarchy with no subscriber, no stage, no
 *                 sharing, no OPT stream, no grid and no built-in
 *                 collector (COLLECT_NONE: the sweep's timed corners): it
 *                 waits and measures, and no one hears of it
 *                 (tests/test_timed_path.c);
 *   PATH_TIMED_COLLECTED  the same with the built-in collectors
 *                 (COLLECT_ALL, COLLECT_TOTALS), which alone hear of it:
 *                 `compare --timed` of plain policies.  Apart from
 *                 PATH_TIMED so that no event asks whether they are on
 *                 (bench/RESULTS.md, "Branch hier42"). */
enum { PATH_GENERAL, PATH_DIRECT, PATH_TIMED, PATH_TIMED_COLLECTED };

#define HOT static inline __attribute__((always_inline))

static int direct_path(const hierarchy *h)
{
    return !h->timing && !h->collectors && h->o.observer_count == 0 && h->o.stage_count == 0 &&
           !h->sharing && !h->o.record_l1 && !h->o.l1_next;
}

static int timed_path(const hierarchy *h)
{
    return h->timing && h->o.observer_count == 0 && h->o.stage_count == 0 && !h->sharing &&
           !h->o.record_l1 && !h->o.l1_next && !h->o.record_l2 && !h->o.l2_next &&
           !h->o.l2_by_touch && h->o.collect != COLLECT_GRID;
}

/* Whether `path` is one of the timed paths. */
HOT int timed_path_of(int path) { return path == PATH_TIMED || path == PATH_TIMED_COLLECTED; }

/* What a path may meet, constant on the direct and timed ones: the
 * timed model, the built-in collectors, and the rest (stages,
 * subscribers, sharing, OPT). */
HOT int timed_on(const hierarchy *h, int path)
{
    return timed_path_of(path) || (path == PATH_GENERAL && h->timing);
}

/* Whether L1's answers are written into the view (h->ref): timed, and
 * only when someone reads it (hierarchy_keep_l1_view).  A compare of
 * orders that watch no L1 skips the writes (bench/RESULTS.md, "The L1
 * view only when read"). */
HOT int measured_on(const hierarchy *h, int path) { return path != PATH_DIRECT && h->ref; }

HOT int collectors_on(const hierarchy *h, int path)
{
    return path == PATH_TIMED_COLLECTED || (path == PATH_GENERAL && h->collectors);
}

HOT int hooks_on(int path) { return path == PATH_GENERAL; }

HOT uint32_t stages_on(const hierarchy *h, int path)
{
    return hooks_on(path) ? h->o.stage_count : 0;
}

HOT uint32_t subscribers_on(const hierarchy *h, int path, int event)
{
    return hooks_on(path) ? h->on_count[event] : 0;
}

/* ---- set-up ---- */

static cache *make_cache(const cache_config *g, const policy_spec *spec, uint32_t divisor,
                         const void *param, const hierarchy_options *o, uint64_t seed_offset,
                         int track_owners, ws_error *err)
{
    if (spec->admission && spec->admission->needs_param && !param)
        return ws_fail(err, "policy '%s' needs a table (use `warpscope bypass`)", g->policy), NULL;
    cache_options co = cache_options_for(g, divisor);
    co.policy = spec->replacement;
    co.admission = spec->admission;
    co.policy_geometry = (policy_geometry){.seed = o->seed + seed_offset, .param = param,
                                           .schedulers = o->config.schedulers_per_sm};
    co.track_pending = o->timed;
    co.track_owners = track_owners;
    return cache_new(&co, err);
}

/* SM s's L1.  Its policy's seed depends on s alone and nothing reaches it
 * before the SM's first access, so an L1 made then behaves as one made
 * with the hierarchy. */
static cache *make_l1(const hierarchy *h, uint32_t s, ws_error *err)
{
    return make_cache(&h->o.config.l1, &h->o.l1_spec, 1, h->o.l1_param, &h->o, s, 0, err);
}

/* The bytes of the timed replay's MSHRs, every SM's. */
static size_t mshr_bytes(const hierarchy *h)
{
    return (size_t)h->sms * h->mshr_entries * sizeof *h->mshr;
}

/* Makes SM s's models on its first instruction: a small kernel on a GPU of
 * many SMs allocates and clears only what it uses (bench/RESULTS.md,
 * "Timed replay against Accel-Sim: speed"). */
static int sm_begin(hierarchy *h, uint32_t s, ws_error *err)
{
    if ((!h->l1[s] && !(h->l1[s] = make_l1(h, s, err))) ||
        (h->collectors && l1_collectors_sm_begin(h->collectors, s, err) != 0))
        return -1;
    h->started[s] = 1;
    return 0;
}

int hierarchy_resolve_policies(hierarchy_options *o, ws_error *err)
{
    if (!o->l1_spec.replacement && policy_spec_parse(o->config.l1.policy, &o->l1_spec, err) != 0)
        return -1;
    if (!o->l2_spec.replacement && policy_spec_parse(o->config.l2.policy, &o->l2_spec, err) != 0)
        return -1;
    return 0;
}

void hierarchy_free(hierarchy *h)
{
    if (!h)
        return;
    for (uint32_t s = 0; h->l1 && s < h->sms; s++)
        cache_free(h->l1[s]);
    for (uint32_t s = 0; h->l2 && s < h->slices; s++)
        cache_free(h->l2[s]);
    free(h->l1);
    free(h->l2);
    free(h->started);
    ws_zeroed_free(h->mshr, mshr_bytes(h));
    free(h->ldst_next);
    free(h->res.scheduler_stalls);
    mem_timing_free(h->timing);
    ccn_free(h->ring);
    lcm_free(h->lcm);
    l1_collectors_free(h->collectors);
    for (uint32_t k = 0; h->res.kernels && k < h->res.kernel_count; k++) {
        free(h->res.kernels[k].pcs);
        free(h->res.kernels[k].locality);
    }
    free(h->res.kernels);
    free(h->res.sm_hits);
    free(h->res.sm_misses);
    free(h->res.sm_load_misses);
    free(h->res.remote_holders);
    ws_zeroed_free(h, sizeof *h);
}

/* The CCN ring over the L1s, as the first miss route: a miss it serves
 * never reaches the other stages or L2. */
static int add_ring(hierarchy *h, uint32_t kernel_count, ws_error *err)
{
    if (h->o.stage_count == HIERARCHY_MAX_STAGES)
        return ws_fail(err, "replay: too many stages for the CCN ring");
    if (!(h->ring = ccn_new(&h->o.ccn, h->sms, h->l1, kernel_count, err)))
        return -1;
    memmove(h->o.stages + 1, h->o.stages, h->o.stage_count * sizeof *h->o.stages);
    ccn_stage(h->ring, &h->o.stages[0]);
    h->o.stage_count++;
    h->res.ccn = ccn_results_of(h->ring);
    return 0;
}

/* LCM: its front end after the caller's stages, its monitor after the
 * caller's collectors. */
static int add_lcm(hierarchy *h, uint32_t kernel_count, ws_error *err)
{
    if (h->o.stage_count == HIERARCHY_MAX_STAGES || h->o.observer_count == HIERARCHY_MAX_OBSERVERS)
        return ws_fail(err, "replay: too many stages or collectors for LCM");
    if (!(h->lcm = lcm_new(&h->o.lcm, h->sms, h->line_bytes, kernel_count, err)))
        return -1;
    lcm_stage(h->lcm, &h->o.stages[h->o.stage_count++]);
    lcm_observer(h->lcm, &h->o.observers[h->o.observer_count++]);
    h->res.lcm = lcm_results_of(h->lcm);
    return 0;
}

int hierarchy_l2_by_touch_exact(const hierarchy_options *o)
{
    const cache_config *l2 = &o->config.l2;
    policy_spec lru = policy_spec_lru();
    return !o->timed && !o->timed_by_lru && !o->l2_cold && o->stage_count == 0 &&
           !o->ccn.enabled && !o->lcm.bypass && !o->lcm.coalesce && !o->track_sharing &&
           o->l1_spec.replacement && !o->l1_spec.replacement->needs_sharing &&
           o->l2_spec.replacement == lru.replacement && !o->l2_spec.admission &&
           !o->record_l2 && !o->l2_next && l2->sector_bytes == 0 &&
           l2->write != WRITE_LAZY_FETCH;
}

hierarchy *hierarchy_new(const hierarchy_options *o, uint32_t kernel_count, ws_error *err)
{
    if (config_validate(&o->config, err) != 0)
        return NULL;
    if (o->stage_count > HIERARCHY_MAX_STAGES || o->observer_count > HIERARCHY_MAX_OBSERVERS)
        return ws_fail(err, "replay: too many stages or collectors"), NULL;
    /* The hierarchy and its MSHRs from zeroed pages (util/zeroed.h): calloc
     * cleared them, touching every page (the MSHRs are 11 KiB on 15 SMs, the
     * hierarchy 11 KiB, most of it the front-end stages' buffers), where
     * zeroed pages cost only what is used, in the caches' slab. */
    hierarchy *h = ws_zeroed_new(sizeof *h);
    if (!h)
        return ws_fail(err, "out of memory"), NULL;
    h->o = *o;
    const gpu_config *c = &o->config;
    h->sms = c->sms;
    h->slices = c->l2.slices;
    h->by_slices = fastdiv_of(h->slices);
    h->line_bytes = c->l1.line_bytes;
    h->line_shift = (uint32_t)__builtin_ctz(h->line_bytes);
    h->all_sectors = (uint8_t)((1u << (h->line_bytes / REQUEST_SECTOR_BYTES)) - 1);
    h->l1_sectored = c->l1.sector_bytes != 0;
    h->l2_sectored = c->l2.sector_bytes != 0;
    h->l2_lazy_fetch = c->l2.write == WRITE_LAZY_FETCH;
    h->mshr_entries = c->mshr_entries ? c->mshr_entries : 1;
    h->res.sms = h->sms;
    h->res.l1_sectored = (uint8_t)h->l1_sectored;
    h->res.l2_sectored = (uint8_t)h->l2_sectored;
    h->res.kernel_count = kernel_count;
    snprintf(h->res.l1_policy, sizeof h->res.l1_policy, "%s", c->l1.policy);
    snprintf(h->res.l2_policy, sizeof h->res.l2_policy, "%s", c->l2.policy);
    if (!(h->l1 = calloc(h->sms, sizeof *h->l1)) || !(h->l2 = calloc(h->slices, sizeof *h->l2)) ||
        !(h->started = calloc(h->sms, 1)) ||
        !(h->res.kernels = calloc(kernel_count + 1, sizeof *h->res.kernels)) ||
        !(h->res.sm_hits = calloc(h->sms, 8)) || !(h->res.sm_misses = calloc(h->sms, 8)) ||
        !(h->res.sm_load_misses = calloc(h->sms, 8)) ||
        !(h->res.remote_holders = calloc((size_t)h->sms * h->sms, 8)) ||
        (o->timed && !(h->mshr = ws_zeroed_new(mshr_bytes(h)))) ||
        (o->timed && !(h->ldst_next = calloc(h->sms, sizeof *h->ldst_next)))) {
        ws_fail(err, "out of memory");
        goto fail;
    }
    if (hierarchy_resolve_policies(&h->o, err) != 0)
        goto fail;
    if (o->l2_by_touch && !hierarchy_l2_by_touch_exact(&h->o)) {
        ws_fail(err, "replay: an L2 answered from the stream needs a functional replay, "
                     "no stage or sharing, and a plain LRU L2 of whole lines");
        goto fail;
    }
    if (o->timed_by_lru) { /* the clock is the driving LRU run's (timed_replay.c) */
        h->res.timed = h->res.timed_by_lru = 1;
        h->res.timing = c->timing;
    }
    if (o->timed) {
        h->view_kept = 1; /* until told no one reads it (hierarchy_keep_l1_view) */
        if (!(h->timing = mem_timing_new(c, err)))
            goto fail;
        h->res.timed = 1;
        h->res.timing = c->timing;
        h->res.slices = h->slices;
        h->res.l2_queues = mem_timing_l2_queues(h->timing);
        h->res.dram_queues = mem_timing_dram_queues(h->timing);
    }
    h->sharing = o->track_sharing || h->o.l1_spec.replacement->needs_sharing ||
                 h->o.l2_spec.replacement->needs_sharing;
    h->res.sharing_tracked = h->sharing;
    /* The ring reads every SM's L1 (a remote hit), so it needs them all
     * now; otherwise an SM's L1 is made when the SM first issues
     * (sm_begin). */
    for (uint32_t s = 0; o->ccn.enabled && s < h->sms; s++)
        if (!(h->l1[s] = make_l1(h, s, err)))
            goto fail;
    if (o->ccn.enabled && add_ring(h, kernel_count, err) != 0)
        goto fail;
    if ((o->lcm.bypass || o->lcm.coalesce) && add_lcm(h, kernel_count, err) != 0)
        goto fail;
    /* The fill waits when a stage may route the miss or filter the fill. */
    h->fill_later = h->sharing;
    for (uint32_t i = 0; i < h->o.stage_count; i++) {
        h->fill_later |= h->o.stages[i].miss_route || h->o.stages[i].fill_filter;
        h->has_front_end |= h->o.stages[i].front_end != NULL;
    }
    /* An L2 answered from the stream (l2_by_touch) never looks a slice up:
     * it has none (a third of a poise hierarchy's memory, ~39 MB over the
     * sweep's grid), and flush_l2 and the policy statistics skip them
     * (plain LRU keeps none). */
    for (uint32_t s = 0; !o->l2_by_touch && s < h->slices; s++)
        if (!(h->l2[s] = make_cache(&c->l2, &h->o.l2_spec, h->slices, o->l2_param, o, 1000 + s,
                                    h->sharing, err)))
            goto fail;
    if (o->collect < COLLECT_NONE &&
        !(h->collectors = l1_collectors_new(h->sms, (uint32_t)cache_config_lines(&c->l1),
                                            o->collect == COLLECT_ALL, &h->res, &h->kernel, err)))
        goto fail;
    h->path = direct_path(h)  ? PATH_DIRECT
              : timed_path(h) ? (h->collectors ? PATH_TIMED_COLLECTED : PATH_TIMED)
                              : PATH_GENERAL;
    for (uint32_t i = 0; i < h->o.observer_count; i++) {
        const l1_observer *ob = &h->o.observers[i];
        const int has[L1_EVENTS] = {ob->lookup != NULL, ob->hit != NULL, ob->miss != NULL,
                                    ob->fill != NULL, ob->depart != NULL, ob->store != NULL,
                                    ob->instruction_end != NULL, ob->requests != NULL,
                                    ob->transfer != NULL};
        for (int e = 0; e < L1_EVENTS; e++)
            if (has[e])
                h->on[e][h->on_count[e]++] = ob;
    }
    return h;
fail:
    hierarchy_free(h);
    return NULL;
}

/* ---- L1 events to the collectors (hierarchy.h) ---- */

/* Raises an event: to the built-in collectors, then to every subscriber
 * of the caller's with a hook for it. */
#define RAISE(h, path, event, hook, ...)                                                 \
    do {                                                                                 \
        if (collectors_on(h, path) && l1_collectors_##hook((h)->collectors, __VA_ARGS__) != 0) \
            return -1;                                                                   \
        for (uint32_t o_ = 0; o_ < subscribers_on(h, path, event); o_++)                 \
            if ((h)->on[event][o_]->hook((h)->on[event][o_]->ctx, __VA_ARGS__) != 0)      \
                return -1;                                                               \
    } while (0)

HOT int on_lookup(hierarchy *h, int path, const replay_issue *is, uint64_t line, ws_error *err)
{
    RAISE(h, path, EV_LOOKUP, lookup, is, line, err);
    return 0;
}

HOT int on_hit(hierarchy *h, int path, const replay_issue *is, uint64_t line, uint32_t owner,
               ws_error *err)
{
    RAISE(h, path, EV_HIT, hit, is, line, owner, err);
    return 0;
}

HOT int on_miss(hierarchy *h, int path, const replay_issue *is, uint64_t line, int present,
                ws_error *err)
{
    RAISE(h, path, EV_MISS, miss, is, line, present, err);
    return 0;
}

HOT int on_fill(hierarchy *h, int path, const replay_issue *is, uint64_t line, ws_error *err)
{
    RAISE(h, path, EV_FILL, fill, is, line, err);
    return 0;
}

HOT int on_depart(hierarchy *h, int path, uint32_t sm, uint64_t line, uint32_t evictor,
                  evict_cause cause, ws_error *err)
{
    RAISE(h, path, EV_DEPART, depart, sm, line, evictor, cause, err);
    return 0;
}

HOT int on_store(hierarchy *h, int path, const replay_issue *is, uint64_t line, int present,
                 ws_error *err)
{
    RAISE(h, path, EV_STORE, store, is, line, present, err);
    return 0;
}

/* ---- memory events (hierarchy.h): the traffic counted and heard ---- */

HOT void on_transfer(hierarchy *h, int path, const replay_issue *is, const memory_transfer *t)
{
    for (uint32_t o = 0; o < subscribers_on(h, path, EV_TRANSFER); o++)
        h->on[EV_TRANSFER][o]->transfer(h->on[EV_TRANSFER][o]->ctx, is, t);
}

/* One request from L1 to L2: a load's read, or a store's or write-back's
 * write. */
HOT void count_l1_to_l2(hierarchy *h, int path, const replay_issue *is, uint64_t bytes, int write,
                        int write_back)
{
    traffic_counts *t = &h->kernel->counts.traffic;
    t->l1_to_l2_requests++;
    *(write ? &t->l1_to_l2_write_bytes : &t->l1_to_l2_read_bytes) += bytes;
    on_transfer(h, path, is, &(memory_transfer){.link = LINK_L1_TO_L2,
                                                .write_back = (uint8_t)write_back, .bytes = bytes});
}

/* Bytes read from or written to DRAM, into `t` (the kernel's, or the
 * total's for the flush of L2). */
HOT void count_dram(hierarchy *h, int path, traffic_counts *t, const replay_issue *is,
                    uint64_t bytes, int write, int write_back)
{
    *(write ? &t->dram_write_bytes : &t->dram_read_bytes) += bytes;
    on_transfer(h, path, is, &(memory_transfer){.link = LINK_L2_TO_DRAM,
                                                .write_back = (uint8_t)write_back, .bytes = bytes});
}

/* ---- next-use positions for OPT ---- */

static uint64_t l1_key(uint32_t sm, uint64_t line)
{
    return line ^ ((uint64_t)(sm + 1) << 52); /* private L1s: (SM, line) */
}

/* Every lookup of a cache calls this exactly once, in replay order, so the
 * recording pass and the OPT pass see the same sequence. */
static int next_use(nextuse *record, nextuse *next, uint64_t key, uint64_t *out, ws_error *err)
{
    *out = NEXTUSE_NEVER;
    if (record && nextuse_record(record, key, err) != 0)
        return -1;
    return next ? nextuse_read(next, out, err) : 0;
}

/* A store invalidates the key: recorded as a kill, read back and ignored
 * in the OPT pass, so both passes keep the same positions. */
static int next_use_kill(nextuse *record, nextuse *next, uint64_t key, ws_error *err)
{
    uint64_t ignored;
    if (record && nextuse_record_kill(record, key, err) != 0)
        return -1;
    return next ? nextuse_read(next, &ignored, err) : 0;
}

/* An L1 load's next use.  Behind a front-end stage (LCM) the stream is
 * keyed as it entered the stages (hierarchy_instruction), since what the
 * stages leave to L1 depends on the L1's own contents: OPT's recording pass
 * and OPT's replay then agree position for position. */
static int l1_next_use(hierarchy *h, const replay_issue *is, uint64_t line, uint64_t *out,
                       ws_error *err)
{
    if (!h->front_keyed)
        return next_use(h->o.record_l1, h->o.l1_next, l1_key(is->sm, line), out, err);
    *out = NEXTUSE_NEVER;
    for (int i = 0; i < h->front_n; i++)
        if (h->front_lines[i] == line) {
            *out = h->front_next[i];
            break;
        }
    return 0;
}

/* Keys every request of a load that would look L1 up, before the stages
 * rewrite them (l1_next_use). */
static int key_before_stages(hierarchy *h, const replay_issue *is, const ws_request *requests,
                             int n, ws_error *err)
{
    h->front_keyed = 1;
    h->front_n = n;
    for (int i = 0; i < n; i++) {
        h->front_lines[i] = requests[i].line_addr >> h->line_shift;
        if (next_use(h->o.record_l1, h->o.l1_next, l1_key(is->sm, h->front_lines[i]),
                     &h->front_next[i], err) != 0)
            return -1;
    }
    return 0;
}

/* ---- the levels ---- */

static uint64_t sector_bytes(uint8_t mask)
{
    return (uint64_t)__builtin_popcount(mask) * REQUEST_SECTOR_BYTES;
}

/* Sector accounting (docs/metrics.md §7) of one request to a sectored level:
 * the sectors it asked for, those found valid, and whether the line was
 * pending (its valid sectors are then pending hits, MSHR merges). */
static void count_sectors(level_counts *l, uint8_t asked, uint8_t found, int pending)
{
    uint64_t hits = (uint64_t)__builtin_popcount(found);
    l->sector_requests += (uint64_t)__builtin_popcount(asked);
    *(pending ? &l->sector_pending_hits : &l->sector_hits) += hits;
}

/* The request a policy sees, built here for both levels (DESIGN: one
 * place): the instruction's metadata and the warp's GTO age rank, made
 * once an instruction (issue_req_of: an instruction of many requests
 * copies them), then Req and coherence of its instruction (rq, NULL for a
 * write-back), the line and the sectors. */
static cache_req issue_req_of(const replay_issue *is)
{
    return (cache_req){.next_use = NEXTUSE_NEVER, .pc = is->pc, .warp = is->warp,
                       .warp_slot = is->warp_slot, .scheduler = is->scheduler, .sm = is->sm,
                       .kernel = is->kernel, .age_rank = is->age_rank, .kind = is->kind,
                       .space = is->space, .cache_op = is->cache_op};
}

/* A request's own fields: its line and sectors, and Req and coherence of
 * its instruction (0 for a write-back's, rq NULL). */
HOT void set_request(cache_req *q, const ws_request *rq, uint64_t line, uint8_t sectors)
{
    q->line = line;
    q->sector_mask = sectors;
    q->line_addr = rq ? rq->line_addr : 0;
    q->req_count = rq ? rq->req_count : 0;
    q->coherent = rq ? rq->req_count <= 2 : 0;
}

HOT void make_req(const hierarchy *h, const ws_request *rq, uint64_t line, uint8_t sectors,
                  cache_req *q)
{
    *q = h->issue_req;
    set_request(q, rq, line, sectors);
}

/* make_req where `path` lets the request be h->issue_req itself: on the
 * direct and timed paths nothing reads a request after the next is made
 * (no stage keeps it, no fill waits for L2) nor writes it but
 * set_request's fields, so they are set in place instead of the whole
 * request copied per access (bench/RESULTS.md, "Branch hier42").
 * Elsewhere a copy into *local. */
HOT cache_req *request_for(hierarchy *h, int path, const ws_request *rq, uint64_t line,
                           uint8_t sectors, cache_req *local)
{
    if (hooks_on(path)) {
        make_req(h, rq, line, sectors, local);
        return local;
    }
    set_request(&h->issue_req, rq, line, sectors);
    return &h->issue_req;
}

/* What a request does at L2: a load's read, a store's write, or the
 * write-back of a dirty L1 line. */
/* L2_READ_NO_FILL: a read that takes no L2 line on a miss (S0's local
 * misses, docs/metrics.md §9). */
typedef enum l2_op { L2_READ, L2_WRITE, L2_WRITE_BACK, L2_READ_NO_FILL } l2_op;

/* Timed (docs/metrics.md §12): bytes that cross a slice's DRAM channel
 * from `at`; returns when the transfer starts. */
HOT uint64_t dram_slot(hierarchy *h, int path, uint32_t slice, uint64_t at, uint64_t bytes)
{
    return timed_on(h, path) ? mem_timing_dram(h->timing, slice, at, bytes) : at;
}

/* l2_access of an l2_by_touch hierarchy (analyzer/l2_touch.h): no line is
 * ever evicted, so a request hits unless it is its line's first; a first
 * read fetches the line from DRAM, a first write allocates it dirty.  The
 * counts are those of the slices' LRU in that case: a whole-line L2 has no
 * sector misses, no pending lines (functional), no bypasses (LRU always
 * allocates in a set with a free way), no shared lines, no victims. */
HOT void l2_by_touch(hierarchy *h, int path, const replay_issue *is, uint64_t line, int write,
                     int *hit, uint8_t *flags)
{
    replay_counts *k = &h->kernel->counts;
    int found = !(h->touch & L2_TOUCH_FIRST);
    k->l2.accesses++;
    k->l2.writes += write != 0;
    k->l2.hits += found;
    k->l2.misses += !found;
    on_transfer(h, path, is, &(memory_transfer){.link = LINK_L2_LOOKUP, .hit = (uint8_t)found,
                                                .slice = fastdiv_remainder(h->by_slices, line)});
    if (hit)
        *hit = found;
    if (flags)
        *flags = 0;
    if (!write && !found)
        count_dram(h, path, &k->traffic, is, h->line_bytes, 0, 0);
    h->l2_dirty_lines += write && (h->touch & L2_TOUCH_FIRST_WRITE);
}

static int l2_slices_general(hierarchy *h, const replay_issue *is, uint64_t line,
                             uint8_t sectors, const uint64_t *written_bytes, l2_op op, int *hit,
                             uint8_t *flags, uint64_t *back, ws_error *err);
HOT int l2_slices_timed(hierarchy *h, const replay_issue *is, uint64_t line, uint8_t sectors,
                        const uint64_t *written_bytes, l2_op op, int *hit, uint8_t *flags,
                        uint64_t *back, ws_error *err);

/* A read or write of `sectors` of a line at L2, arriving at h->now; a
 * write's `written_bytes` are the line's bytes it writes (what an L2 under
 * `lazy-fetch` needs, docs/metrics.md §7; NULL: its sectors whole).  *hit
 * is set for reads (the latency model needs it), *flags to the line's
 * flags after the access (LINE_SHARED: the L1 fill's hint); timed, *back
 * (when not NULL) to the cycle a read's data is back at the SM.  `path`:
 * the request's (above); the slices' steps are compiled for the timed
 * path and for the others. */
HOT int l2_access(hierarchy *h, int path, const replay_issue *is, uint64_t line, uint8_t sectors,
                  const uint64_t *written_bytes, l2_op op, int *hit, uint8_t *flags, uint64_t *back,
                  ws_error *err)
{
    if (!timed_path_of(path) && h->o.l2_by_touch) { /* no write-backs (l2_touch_fits), no stages */
        l2_by_touch(h, path, is, line, op == L2_WRITE || op == L2_WRITE_BACK, hit, flags);
        return 0;
    }
    return timed_path_of(path)
               ? l2_slices_timed(h, is, line, sectors, written_bytes, op, hit, flags, back, err)
               : l2_slices_general(h, is, line, sectors, written_bytes, op, hit, flags, back, err);
}

/* l2_access through the slices. */
HOT int l2_slices(hierarchy *h, int path, const replay_issue *is, uint64_t line, uint8_t sectors,
                  const uint64_t *written_bytes, l2_op op, int *hit, uint8_t *flags,
                  uint64_t *back, ws_error *err)
{
    replay_counts *k = &h->kernel->counts;
    int write = op == L2_WRITE || op == L2_WRITE_BACK, write_back = op == L2_WRITE_BACK;
    cache_req local, *q = request_for(h, path, NULL, line, sectors, &local);
    if (hooks_on(path) && next_use(h->o.record_l2, h->o.l2_next, line, &q->next_use, err) != 0)
        return -1;
    cache_result r;
    uint32_t slice_index = fastdiv_remainder(h->by_slices, line);
    cache *slice = h->l2[slice_index];
    /* Timed: the slice looks the request up when its queue reaches it. */
    /* docs/metrics.md §12: a sectored L2 looks each sector up in its own slot. */
    uint32_t units = h->l2_sectored ? (uint32_t)__builtin_popcount(sectors) : 1;
    uint64_t at = timed_on(h, path) ? mem_timing_l2(h->timing, slice_index, h->now, units) : h->now;
    if (write && h->l2_lazy_fetch) {
        uint64_t whole_sectors[REQUEST_MASK_WORDS] = {0};
        for (uint32_t s = 0; !written_bytes && s < 8; s++) /* a write-back's: its sectors whole */
            if (sectors >> s & 1)
                whole_sectors[s / 2] |= UINT64_C(0xffffffff) << (s % 2 * 32);
        cache_write_lazy(slice, q, written_bytes ? written_bytes : whole_sectors, at, &r);
    }
    else if (write)
        cache_write(slice, q, at, &r);
    else
        cache_read(slice, q, op != L2_READ_NO_FILL, at, &r);
    if (back && write) /* a store's acknowledgement, an atomic's value, from its slice */
        *back = at + h->o.config.l2_latency;
    k->l2.accesses++;
    k->l2.writes += write != 0;
    if (h->l2_sectored)
        count_sectors(&k->l2, sectors, r.hit_sectors, r.pending);
    if (r.hit) {
        k->l2.hits += !r.pending; /* a merge into a fill in flight is counted apart */
        k->l2.pending_hits += r.pending;
        if (back && timed_on(h, path)) { /* the functional replay reads no data-back cycle */
            uint64_t ready = at + h->o.config.l2_latency, fill = cache_slot_ready(slice, r.slot);
            *back = r.pending && fill > ready ? fill : ready;
        }
    } else {
        k->l2.misses++;
        k->l2.sector_misses += r.present;
        k->l2.bypasses += !r.present && !r.allocated;
    }
    on_transfer(h, path, is, &(memory_transfer){.link = LINK_L2_LOOKUP,
                                                .write_back = (uint8_t)write_back,
                                                .hit = (uint8_t)r.hit, .slice = slice_index});
    if (hit)
        *hit = r.hit;
    if (flags)
        *flags = r.line_flags;
    /* S0 §VI: each L2 fill starts private; a second SM's hit shares it */
    if (hooks_on(path) && h->sharing) {
        replay_kernel *rk = h->kernel;
        rk->l2_fills += r.allocated;
        rk->l2_became_shared += r.became_shared;
        if (r.hit && !write && (r.line_flags & LINE_SHARED)) { /* a shared line's re-reference */
            rk->shared_rereferences++;
            rk->shared_rereferences_late += cache_slot_filled_long_ago(
                slice, r.slot, is->kernel, at, SHARING_LONG_INTERVAL);
        }
    }
    uint64_t line_bytes = h->line_bytes;
    if (!write && !r.hit) {
        uint64_t bytes = h->l2_sectored ? sector_bytes(r.fetch_sectors) : line_bytes;
        count_dram(h, path, &k->traffic, is, bytes, 0, 0);
        uint64_t ready = dram_slot(h, path, slice_index, at, bytes) + h->o.config.dram_latency;
        if (back)
            *back = ready;
        if (timed_on(h, path) && r.allocated) /* later requests merge into this fill */
            cache_set_ready(slice, r.slot, ready);
    }
    if (write && !r.present && !r.allocated) { /* a write the policy would not allocate */
        uint64_t bytes = h->l2_sectored ? sector_bytes(sectors) : line_bytes;
        count_dram(h, path, &k->traffic, is, bytes, 1, write_back);
        dram_slot(h, path, slice_index, at, bytes);
    }
    if (r.evicted && r.victim_dirty) {
        uint64_t bytes = h->l2_sectored ? sector_bytes(r.victim_dirty) : line_bytes;
        count_dram(h, path, &k->traffic, is, bytes, 1, 1);
        dram_slot(h, path, slice_index, at, bytes);
    }
    return 0;
}

/* l2_slices' two instances (l2_access). */
static int l2_slices_general(hierarchy *h, const replay_issue *is, uint64_t line,
                             uint8_t sectors, const uint64_t *written_bytes, l2_op op, int *hit,
                             uint8_t *flags, uint64_t *back, ws_error *err)
{
    return l2_slices(h, PATH_GENERAL, is, line, sectors, written_bytes, op, hit, flags, back, err);
}

HOT int l2_slices_timed(hierarchy *h, const replay_issue *is, uint64_t line, uint8_t sectors,
                        const uint64_t *written_bytes, l2_op op, int *hit, uint8_t *flags,
                        uint64_t *back, ws_error *err)
{
    return l2_slices(h, PATH_TIMED, is, line, sectors, written_bytes, op, hit, flags, back, err);
}

/* A fill replaced a valid line: the collectors hear of it, and a dirty
 * (local) line is written back to L2. */
HOT int l1_evicted(hierarchy *h, int path, const replay_issue *is, const cache_result *r,
                   ws_error *err)
{
    if (!r->evicted)
        return 0;
    if (measured_on(h, path)) {
        h->ref->evicted = 1;
        h->ref->victim_line = r->victim_line;
        h->ref->victim_warp = r->victim_warp;
    }
    if (on_depart(h, path, is->sm, r->victim_line, is->warp, EVICT_REPLACE, err) != 0)
        return -1;
    if (!r->victim_dirty) /* global lines are never dirty: only local write-backs */
        return 0;
    count_l1_to_l2(h, path, is, h->l1_sectored ? sector_bytes(r->victim_dirty) : h->line_bytes, 1,
                   1);
    return l2_access(h, path, is, r->victim_line,
                     h->l1_sectored ? r->victim_dirty : h->all_sectors, NULL, L2_WRITE_BACK, NULL,
                     NULL, NULL, err);
}

/* ---- MSHRs (timed, docs/metrics.md §12) ----
 *
 * Of several entries that fit, each question answers with the first by
 * index: which entry a fill takes, and which a merge joins when a line has
 * two in flight (one invalidated by a store and fetched again), are part
 * of the figures. */

static mshr_entry *mshrs_of(hierarchy *h, uint32_t sm)
{
    return h->mshr + (size_t)sm * h->mshr_entries;
}

/* An MSHR of sm free at `now` (its fill has arrived), or NULL and then
 * *soonest, when the first of them frees.  The soonest is looked for in a
 * second pass, only when every entry is busy: the first pass mostly stops
 * early, and a minimum kept along it cost more than the rare second
 * pass. */
HOT mshr_entry *mshr_free(hierarchy *h, uint32_t sm, uint64_t now, uint64_t *soonest)
{
    mshr_entry *e = mshrs_of(h, sm);
    for (uint32_t i = 0; i < h->mshr_entries; i++)
        if (e[i].ready <= now)
            return &e[i];
    uint64_t least = UINT64_MAX;
    for (uint32_t i = 0; i < h->mshr_entries; i++)
        if (e[i].ready < least)
            least = e[i].ready;
    *soonest = least;
    return NULL;
}

/* The MSHR of sm holding `line` in flight at `now`, or NULL. */
HOT mshr_entry *mshr_of_line(hierarchy *h, uint32_t sm, uint64_t line, uint64_t now)
{
    mshr_entry *e = mshrs_of(h, sm);
    for (uint32_t i = 0; i < h->mshr_entries; i++)
        if (e[i].ready > now && e[i].line == line)
            return &e[i];
    return NULL;
}

/* Timed (docs/metrics.md §12): a load waits at its L1, holding the LD/ST
 * unit, until it can go on: for a line in flight, a merge slot (else until
 * the line arrives); for a new line it would allocate, a free MSHR and a
 * way of its set that is not pending (GPGPU-Sim's reservation fails).  So
 * it is a stall, never a bypass.  Advances h->now; returns the cycles
 * waited.  The wait changes no cache: the line's slot (or its absence),
 * found once, holds at every retry.  *take is the MSHR a new fill takes
 * (one free at the final h->now), NULL when the load takes none (its line
 * is there, or it does not allocate); *merge, when the line is in flight
 * at the final h->now, its MSHR, whose merge slot the load takes (NULL:
 * none holds it); *slot is cache_find's answer on the line, which the
 * read that follows the wait reuses.  Inline: every timed L1 request
 * waits here. */
HOT uint64_t wait_for_l1(hierarchy *h, cache *l1, uint32_t sm, uint64_t line, int allocate,
                         mshr_entry **take, mshr_entry **merge, int64_t *slot)
{
    uint64_t from = h->now, soonest = 0;
    int64_t at = *slot = cache_find(l1, line);
    *take = *merge = NULL;
    for (;;) {
        uint64_t until = cache_slot_pending_until(l1, at, h->now);
        if (until) {
            *merge = mshr_of_line(h, sm, line, h->now);
            if (!*merge || (*merge)->merges < h->o.config.mshr_merges)
                break;
            *merge = NULL;
            h->now = until; /* every merge slot taken: the retry hits the arrived line */
        } else if (at >= 0 || !allocate) {
            break;
        } else if (!(*take = mshr_free(h, sm, h->now, &soonest))) {
            h->now = soonest;
        } else {
            uint64_t way = cache_replaceable_from(l1, line, h->now);
            if (way == h->now)
                break;
            h->now = way;
        }
    }
    return h->now - from;
}

/* ---- the stages (hierarchy.h) ---- */

/* A miss on its way down: a stage may serve it (1: no L1->L2 request), or
 * have L2 serve it without taking a line (2); else L2 does (0), and says
 * whether the line is shared.  Returns the route, or -1 on error; timed, *back is when the
 * data is back at the SM. */
HOT int route_miss(hierarchy *h, int path, const replay_issue *is, l1_miss *m, int *l2_hit,
                   uint64_t *back, ws_error *err)
{
    for (uint32_t i = 0; i < stages_on(h, path); i++) {
        const hierarchy_stage *st = &h->o.stages[i];
        int routed = st->miss_route ? st->miss_route(st->ctx, is, m) : 0;
        if (routed == 1) {
            *back = h->now + m->latency;
            return 1;
        }
        if (routed == 2) /* L2 serves a hit; a miss comes from DRAM and takes no L2 line */
            return l2_access(h, path, is, m->line, m->sectors, NULL, L2_READ_NO_FILL, l2_hit,
                             &m->fill_hint, back, err) != 0 ? -1 : 2;
    }
    /* Timed: the cycles a stage spent before L2 (a round of the CCN ring,
     * S3 §4.4.2: "if the request travels back to the requesting core
     * without a reuse copy, it is finally sent to L2") delay the request's
     * arrival at its slice, not the LD/ST unit, which h->now holds. */
    uint64_t left_l1 = h->now;
    if (timed_on(h, path))
        h->now += m->latency;
    int rc = l2_access(h, path, is, m->line, m->sectors, NULL, L2_READ, l2_hit, &m->fill_hint, back,
                       err);
    h->now = left_l1;
    return rc != 0 ? -1 : 0;
}

/* Whether every stage lets the L1 fill go ahead. */
static int fill_allowed(hierarchy *h, const replay_issue *is, uint64_t line, uint8_t fill_hint,
                        uint64_t victim_line, uint8_t victim_flags)
{
    for (uint32_t i = 0; i < h->o.stage_count; i++) {
        const hierarchy_stage *st = &h->o.stages[i];
        if (st->fill_filter &&
            !st->fill_filter(st->ctx, is, line, fill_hint, victim_line, victim_flags))
            return 0;
    }
    return 1;
}

/* ---- one request ---- */

/* Whether the instruction's warp may allocate in L1: neither its warp order
 * nor the hierarchy's p (S3 ch. 5) bars it; a barred warp may still hit. */
static int may_allocate(const hierarchy *h, const replay_issue *is)
{
    return !is->no_allocate && (!h->o.allocate_p || is->age_rank < h->o.allocate_p);
}

/* A load (global or local) through L1, in the steps of cache.h: probe; on a
 * miss, choose the way, route the miss down, let the stages filter the
 * fill, fill.  Returns 1 if it missed, -1 on error.  A bypassed load (its
 * cache operator, admission, or the policy's choice) never looks L1 up nor
 * changes it, gets no miss class and is no μRC candidate; MPLI counts it as
 * a miss (docs/metrics.md §8, §9). */
HOT int l1_load(hierarchy *h, int path, const replay_issue *is, const ws_request *rq,
                replay_pc *pc, l1_route route, ws_error *err)
{
    replay_counts *k = &h->kernel->counts;
    uint64_t line = rq->line_addr >> h->line_shift;
    k->l1.accesses++;
    pc->accesses++;
    uint8_t sectors = l1_request_sectors(rq->sector_mask, h->all_sectors);
    cache *l1 = h->l1[is->sm];
    /* Timed: L1's answer on the request, held here rather than read
     * through h after every count the compiler must assume aliases it. */
    replay_ref *ref = measured_on(h, path) ? h->ref : NULL; /* none on the direct path */
    cache_req local, *q = NULL; /* the request L1 sees (request_for) */
    /* Set by the L1's answer (cache.h: its flags always, the rest under
     * them), or cleared for a load that never looks L1 up. */
    cache_result r;
    cache_way way = {POLICY_BYPASS};
    mshr_entry *take = NULL, *merge = NULL; /* timed: the MSHR a new fill takes, a merge joins */
    int64_t slot = -1;                      /* timed: the line's, as the wait found it */
    /* A throttled warp may hit, never allocate (S3 ch. 5). */
    int polluting = may_allocate(h, is);
    if (!polluting) /* the polluting ones are the rest (sum_polluting) */
        k->non_polluting_accesses++;
    if (route != L1_BYPASS) {
        q = request_for(h, path, rq, line, sectors, &local);
        if (hooks_on(path) && l1_next_use(h, is, line, &q->next_use, err) != 0)
            return -1;
        int allocate = polluting;
        if (timed_on(h, path)) { /* it waits, if it must, for a merge slot or what a fill needs */
            k->l1.reservation_fails +=
                wait_for_l1(h, l1, is->sm, line, allocate, &take, &merge, &slot) != 0;
        }
        /* the fill waits for L2 and the stages: it comes after */
        if (hooks_on(path) && h->fill_later) {
            cache_probe(l1, q, 0, h->now, &r);
            if (allocate && !r.present && !r.bypassed)
                way = cache_choose(l1, q, h->now, &r);
        } else if (timed_on(h, path)) { /* the three steps at once, the line found */
            cache_read_found(l1, q, allocate, h->now, slot, &r);
            way.way = r.allocated ? 0 : POLICY_BYPASS;
        } else { /* nothing to wait for: the three steps at once */
            cache_read(l1, q, allocate, h->now, &r);
            way.way = r.allocated ? 0 : POLICY_BYPASS;
        }
        if (!r.bypassed && on_lookup(h, path, is, line, err) != 0)
            return -1;
        if (ref) {
            ref->outcome = r.bypassed ? L1_BYPASS : L1_LOOKUP;
            ref->hit = r.hit;
            ref->present = r.present;
        }
        if (path != PATH_DIRECT && r.hit && r.pending) { /* a merge: wait_for_l1 left it a slot */
            if (merge)
                merge->merges++;
            k->l1.pending_hits++;
            /* S0 §VI-C: a request to a shared line served by the MSHR */
            h->kernel->shared_mshr_hits +=
                hooks_on(path) && h->sharing && (cache_slot_flags(l1, r.slot) & LINE_SHARED);
        }
    }
    if (route == L1_BYPASS)
        r = (cache_result){0};
    int bypassed = route == L1_BYPASS || r.bypassed;
    if (h->l1_sectored)
        count_sectors(&k->l1, sectors, r.hit_sectors, r.pending);
    if (r.hit) {
        k->l1.hits += !r.pending; /* a pending hit is counted apart (docs/metrics.md §7) */
        if (!polluting)
            k->non_polluting_hits++;
        pc->hits++;
        h->res.sm_hits[is->sm] += !r.pending; /* as the totals count them */
        if (timed_on(h, path)) { /* the data: now, or with the fill it merged into */
            uint64_t ready = h->now + h->o.config.timing.l1_latency;
            uint64_t fill = r.pending ? cache_slot_ready(l1, r.slot) : 0;
            h->back = fill > ready ? fill : ready;
            uint8_t served = r.pending ? SERVED_L1_MERGE : SERVED_L1;
            if (ref)
                ref->served = served;
            latency_add(&k->latency, served, h->back - is->step);
        }
        int same = r.owner_warp == is->warp;
        *(same ? &k->intra_warp_hits : &k->inter_warp_hits) += 1;
        *(same ? &pc->intra_warp_hits : &pc->inter_warp_hits) += 1;
        return on_hit(h, path, is, line, r.owner_warp, err) != 0 ? -1 : 0;
    }
    /* A miss: count and classify it, then fetch from below. */
    k->l1.misses++;
    pc->misses++;
    h->res.sm_misses[is->sm]++;
    int allocating = way.way != POLICY_BYPASS;
    /* A miss that takes no line: a bypass if it never looked L1 up (its
     * cache operator, admission, or the policy's choice: docs/metrics.md §9),
     * else a miss with its class that did not allocate (a throttled warp's,
     * S3 ch. 5). */
    int not_allocated = !allocating && !r.present;
    k->l1.sector_misses += r.present;
    k->l1.bypasses += not_allocated && bypassed;
    k->l1.misses_not_allocated += not_allocated && !bypassed;
    pc->bypasses += not_allocated && bypassed;
    if (!bypassed && on_miss(h, path, is, line, r.present, err) != 0)
        return -1;
    /* A whole line for an unsectored fill; otherwise the 32 B sectors that
     * are missing (sector miss, sectored fill) or asked for (bypass). */
    uint8_t fetch = r.present || allocating ? r.fetch_sectors : sectors;
    if (!fetch)
        fetch = sectors;
    uint64_t bytes = sector_bytes(fetch);
    /* An unsectored fill takes the whole line: a new one, or one a store
     * allocated without writing it all (r.fetch_sectors set on a present
     * line).  A merge over the cap (present, nothing to fetch) is served
     * like a bypass. */
    if ((allocating || (r.present && r.fetch_sectors)) && !h->l1_sectored) {
        fetch = h->all_sectors;
        bytes = h->line_bytes;
    }
    int l2_hit = 0;
    l1_miss m = {.line = line, .req = q, .sectors = fetch,
                 .fills = allocating || r.present, .at = h->now};
    if (timed_on(h, path) && r.stalled && r.stall_until > h->now) { /* the policy waits for a way */
        k->l1.reservation_fails++;
        h->now = r.stall_until;
    }
    uint64_t back = h->now;
    int routed = route_miss(h, path, is, &m, &l2_hit, &back, err);
    if (routed < 0)
        return -1;
    if (timed_on(h, path)) {
        h->back = back;
        uint8_t served = routed == 1 ? SERVED_REMOTE_L1 : l2_hit ? SERVED_L2 : SERVED_DRAM;
        if (ref)
            ref->served = served;
        latency_add(&k->latency, served, back - is->step);
    }
    if (routed != 1) { /* it left for the memory side */
        count_l1_to_l2(h, path, is, bytes, 0, 0);
        pc->traffic_bytes += bytes;
    }
    h->kernel->shared_misses += hooks_on(path) && h->sharing && (m.fill_hint & LINE_SHARED);
    uint64_t below = routed == 1 ? 0 : l2_hit ? h->o.config.l2_latency : h->o.config.dram_latency;
    k->load_miss_latency += timed_on(h, path) ? back - is->step : m.latency + below;
    if (!allocating)
        return 1;
    if (hooks_on(path) && h->fill_later) {
        q->fill_hint = m.fill_hint;
        if (!fill_allowed(h, is, line, m.fill_hint, cache_way_line(l1, &r, way),
                                              cache_way_flags(l1, &r, way)))
            return 1; /* the stage kept the line out: the victim stays */
        cache_fill(l1, q, way, 0, &r);
    }
    if (ref)
        ref->filled = 1;
    if (l1_evicted(h, path, is, &r, err) != 0 || on_fill(h, path, is, line, err) != 0)
        return -1;
    if (timed_on(h, path)) { /* pending until its data is back: later requests merge into it */
        cache_set_ready(l1, r.slot, back);
        if (take)
            *take = (mshr_entry){.line = line, .ready = back};
    }
    return 1;
}

/* A global store or atomic: write-evict in L1, write through to L2. */
HOT int global_write(hierarchy *h, int path, const replay_issue *is, const ws_request *rq,
                     ws_error *err)
{
    replay_counts *k = &h->kernel->counts;
    uint64_t line = rq->line_addr >> h->line_shift;
    if (hooks_on(path) &&
        next_use_kill(h->o.record_l1, h->o.l1_next, l1_key(is->sm, line), err) != 0)
        return -1;
    int present = cache_invalidate(h->l1[is->sm], line);
    if (present && measured_on(h, path)) { /* as the reference L1 says it: no filler to blame */
        h->ref->evicted = 1;
        h->ref->victim_line = line;
    }
    k->l1.write_evicts += (uint64_t)present;
    if (present && on_depart(h, path, is->sm, line, is->warp, EVICT_INVALIDATE, err) != 0)
        return -1;
    if (on_store(h, path, is, line, present, err) != 0)
        return -1;
    uint8_t sectors = l1_request_sectors(rq->sector_mask, h->all_sectors);
    count_l1_to_l2(h, path, is, sector_bytes(sectors), 1, 0);
    return l2_access(h, path, is, line, sectors, rq->byte_mask, L2_WRITE, NULL, NULL, &h->back,
                     err);
}

/* A global store under the `allocate` write policy (docs/metrics.md §7):
 * written through to L2 and allocated in L1, where only the sectors it
 * writes whole become valid.  A warp barred from allocating (S3 ch. 5)
 * updates a line that is there and allocates none. */
static int global_write_allocate(hierarchy *h, const replay_issue *is, const ws_request *rq,
                                 ws_error *err)
{
    uint64_t line = rq->line_addr >> h->line_shift;
    uint8_t sectors = l1_request_sectors(rq->sector_mask, h->all_sectors);
    cache_req q;
    make_req(h, rq, line, sectors, &q);
    if (next_use(h->o.record_l1, h->o.l1_next, l1_key(is->sm, line), &q.next_use, err) != 0)
        return -1;
    int allocate = may_allocate(h, is);
    cache_result r;
    cache_write_through(h->l1[is->sm], &q, l1_whole_sectors(rq->byte_mask, h->line_bytes), allocate,
                        h->now, &r);
    h->kernel->counts.l1.writes++;
    if ((!r.bypassed && on_lookup(h, PATH_GENERAL, is, line, err) != 0) ||
        l1_evicted(h, PATH_GENERAL, is, &r, err) != 0 ||
        (r.allocated && on_fill(h, PATH_GENERAL, is, line, err) != 0))
        return -1;
    count_l1_to_l2(h, PATH_GENERAL, is, sector_bytes(sectors), 1, 0);
    return l2_access(h, PATH_GENERAL, is, line, sectors, rq->byte_mask, L2_WRITE, NULL, NULL,
                     &h->back, err);
}

/* A local store: write-back, write-allocate in L1. */
static int local_write(hierarchy *h, const replay_issue *is, const ws_request *rq, ws_error *err)
{
    uint64_t line = rq->line_addr >> h->line_shift;
    cache_req q;
    make_req(h, rq, line, l1_request_sectors(rq->sector_mask, h->all_sectors), &q);
    if (next_use(h->o.record_l1, h->o.l1_next, l1_key(is->sm, line), &q.next_use, err) != 0)
        return -1;
    cache_result r;
    cache_write(h->l1[is->sm], &q, h->now, &r);
    h->kernel->counts.l1.writes++;
    if (on_lookup(h, PATH_GENERAL, is, line, err) != 0 ||
        l1_evicted(h, PATH_GENERAL, is, &r, err) != 0)
        return -1;
    if (r.allocated && on_fill(h, PATH_GENERAL, is, line, err) != 0)
        return -1;
    if (!r.present && !r.allocated) { /* not allocated: straight to L2 */
        count_l1_to_l2(h, PATH_GENERAL, is, sector_bytes(q.sector_mask), 1, 0);
        return l2_access(h, PATH_GENERAL, is, line, q.sector_mask, rq->byte_mask, L2_WRITE, NULL,
                         NULL, &h->back, err);
    }
    h->back = h->now + h->o.config.timing.l1_latency; /* kept in L1: L1 acknowledges it */
    return 0;
}

/* ---- the LD/ST unit (timed, docs/metrics.md §12) ---- */

/* The cycle of an LD/ST slot, `rate` (>= 1) slots a cycle: the default
 * rate of 1 skips the division, a 64-bit one on every request.  Written
 * `rate > 1`: GCC folds `rate == 1 ? slot : slot / rate` into the
 * division alone (slot / 1 = slot), which every request then waited on
 * (bench/RESULTS.md, "Branch fuse45"). */
static uint64_t ldst_cycle(uint64_t slot, uint64_t rate)
{
    return rate > 1 ? slot / rate : slot;
}

/* An SM's LD/ST unit while it serves one instruction: its next free slot
 * (in 1 ÷ rate cycles), read from h->ldst_next when the instruction starts
 * and written back when it ends, so that its requests keep it at hand
 * rather than in the hierarchy, which every count written between them
 * might alias; and the rate, ldst_requests_per_cycle. */
typedef struct ldst_unit {
    uint64_t next, rate;
} ldst_unit;

/* The next request of the unit reaches L1: at the issue cycle or after
 * the requests before it, `rate` a cycle. */
static uint64_t ldst_take(ldst_unit *u, uint64_t step)
{
    if (u->next < step * u->rate)
        u->next = step * u->rate;
    return ldst_cycle(u->next++, u->rate);
}

/* After a request: a wait at L1 held the unit until the request went on
 * at `now`. */
static void ldst_release(ldst_unit *u, uint64_t now)
{
    if (u->next < now * u->rate + 1)
        u->next = now * u->rate + 1;
}

static uint64_t ldst_free_at(const ldst_unit *u)
{
    return ldst_cycle(u->next + u->rate - 1, u->rate);
}

void hierarchy_timed_outcome(const hierarchy *h, uint64_t *data_back, uint64_t *ldst_free)
{
    *data_back = h->data_back;
    *ldst_free = h->ldst_free;
}

void hierarchy_keep_l1_view(hierarchy *h, int kept) { h->view_kept = kept; }

int hierarchy_l1_view(const hierarchy *h, const ws_request **requests, const replay_ref **refs)
{
    *requests = h->view_requests;
    *refs = h->view;
    return h->view_n;
}

int hierarchy_instruction(hierarchy *h, const replay_issue *is, const ws_request *requests, int n,
                          ws_error *err)
{
    return hierarchy_instruction_refs(h, is, requests, NULL, n, err);
}

/* hierarchy_instruction_refs once it has checked the instruction; `path`
 * is the path's constant (above). */
HOT int instruction(hierarchy *h, int path, const replay_issue *is, const ws_request *requests,
                    const replay_ref *refs, int n, ws_error *err)
{
    /* hierarchy.h: totals only (never on the timed path) */
    int grid = !timed_path_of(path) && h->o.collect == COLLECT_GRID;
    replay_pc *pc = grid ? &h->unread_pc : &h->kernel->pcs[is->pc];
    int load = is->kind == WST_LOAD;
    uint32_t misses = 0;
    h->issue_req = issue_req_of(is);
    /* The miss classes' entries of a divergent load, fetched ahead; not on
     * the timed path, where it cost more than it saved (3% to 6% of the
     * CPU of syrk, syr2k and spmv's timed compare, none on 2dconv:
     * bench/RESULTS.md, "Branch mshr41"). */
    if (!timed_path_of(path) && collectors_on(h, path) && load && n > 1)
        for (int i = 0; i < n; i++)
            l1_collectors_prefetch(h->collectors, is->sm, requests[i].line_addr >> h->line_shift);
    /* The front-end stages may rewrite the requests (merge, drop). */
    ws_request *staged = h->staged;
    uint8_t bypass_l1 = 0;
    h->front_keyed = 0;
    if (hooks_on(path) && h->has_front_end && (h->o.record_l1 || h->o.l1_next) &&
        l1_route_of(is->kind, is->space, is->cache_op, h->o.config.l1.write) == L1_LOOKUP &&
        key_before_stages(h, is, requests, n, err) != 0)
        return -1;
    for (uint32_t i = 0; i < stages_on(h, path); i++) {
        const hierarchy_stage *st = &h->o.stages[i];
        if (!st->front_end)
            continue;
        if (requests != staged) {
            memcpy(staged, requests, (size_t)n * sizeof *requests);
            requests = staged;
        }
        if ((n = st->front_end(st->ctx, is, staged, n, &bypass_l1, err)) < 0)
            return -1;
    }
    l1_route route = bypass_l1 ? L1_BYPASS
                               : l1_route_of(is->kind, is->space, is->cache_op, h->o.config.l1.write);
    for (uint32_t o = 0; o < subscribers_on(h, path, EV_REQUESTS); o++)
        h->on[EV_REQUESTS][o]->requests(h->on[EV_REQUESTS][o]->ctx, is, requests, n);
    h->data_back = is->step;
    h->view_requests = requests;
    int view = timed_on(h, path) && h->view_kept;
    h->view_n = view ? n : 0;
    if (timed_on(h, path)) /* requests a front end merged away wait for their tags' data */
        for (uint32_t i = 0; i < stages_on(h, path); i++) {
            const hierarchy_stage *st = &h->o.stages[i];
            uint64_t merged = st->merged_back ? st->merged_back(st->ctx) : 0;
            uint64_t soonest = is->step + h->o.config.timing.l1_latency;
            if (merged && soonest > merged)
                merged = soonest; /* no sooner than an L1 hit */
            if (merged > h->data_back)
                h->data_back = merged;
        }
    ldst_unit unit = {0};
    if (timed_on(h, path))
        unit = (ldst_unit){h->ldst_next[is->sm], h->o.config.timing.ldst_requests_per_cycle};
    for (int i = 0; i < n; i++) {
        int rc;
        h->now = timed_on(h, path) ? ldst_take(&unit, is->step) : is->step;
        h->back = h->now;
        /* no stage rewrote the requests; never on the timed path */
        h->touch = !timed_path_of(path) && h->o.l2_by_touch ? refs[i].l2_touch : 0;
        if (view) {
            h->ref = &h->view[i];
            h->view[i] = (replay_ref){.outcome = (uint8_t)route, .measured = 1,
                                      .victim_warp = UINT32_MAX};
        }
        if (route == L1_WRITE_EVICT)
            rc = global_write(h, path, is, &requests[i], err);
        else if (route == L1_WRITE_BACK)
            rc = local_write(h, is, &requests[i], err);
        else if (route == L1_WRITE_ALLOCATE)
            rc = global_write_allocate(h, is, &requests[i], err);
        else
            rc = l1_load(h, path, is, &requests[i], pc, route, err);
        if (rc < 0)
            return -1;
        misses += (uint32_t)(rc == 1);
        if (timed_on(h, path)) {
            if (view) {
                h->view[i].latency = (uint32_t)(h->back - is->step);
                h->ref = NULL;
            }
            ldst_release(&unit, h->now);
            /* the request's answer (a load's data, a store's acknowledgement
             * from L2, or from L1 for a local store it keeps) makes the
             * instruction's */
            if (h->back > h->data_back)
                h->data_back = h->back;
            for (uint32_t s = 0; s < stages_on(h, path); s++)
                if (h->o.stages[s].served)
                    h->o.stages[s].served(h->o.stages[s].ctx, is,
                                          requests[i].line_addr >> h->line_shift, h->back);
        }
    }
    if (timed_on(h, path)) {
        h->ldst_next[is->sm] = unit.next;
        h->ldst_free = ldst_free_at(&unit);
    }
    if (load && is->space == WST_GLOBAL) { /* MPLI counts global warp-loads (docs/metrics.md §8) */
        /* The PC's alone: the kernel's are their sum, made at its end
         * (sum_pcs_mpli). */
        if (grid)
            mpli_count_load(&h->kernel->counts.mpli, (uint32_t)n);
        else
            mpli_add_load(&pc->mpli, (uint32_t)n, misses);
        if (n > 0 && route == L1_LOOKUP && h->o.l1_spec.replacement->load_done) {
            cache_req q;
            make_req(h, &requests[0], requests[0].line_addr >> h->line_shift,
                     requests[0].sector_mask, &q);
            cache_load_done(h->l1[is->sm], &q, misses);
        }
    }
    if (collectors_on(h, path))
        l1_collectors_instruction(h->collectors, is);
    for (uint32_t o = 0; o < subscribers_on(h, path, EV_INSTRUCTION); o++)
        h->on[EV_INSTRUCTION][o]->instruction_end(h->on[EV_INSTRUCTION][o]->ctx, is);
    return 0;
}

int hierarchy_instruction_refs(hierarchy *h, const replay_issue *is, const ws_request *requests,
                               const replay_ref *refs, int n, ws_error *err)
{
    if (h->o.l2_by_touch && !refs && n > 0)
        return ws_fail(err, "replay: an L2 answered from the stream needs the stream's answers");
    if (!h->in_kernel || is->sm >= h->sms)
        return ws_fail(err, "replay: instruction outside a kernel or on SM %u of %u", is->sm, h->sms);
    if (is->pc >= h->kernel->pc_count)
        return ws_fail(err, "replay: PC index %u outside the kernel's %u PCs", is->pc,
                       h->kernel->pc_count);
    if (!h->started[is->sm] && sm_begin(h, is->sm, err) != 0)
        return -1;
    switch (h->path) {
    case PATH_DIRECT: return instruction(h, PATH_DIRECT, is, requests, refs, n, err);
    case PATH_TIMED: return instruction(h, PATH_TIMED, is, requests, refs, n, err);
    case PATH_TIMED_COLLECTED:
        return instruction(h, PATH_TIMED_COLLECTED, is, requests, refs, n, err);
    default: return instruction(h, PATH_GENERAL, is, requests, refs, n, err);
    }
}

int hierarchy_direct(const hierarchy *h) { return h->path == PATH_DIRECT; }

int hierarchy_timed_path(const hierarchy *h) { return timed_path_of(h->path); }

int hierarchy_sm_order_free(const hierarchy *h)
{
    return h->path == PATH_DIRECT && h->o.l2_by_touch;
}

/* ---- kernels ---- */

int hierarchy_kernel_begin(hierarchy *h, uint32_t kernel, uint32_t pc_count, ws_error *err)
{
    if (kernel >= h->res.kernel_count || h->in_kernel)
        return ws_fail(err, "replay: kernel %u out of order", kernel);
    h->kernel = &h->res.kernels[kernel];
    if (!(h->kernel->pcs = calloc(pc_count ? pc_count : 1, sizeof *h->kernel->pcs)))
        return ws_fail(err, "out of memory");
    h->kernel->pc_count = pc_count;
    if (h->collectors && l1_collectors_kernel_begin(h->collectors, kernel, pc_count, err) != 0)
        return -1;
    for (uint32_t o = 0; o < h->o.observer_count; o++)
        if (h->o.observers[o].kernel_begin &&
            h->o.observers[o].kernel_begin(h->o.observers[o].ctx, kernel, pc_count, err) != 0)
            return -1;
    h->in_kernel = 1;
    return 0;
}

static void write_back_l2(void *ctx, uint64_t line, uint8_t dirty)
{
    (void)line;
    hierarchy *h = ctx;
    count_dram(h, PATH_GENERAL, &h->res.total.traffic, NULL,
               h->l2_sectored ? sector_bytes(dirty) : h->line_bytes, 1, 1);
}

/* The L2's dirty lines written back; between kernels (l2_cold) the
 * slices are then emptied, at the end (`final`) only retired: nothing
 * looks them up again, and clearing them cost a run of 2dconv 0.8% of its
 * instructions (bench/RESULTS.md, "Branch hier43"). */
static void flush_l2(hierarchy *h, int final)
{
    for (uint32_t s = 0; !h->o.l2_by_touch && s < h->slices; s++) {
        cache_dirty_lines(h->l2[s], write_back_l2, h);
        (final ? cache_retire : cache_flush)(h->l2[s]);
    }
    /* l2_by_touch: no slices; the lines written are dirty. */
    for (; h->l2_dirty_lines; h->l2_dirty_lines--)
        write_back_l2(h, 0, h->all_sectors);
}

/* The kernel's MPLI, the sum of its PCs': each warp-load is counted once,
 * in its PC's counts (instruction), not a second time in the kernel's
 * (bench/RESULTS.md, "Branch hier43").  COLLECT_GRID counts the kernel's
 * loads alone and no PC's. */
static void sum_pcs_mpli(hierarchy *h)
{
    if (h->o.collect == COLLECT_GRID)
        return;
    for (uint32_t p = 0; p < h->kernel->pc_count; p++)
        mpli_merge(&h->kernel->counts.mpli, &h->kernel->pcs[p].mpli);
}

/* S3 ch. 5's polluting L1 load requests and hits: of the kernel's L1
 * load requests (l1_load counts each in l1.accesses) and their hits (hits
 * and pending hits: an L1 load's hit is one or the other), those that are
 * not the non-polluting ones, which alone l1_load counts (a polluting
 * warp's request is the common case; bench/RESULTS.md, "Branch hier43"). */
static void sum_polluting(hierarchy *h)
{
    replay_counts *k = &h->kernel->counts;
    k->polluting_accesses = k->l1.accesses - k->non_polluting_accesses;
    k->polluting_hits = k->l1.hits + k->l1.pending_hits - k->non_polluting_hits;
}

int hierarchy_kernel_end(hierarchy *h, ws_error *err)
{
    if (!h->in_kernel)
        return ws_fail(err, "replay: kernel end without a kernel");
    sum_pcs_mpli(h);
    sum_polluting(h);
    /* The L1s are flushed: no next use crosses the kernel's end (docs/metrics.md §7),
     * nor the L2's when it is flushed too. */
    if ((h->o.record_l1 && nextuse_fence(h->o.record_l1, err) != 0) ||
        (h->o.record_l2 && h->o.l2_cold && nextuse_fence(h->o.record_l2, err) != 0))
        return -1;
    if (h->collectors && l1_collectors_kernel_end(h->collectors, err) != 0)
        return -1;
    for (uint32_t o = 0; o < h->o.observer_count; o++)
        if (h->o.observers[o].kernel_end &&
            h->o.observers[o].kernel_end(h->o.observers[o].ctx, err) != 0)
            return -1;
    /* L1s are flushed between kernels (docs/metrics.md §7); local data dies with the
     * kernel, so dirty local lines are dropped, not written back. */
    for (uint32_t s = 0; s < h->sms; s++)
        if (h->l1[s]) /* an SM that never issued has none (sm_begin) */
            cache_flush(h->l1[s]);
    if (h->mshr)
        memset(h->mshr, 0, mshr_bytes(h));
    if (h->o.l2_cold)
        flush_l2(h, 0);
    h->in_kernel = 0;
    return 0;
}

int hierarchy_finish(hierarchy *h, ws_error *err)
{
    if (h->in_kernel && hierarchy_kernel_end(h, err) != 0)
        return -1;
    flush_l2(h, 1); /* the last dirty lines reach DRAM too */
    if (h->collectors)
        l1_collectors_finish(h->collectors);
    for (uint32_t k = 0; k < h->res.kernel_count; k++)
        counts_add(&h->res.total, &h->res.kernels[k].counts, sizeof h->res.total);
    /* A policy's statistics may start from a value other than 0, so an SM
     * that never issued counts an L1 fresh from cache_new, as it would have
     * been without sm_begin. */
    for (uint32_t s = 0; s < h->sms; s++) {
        if (!h->l1[s] && h->o.l1_spec.replacement->stats && !(h->l1[s] = make_l1(h, s, err)))
            return -1;
        if (h->l1[s])
            cache_add_policy_stats(h->l1[s], h->res.l1_policy_stats,
                                   &h->res.l1_policy_stat_count);
    }
    for (uint32_t s = 0; !h->o.l2_by_touch && s < h->slices; s++)
        cache_add_policy_stats(h->l2[s], h->res.l2_policy_stats, &h->res.l2_policy_stat_count);
    return 0;
}

const replay_results *hierarchy_results(const hierarchy *h) { return &h->res; }

uint64_t replay_results_cycles(const replay_results *r)
{
    uint64_t cycles = 0;
    for (uint32_t k = 0; r->timed && k < r->kernel_count; k++)
        cycles += r->kernels[k].timed.end_cycle - r->kernels[k].timed.start_cycle;
    return cycles;
}

int hierarchy_is_timed_by_lru(const hierarchy *h) { return h->o.timed_by_lru; }

int hierarchy_l2_cold(const hierarchy *h) { return h->o.l2_cold; }

void hierarchy_timed_kernel(hierarchy *h, const timed_kernel *k)
{
    h->kernel->timed = *k;
    timed_kernel *t = &h->res.timed_total;
    if (t->end_cycle == 0 && t->instructions == 0)
        t->start_cycle = k->start_cycle;
    t->end_cycle = k->end_cycle;
    t->instructions += k->instructions;
    t->memory_instructions += k->memory_instructions;
    t->issue_cycles += k->issue_cycles;
    for (int c = 0; c < STALL_CAUSES; c++)
        t->stalls[c] += k->stalls[c];
}

int hierarchy_timed_stalls(hierarchy *h, const uint64_t *scheduler_stalls, ws_error *err)
{
    size_t n = (size_t)h->sms * h->o.config.schedulers_per_sm * STALL_CAUSES;
    free(h->res.scheduler_stalls);
    if (!(h->res.scheduler_stalls = malloc(n * sizeof *h->res.scheduler_stalls)))
        return ws_fail(err, "out of memory");
    memcpy(h->res.scheduler_stalls, scheduler_stalls, n * sizeof *scheduler_stalls);
    h->res.schedulers = h->o.config.schedulers_per_sm;
    return 0;
}
