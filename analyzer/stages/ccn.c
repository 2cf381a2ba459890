/* analyzer/stages/ccn.c: see ccn.h. */
#include "analyzer/stages/ccn.h"

#include <stdlib.h>

#include "analyzer/hierarchy.h"
#include "formats/trace.h"

/* The request throttler's state of one SM in its current epoch. */
typedef struct ring_stop {
    uint32_t kernel;
    uint64_t epoch;
    int open;                /* an epoch has begun on this SM */
    int decided, ring_off;   /* the throttler's decision for the rest of the epoch */
    uint64_t sample_requests, sample_hits;
} ring_stop;

struct ccn {
    ccn_options o;
    cache *const *l1;
    ring_stop *stops; /* [sms] */
    ccn_results res;
};

ccn_options ccn_options_default(void)
{
    return (ccn_options){.throttle = 1, .sample_steps = 1000, .epoch_steps = 10000,
                         .min_hit_rate = 0.05, .hop_cycles = 4};
}

int ccn_options_validate(const ccn_options *o, ws_error *err)
{
    if (o->throttle && (o->sample_steps == 0 || o->sample_steps >= o->epoch_steps))
        return ws_fail(err, "ccn: the sampling interval (%llu steps) must be at least 1 and "
                            "shorter than the epoch (%llu steps)",
                       (unsigned long long)o->sample_steps, (unsigned long long)o->epoch_steps);
    if (!(o->min_hit_rate >= 0 && o->min_hit_rate <= 1))
        return ws_fail(err, "ccn: the minimum hit rate must be in [0, 1]");
    return 0;
}

void ccn_free(ccn *r)
{
    if (!r)
        return;
    free(r->stops);
    free(r->res.kernels);
    free(r->res.per_sm);
    free(r->res.timelines);
    free(r->res.distance_hits);
    free(r);
}

ccn *ccn_new(const ccn_options *o, uint32_t sms, cache *const *l1, uint32_t kernel_count,
             ws_error *err)
{
    if (ccn_options_validate(o, err) != 0)
        return NULL;
    ccn *r = calloc(1, sizeof *r);
    if (!r || !(r->stops = calloc(sms, sizeof *r->stops)) ||
        !(r->res.kernels = calloc(kernel_count ? kernel_count : 1, sizeof *r->res.kernels)) ||
        !(r->res.per_sm = calloc(sms, sizeof *r->res.per_sm)) ||
        !(r->res.timelines = calloc(sms, sizeof *r->res.timelines)) ||
        !(r->res.distance_hits = calloc((size_t)(kernel_count + 1) * sms, 8))) {
        ccn_free(r);
        return ws_fail(err, "out of memory"), NULL;
    }
    r->o = *o;
    r->l1 = l1;
    r->res.sms = sms;
    r->res.kernel_count = kernel_count;
    r->res.options = *o;
    return r;
}

const ccn_results *ccn_results_of(const ccn *r) { return &r->res; }

void ccn_timeline_add(ccn_timeline *t, int ring_off)
{
    if (t->width == 0)
        t->width = 1;
    if (t->count == (uint64_t)CCN_TIMELINE * t->width) { /* full: halve the resolution */
        for (uint32_t b = 0; b < CCN_TIMELINE / 2; b++) {
            t->decided[b] = t->decided[2 * b] + t->decided[2 * b + 1];
            t->ring_off[b] = t->ring_off[2 * b] + t->ring_off[2 * b + 1];
        }
        for (uint32_t b = CCN_TIMELINE / 2; b < CCN_TIMELINE; b++)
            t->decided[b] = t->ring_off[b] = 0;
        t->width *= 2;
    }
    uint32_t b = (uint32_t)(t->count / t->width);
    t->decided[b]++;
    t->ring_off[b] += ring_off != 0;
    t->buckets = b + 1;
    t->count++;
}

/* Adds to a field of the kernel's, the SM's and the run's counts at once. */
#define COUNT(r, is, field, n)                          \
    do {                                                \
        (r)->res.kernels[(is)->kernel].field += (n);    \
        (r)->res.per_sm[(is)->sm].field += (n);         \
        (r)->res.total.field += (n);                    \
    } while (0)

/* The throttler (S3 §4.4.4): whether the SM's miss at this step may use the
 * ring, and whether it falls in the epoch's sampling interval. */
static int ring_open(ccn *r, const replay_issue *is, int *sampling)
{
    ring_stop *st = &r->stops[is->sm];
    *sampling = 0;
    if (!r->o.throttle)
        return 1;
    uint64_t epoch = is->step / r->o.epoch_steps;
    if (!st->open || st->kernel != is->kernel || st->epoch != epoch)
        *st = (ring_stop){.kernel = is->kernel, .epoch = epoch, .open = 1};
    if (is->step % r->o.epoch_steps < r->o.sample_steps) {
        *sampling = 1;
        return 1;
    }
    if (!st->decided) { /* the sample is over: decide for the rest of the epoch */
        st->decided = 1;
        st->ring_off = st->sample_requests > 0 &&
                       (double)st->sample_hits < r->o.min_hit_rate * (double)st->sample_requests;
        COUNT(r, is, epochs, 1);
        COUNT(r, is, ring_off_epochs, (uint64_t)st->ring_off);
        ccn_timeline_add(&r->res.timelines[is->sm], st->ring_off);
    }
    return !st->ring_off;
}

/* The nearest SM downstream on the ring whose L1 holds the line valid and
 * not pending: its ring distance (1 .. sms - 1), or 0.  Timed, the request
 * reaches the L1 d hops away d × hop_cycles after it left its own, and a
 * copy still pending then is no hit (S3 §4.4.2: "hits-under-miss on
 * outstanding miss requests are not considered for sharing"). */
static uint32_t find_copy(ccn *r, const replay_issue *is, const l1_miss *m)
{
    uint32_t n = r->res.sms;
    for (uint32_t d = 1; d < n; d++) {
        cache *remote = r->l1[(is->sm + d) % n];
        int64_t slot = cache_peek(remote, m->line, m->sectors, m->at + (uint64_t)d * r->o.hop_cycles);
        if (slot < 0)
            continue;
        if (r->o.promote && m->req)
            cache_touch(remote, (uint32_t)slot, m->req);
        return d;
    }
    return 0;
}

static int ccn_miss_route(void *ctx, const replay_issue *is, l1_miss *m)
{
    ccn *r = ctx;
    COUNT(r, is, misses, 1);
    if (!m->fills || !m->req || is->kind != WST_LOAD || is->space != WST_GLOBAL)
        return 0;
    COUNT(r, is, candidates, 1);
    int sampling;
    if (!ring_open(r, is, &sampling)) {
        COUNT(r, is, throttled, 1);
        return 0;
    }
    COUNT(r, is, requests, 1);
    uint32_t d = find_copy(r, is, m);
    if (sampling) {
        r->stops[is->sm].sample_requests++;
        r->stops[is->sm].sample_hits += d != 0;
    }
    uint32_t n = r->res.sms;
    if (!d) { /* round the whole ring, then on to L2 */
        COUNT(r, is, probe_hops, n);
        m->latency = n * r->o.hop_cycles;
        return 0;
    }
    COUNT(r, is, remote_hits, 1);
    COUNT(r, is, hit_hops, 2 * d);
    r->res.distance_hits[(size_t)is->kernel * n + d]++;
    r->res.distance_hits[(size_t)r->res.kernel_count * n + d]++;
    m->latency = 2 * d * r->o.hop_cycles;
    return 1;
}

void ccn_stage(ccn *r, struct hierarchy_stage *out)
{
    *out = (hierarchy_stage){.ctx = r, .miss_route = ccn_miss_route};
}
