/* analyzer/replay.c: see replay.h. */
#include "analyzer/replay.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/coalesce.h"
#include "analyzer/cta_cache.h"
#include "analyzer/kernel_slots.h"
#include "analyzer/l2_touch.h"
#include "analyzer/timed_replay.h"

void replay_options_default(replay_options *o)
{
    memset(o, 0, sizeof *o);
    o->schedule = (sched_options){.cta = CTA_RR, .warp = &warp_order_gto};
}

/* ---- batches: the decoded stream, handed to the hierarchies ---- */

enum { BATCH_REQUESTS = 1 << 14, BATCH_ITEMS = 1 << 13 };

typedef enum item_kind { ITEM_KERNEL_BEGIN, ITEM_ISSUE, ITEM_KERNEL_END } item_kind;

typedef struct item {
    item_kind kind;
    uint32_t first, count; /* ISSUE: its requests; KERNEL_BEGIN: count = PCs */
    replay_issue issue;
} item;

typedef struct batch {
    item items[BATCH_ITEMS];
    ws_request requests[BATCH_REQUESTS];
    replay_ref refs[BATCH_REQUESTS]; /* the reference L1 on each request */
    uint32_t item_count, request_count;
    int last;
    uint32_t group; /* several streams: whose consumers the batch is for */
    /* When a consumer of the batch is fed SM by SM (replay_consumer.by_sm):
     * the items' indices with each run of issues between two kernel items
     * sorted by SM, each SM's in their order (sort_by_sm).  Sorted once as
     * the batch is handed over, for all its consumers. */
    int sorted;
    uint32_t by_sm[BATCH_ITEMS];
} batch;

static double thread_cpu_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int feed_issue(const batch *b, const item *it, const replay_consumer *c, ws_error *err)
{
    return c->instruction(c->ctx, &it->issue, b->requests + it->first, b->refs + it->first,
                          (int)it->count, err);
}

/* The SMs a run of issues may name to be sorted by SM; a run naming more
 * keeps its order. */
enum { BY_SM_MAX_SMS = 1024 };

/* b->by_sm: each run of issues items[from, to) sorted by SM, each SM's in
 * their order (a counting sort); kernel items stay where they are. */
static void sort_by_sm(batch *b)
{
    for (uint32_t from = 0, to; from < b->item_count; from = to) {
        to = from + 1;
        if (b->items[from].kind != ITEM_ISSUE) {
            b->by_sm[from] = from;
            continue;
        }
        uint32_t sms = b->items[from].issue.sm + 1;
        for (; to < b->item_count && b->items[to].kind == ITEM_ISSUE; to++)
            if (b->items[to].issue.sm >= sms)
                sms = b->items[to].issue.sm + 1;
        if (sms > BY_SM_MAX_SMS) {
            for (uint32_t i = from; i < to; i++)
                b->by_sm[i] = i;
            continue;
        }
        uint32_t start[BY_SM_MAX_SMS + 1] = {0};
        for (uint32_t i = from; i < to; i++)
            start[b->items[i].issue.sm + 1]++;
        start[0] = from;
        for (uint32_t sm = 0; sm < sms; sm++)
            start[sm + 1] += start[sm];
        for (uint32_t i = from; i < to; i++)
            b->by_sm[start[b->items[i].issue.sm]++] = i;
    }
    b->sorted = 1;
}

/* Feeds the issues by_sm[from, to) (one run, sort_by_sm) to an order-free
 * consumer: a point of the sweep then keeps one SM's L1 in the host's
 * caches at a time instead of all of them (bench/RESULTS.md, "Replay"). */
static int feed_by_sm(const batch *b, uint32_t from, uint32_t to, const replay_consumer *c,
                      ws_error *err)
{
    /* Out of order, the items, their requests and the requests' L2
     * answers (refs) are no longer read in address order, which the host's
     * prefetcher followed: ask for them a few issues ahead.  A 72-byte
     * request may straddle two host lines; sector_mask is the last field a
     * point reads.  Waiting on these loads was the sweep's largest cost
     * (bench/RESULTS.md, "Branch sweep46e"). */
    for (uint32_t k = from; k < to; k++) {
        if (k + 8 < to)
            __builtin_prefetch(&b->items[b->by_sm[k + 8]]);
        if (k + 4 < to) {
            const item *ahead = &b->items[b->by_sm[k + 4]];
            __builtin_prefetch(&b->requests[ahead->first]);
            __builtin_prefetch(&b->requests[ahead->first].sector_mask);
            __builtin_prefetch(&b->refs[ahead->first]);
        }
        if (feed_issue(b, &b->items[b->by_sm[k]], c, err) != 0)
            return -1;
    }
    return 0;
}

static int feed_batch_plain(const batch *b, const replay_consumer *c, ws_error *err)
{
    for (uint32_t i = 0; i < b->item_count; i++) {
        const item *it = &b->items[i];
        int rc = 0;
        if (it->kind == ITEM_KERNEL_BEGIN) {
            rc = c->kernel_begin(c->ctx, it->issue.kernel, it->count, err);
        } else if (it->kind == ITEM_KERNEL_END) {
            rc = c->kernel_end(c->ctx, err);
        } else if (c->by_sm && b->sorted) { /* the run of issues up to the next kernel item */
            uint32_t end = i + 1;
            while (end < b->item_count && b->items[end].kind == ITEM_ISSUE)
                end++;
            rc = feed_by_sm(b, i, end, c, err);
            i = end - 1;
        } else {
            rc = feed_issue(b, it, c, err);
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* Feeds consumer `index` of a pass; charges its CPU time when asked to.
 * (A batch is thousands of requests: two clock reads are noise.) */
static int feed_batch(const batch *b, const replay_consumer *consumers, uint32_t index,
                      double *cpu_seconds, ws_error *err)
{
    if (!cpu_seconds)
        return feed_batch_plain(b, &consumers[index], err);
    double start = thread_cpu_seconds();
    int rc = feed_batch_plain(b, &consumers[index], err);
    cpu_seconds[index] += thread_cpu_seconds() - start;
    return rc;
}

static int h_begin(void *ctx, uint32_t kernel, uint32_t pcs, ws_error *err)
{
    return hierarchy_kernel_begin(ctx, kernel, pcs, err);
}

static int h_instruction(void *ctx, const replay_issue *is, const ws_request *rq,
                         const replay_ref *refs, int n, ws_error *err)
{
    return hierarchy_instruction_refs(ctx, is, rq, refs, n, err);
}

static int h_end(void *ctx, ws_error *err) { return hierarchy_kernel_end(ctx, err); }

replay_consumer hierarchy_consumer(hierarchy *h)
{
    return (replay_consumer){.ctx = h, .kernel_begin = h_begin, .instruction = h_instruction,
                             .kernel_end = h_end, .by_sm = hierarchy_sm_order_free(h)};
}

/* ---- workers ---- */

typedef struct pool pool;

typedef struct worker {
    pool *pool;
    pthread_t thread;
    uint32_t index;
    uint64_t consumed; /* batches finished (under the pool's lock) */
    ws_error err;
    int failed;
} worker;

/* Batch i travels in batches[i % POOL_RING].  Each worker goes through the
 * batches at its own pace; the decoder refills a slot once every worker is
 * done with its previous batch.  A ring rather than two buffers in lockstep
 * lets a consumer that is slow on one batch catch up on the next while the
 * others run ahead, so the cores stay busy (analyze's consumers differ in
 * cost batch by batch). */
enum { POOL_RING = 8 };

struct pool {
    batch *batches[POOL_RING];
    const replay_consumer *consumers;
    /* Several streams: group g's consumers are consumers[group_first[g] ..
     * + group_count[g]); NULL: every batch is for every consumer. */
    const uint32_t *group_first, *group_count;
    double *consumer_cpu_seconds; /* NULL, or one entry per consumer */
    uint32_t count, threads;
    pthread_mutex_t lock;
    pthread_cond_t changed;
    uint64_t published; /* batches handed over */
    worker *workers;
};

static void *worker_main(void *arg)
{
    worker *w = arg;
    pool *p = w->pool;
    for (;;) {
        pthread_mutex_lock(&p->lock);
        while (p->published == w->consumed)
            pthread_cond_wait(&p->changed, &p->lock);
        pthread_mutex_unlock(&p->lock);
        const batch *b = p->batches[w->consumed % POOL_RING];
        /* `failed` is published under the lock: the decoder reads it there. */
        int failed = w->failed;
        uint32_t first = p->group_first ? p->group_first[b->group] : 0;
        uint32_t end = p->group_first ? first + p->group_count[b->group] : p->count;
        /* A consumer always goes to the same worker (index mod threads), so
         * it sees its batches in order. */
        uint32_t h = first + (w->index + p->threads - first % p->threads) % p->threads;
        for (; h < end && !failed; h += p->threads)
            failed = feed_batch(b, p->consumers, h, p->consumer_cpu_seconds, &w->err) != 0;
        /* Read before reporting done: from then on the decoder may refill b. */
        int last = b->last;
        pthread_mutex_lock(&p->lock);
        w->failed = failed;
        w->consumed++;
        pthread_cond_broadcast(&p->changed);
        pthread_mutex_unlock(&p->lock);
        if (last)
            return NULL;
    }
}

/* Batches every worker has finished; the caller holds the lock. */
static uint64_t pool_consumed(const pool *p)
{
    uint64_t least = p->published;
    for (uint32_t w = 0; w < p->threads; w++)
        if (p->workers[w].consumed < least)
            least = p->workers[w].consumed;
    return least;
}

static void pool_wait_done(pool *p)
{
    pthread_mutex_lock(&p->lock);
    while (pool_consumed(p) < p->published)
        pthread_cond_wait(&p->changed, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

/* A failed worker's message, once every worker is done (then the messages
 * are final); always -1. */
static int pool_failure(pool *p, ws_error *err)
{
    pool_wait_done(p);
    for (uint32_t w = 0; w < p->threads; w++)
        if (p->workers[w].failed)
            return ws_fail(err, "%s", p->workers[w].err.msg);
    return ws_fail(err, "a replay worker failed");
}

/* Hands the filled batch over, then waits until the next slot is free.
 * Returns whether a worker failed (read under the lock). */
static int pool_publish(pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->published++;
    pthread_cond_broadcast(&p->changed);
    while (p->published >= POOL_RING && pool_consumed(p) < p->published - POOL_RING + 1)
        pthread_cond_wait(&p->changed, &p->lock);
    int failed = 0;
    for (uint32_t w = 0; w < p->threads; w++)
        failed |= p->workers[w].failed;
    pthread_mutex_unlock(&p->lock);
    return failed;
}

/* Starts up to `wanted` workers (none for fewer than 2); a thread that
 * cannot start just means fewer workers. */
static void pool_start(pool *p, uint32_t wanted)
{
    for (uint32_t w = 0; wanted > 1 && w < wanted; w++) {
        p->workers[p->threads] = (worker){.pool = p, .index = p->threads};
        if (pthread_create(&p->workers[p->threads].thread, NULL, worker_main,
                           &p->workers[p->threads]) != 0)
            break;
        p->threads++;
    }
}

/* Waits for the workers to finish and joins them; the first failure's
 * message lands in err unless rc already says the run failed.  Returns rc
 * or -1. */
static int pool_stop(pool *p, int rc, ws_error *err)
{
    pool_wait_done(p);
    for (uint32_t w = 0; w < p->threads; w++) {
        pthread_join(p->workers[w].thread, NULL);
        if (p->workers[w].failed && rc == 0)
            rc = ws_fail(err, "%s", p->workers[w].err.msg);
    }
    p->threads = 0;
    return rc;
}

/* Several streams share one pool: a stream fills a batch of its own and
 * copies it into the ring's next slot once every worker is done with that
 * slot.  Returns whether a worker failed. */
static int pool_publish_copy(pool *p, const batch *b, uint32_t group, int last)
{
    pthread_mutex_lock(&p->lock);
    while (p->published >= POOL_RING && pool_consumed(p) < p->published - POOL_RING + 1)
        pthread_cond_wait(&p->changed, &p->lock);
    pthread_mutex_unlock(&p->lock);
    batch *slot = p->batches[p->published % POOL_RING];
    memcpy(slot->items, b->items, b->item_count * sizeof *b->items);
    memcpy(slot->requests, b->requests, b->request_count * sizeof *b->requests);
    memcpy(slot->refs, b->refs, b->request_count * sizeof *b->refs);
    if ((slot->sorted = b->sorted))
        memcpy(slot->by_sm, b->by_sm, b->item_count * sizeof *b->by_sm);
    slot->item_count = b->item_count;
    slot->request_count = b->request_count;
    slot->group = group;
    slot->last = last;
    pthread_mutex_lock(&p->lock);
    p->published++;
    pthread_cond_broadcast(&p->changed);
    int failed = 0;
    for (uint32_t w = 0; w < p->threads; w++)
        failed |= p->workers[w].failed;
    pthread_mutex_unlock(&p->lock);
    return failed;
}

/* ---- the decoding side ---- */

typedef struct stream {
    const sched_source *source;
    const gpu_config *config;
    const replay_options *options;
    sched_options schedule; /* the options' schedule, or this stream's warp order */
    uint64_t dispatched;    /* CTAs dispatched so far (lockstep of several streams) */
    coalesce_config coalesce;
    ref_l1 *ref;    /* the reference L1s, for GTO */
    l2_touch *touch; /* options.l2_by_touch: the lines asked for so far */
    uint32_t line_shift;
    batch *fill;
    sched *sched;   /* its scheduler (for orders that watch the reference L1) */
    pool *pool;     /* NULL: replay inline */
    int copies;     /* several streams, one pool: fill privately, copy over */
    uint32_t group; /* then: this stream's index in the pool */
    const replay_consumer *inline_consumers;
    uint32_t inline_count;
    uint64_t issued;
    uint32_t peak_resident;
    /* options.kernel_done: kernels ended but not yet reported (at most KERNEL_SLOTS)
     * and the batch each ended in; batches handed over so far. */
    struct {
        uint32_t kernel;
        uint64_t batch;
    } pending[KERNEL_SLOTS];
    uint32_t pending_count;
    uint64_t handed;
    progress *bar;
    ws_error err;
    int failed;
} stream;

static int hand_over(stream *s, int last);

static item *next_item(stream *s, uint32_t requests)
{
    if ((s->fill->item_count == BATCH_ITEMS ||
         s->fill->request_count + requests > BATCH_REQUESTS) &&
        hand_over(s, 0) != 0)
        return NULL;
    return &s->fill->items[s->fill->item_count++];
}

static int push_kernel(stream *s, item_kind kind, uint32_t kernel)
{
    item *it = next_item(s, 0);
    if (!it)
        return -1;
    *it = (item){.kind = kind, .issue = {.kernel = kernel}};
    if (kind == ITEM_KERNEL_BEGIN)
        it->count = s->source->trace->kernels[kernel].pc_count;
    return 0;
}

replay_issue replay_issue_of(const sched_event *e)
{
    const wst_record *r = e->record;
    return (replay_issue){.kernel = e->kernel, .sm = e->sm, .cta = e->cta,
                          .warp = (uint32_t)e->warp_id, .warp_slot = e->warp_slot,
                          .scheduler = e->scheduler, .age_rank = (uint16_t)e->age_rank,
                          .no_allocate = !e->may_allocate, .pc = r->pc, .step = e->step,
                          .cta_warp = r->warp, .kind = r->kind, .space = r->space,
                          .cache_op = r->cache_op};
}

/* Coalesces one issue into the batch; returns whether it missed in the
 * reference L1 (GTO's signal). */
static int push_issue(void *ctx, const sched_event *e)
{
    stream *s = ctx;
    if (s->failed)
        return 0;
    item *it = next_item(s, COALESCE_MAX_REQUESTS);
    if (!it) {
        s->failed = 1;
        return 0;
    }
    const wst_record *r = e->record;
    ws_request *out = s->fill->requests + s->fill->request_count;
    int n = e->affine ? coalesce_record_affine(&s->coalesce, r, e->stride, e->kernel, out, NULL,
                                               &s->err)
                      : coalesce_record(&s->coalesce, r, e->kernel, out, NULL, &s->err);
    if (n < 0) {
        s->failed = 1;
        return 0;
    }
    *it = (item){.kind = ITEM_ISSUE, .first = s->fill->request_count, .count = (uint32_t)n,
                 .issue = replay_issue_of(e)};
    s->fill->request_count += (uint32_t)n;
    if (s->options->observe &&
        s->options->observe(s->options->observe_ctx, &it->issue, out, n, &s->err) != 0) {
        s->failed = 1;
        return 0;
    }
    int missed = 0;
    replay_ref *refs = s->fill->refs + it->first;
    l1_route route = l1_route_of(r->kind, r->space, r->cache_op, s->config->l1.write);
    for (int i = 0; i < n; i++)
        missed |= ref_l1_request(s->ref, e->sm, route, (uint32_t)e->warp_id, &out[i], &refs[i]);
    int write = route == L1_WRITE_EVICT || route == L1_WRITE_ALLOCATE; /* L2 sees a write */
    for (int i = 0; s->touch && i < n; i++)
        refs[i].l2_touch = l2_touch_request(s->touch, out[i].line_addr >> s->line_shift, write,
                                            &s->failed);
    if (s->failed) {
        ws_fail(&s->err, "out of memory");
        return 0;
    }
    if (s->schedule.warp->observed)
        sched_observe(s->sched, e, out, refs, n);
    return missed;
}

static int hand_over(stream *s, int last)
{
    s->fill->last = last;
    s->fill->sorted = 0;
    for (uint32_t h = 0; h < s->inline_count && !s->fill->sorted; h++)
        if (s->inline_consumers[h].by_sm)
            sort_by_sm(s->fill);
    int rc = 0;
    if (!s->pool) {
        for (uint32_t h = 0; h < s->inline_count && rc == 0; h++)
            rc = feed_batch(s->fill, s->inline_consumers, h, s->options->consumer_cpu_seconds,
                            &s->err);
    } else if (s->copies) { /* the workers stop at the pool's own last batch */
        if (s->fill->item_count && pool_publish_copy(s->pool, s->fill, s->group, 0))
            rc = pool_failure(s->pool, &s->err);
    } else {
        /* The next slot is taken even after a failure, so the final batch
         * is never one the workers may still be reading. */
        int failed = pool_publish(s->pool);
        s->fill = s->pool->batches[s->pool->published % POOL_RING];
        rc = failed ? pool_failure(s->pool, &s->err) : 0;
    }
    s->fill->item_count = s->fill->request_count = 0;
    s->handed++;
    return rc;
}

/* Reports the oldest pending kernel (options.kernel_done) once every
 * consumer has gone past the batch it ended in. */
static int report_oldest(stream *s)
{
    uint64_t ended_in = s->pending[0].batch;
    if (s->handed <= ended_in && hand_over(s, 0) != 0) /* it ended in the batch being filled */
        return -1;
    if (s->pool) {
        pool *p = s->pool;
        int failed = 0;
        pthread_mutex_lock(&p->lock);
        while (pool_consumed(p) <= ended_in)
            pthread_cond_wait(&p->changed, &p->lock);
        for (uint32_t w = 0; w < p->threads; w++)
            failed |= p->workers[w].failed;
        pthread_mutex_unlock(&p->lock);
        if (failed)
            return pool_failure(p, &s->err);
    }
    uint32_t kernel = s->pending[0].kernel;
    s->pending_count--;
    memmove(s->pending, s->pending + 1, s->pending_count * sizeof *s->pending);
    return s->options->kernel_done(s->options->kernel_done_ctx, kernel, &s->err);
}

/* The stream's reference L1s, and its record of the lines asked for when
 * it answers L2 (options.l2_by_touch). */
static int stream_models(stream *s, ws_error *err)
{
    s->line_shift = (uint32_t)__builtin_ctz(s->config->l1.line_bytes);
    if (!(s->ref = ref_l1_new(s->config, err)))
        return -1;
    return s->options->l2_by_touch && !(s->touch = l2_touch_new(err)) ? -1 : 0;
}

static void stream_models_free(stream *s)
{
    ref_l1_free(s->ref);
    l2_touch_free(s->touch);
}

static sched *stream_sched(stream *s)
{
    return s->sched = sched_new(s->config, &s->schedule, s->source,
                                s->schedule.warp->uses_misses ? push_issue : NULL, s, &s->err);
}

/* One event of the stream's scheduler into its batch: 1 = go on, 0 = the
 * trace is done, -1 = error.  Inline: it is the decoding thread's loop. */
static inline __attribute__((always_inline)) int stream_step(stream *s, sched *sc)
{
    sched_event e;
    int got = sched_next(sc, &e, &s->err);
    if (got != 1)
        return got;
    if (e.kind == SCHED_KERNEL_BEGIN) {
        ref_l1_flush(s->ref);
        /* Consumers keep KERNEL_SLOTS kernels: the oldest must be reported
         * before any of them begins this one, which takes its slot. */
        s->failed = (s->pending_count == KERNEL_SLOTS && report_oldest(s) != 0) ||
                    push_kernel(s, ITEM_KERNEL_BEGIN, e.kernel) != 0;
    } else if (e.kind == SCHED_KERNEL_END) {
        s->failed = push_kernel(s, ITEM_KERNEL_END, e.kernel) != 0;
        if (!s->failed && s->options->kernel_done) {
            s->pending[s->pending_count].kernel = e.kernel;
            s->pending[s->pending_count++].batch = s->handed;
        }
    } else if (e.kind == SCHED_CTA_DISPATCH) {
        s->dispatched++;
    } else if (e.kind == SCHED_ISSUE) {
        if (!s->schedule.warp->uses_misses)
            push_issue(s, &e);
        if (s->options->observe_event) {
            sched_record_lanes(sc, &e);
            s->options->observe_event(s->options->observe_event_ctx, &e);
        }
        progress_update(s->bar, ++s->issued);
    }
    return s->failed ? -1 : 1;
}

/* The stream's end: its scheduler's peak, and a last batch so the workers
 * stop.  got is the last stream_step's answer. */
static int stream_finish(stream *s, sched *sc, int got)
{
    if (sc)
        s->peak_resident = sched_peak_resident_ctas(sc);
    sched_free(sc);
    int rc = hand_over(s, 1);
    if (got < 0 || s->failed || rc != 0)
        return -1;
    while (s->pending_count)
        if (report_oldest(s) != 0)
            return -1;
    return 0;
}

/* One pass over the schedule, every hierarchy fed. */
static int run_stream(stream *s)
{
    sched *sc = stream_sched(s);
    int got = sc ? 1 : -1;
    while (got == 1)
        got = stream_step(s, sc);
    return stream_finish(s, sc, got);
}

/* CPU seconds charged so far to consumers fed on the decoding thread. */
static double inline_consumer_cpu(const replay_options *o, uint32_t count, int inline_feeding)
{
    double sum = 0;
    for (uint32_t h = 0; inline_feeding && o->consumer_cpu_seconds && h < count; h++)
        sum += o->consumer_cpu_seconds[h];
    return sum;
}

static uint32_t thread_count(const replay_options *o, uint32_t hierarchies)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t t = o->threads ? o->threads : (uint32_t)(cores > 0 ? cores : 1);
    return t > hierarchies ? hierarchies : t;
}

int replay_stream_run(const sched_source *source, const gpu_config *config, const replay_options *o,
                      const replay_consumer *consumers, uint32_t count, progress *bar,
                      replay_stream_stats *stats, ws_error *err)
{
    stream s = {.source = source, .config = config, .options = o, .schedule = o->schedule,
                .coalesce = {.line_bytes = config->l1.line_bytes, .half_warp = o->half_warp},
                .bar = bar,
                .inline_consumers = consumers, .inline_count = count};
    pool p = {.consumers = consumers, .consumer_cpu_seconds = o->consumer_cpu_seconds,
              .count = count, .lock = PTHREAD_MUTEX_INITIALIZER,
              .changed = PTHREAD_COND_INITIALIZER};
    uint32_t wanted = thread_count(o, count);
    int rc = -1;
    /* Inline replay needs one batch; workers the whole ring. */
    uint32_t batches = wanted > 1 ? POOL_RING : 1;
    int allocated = 1;
    for (uint32_t b = 0; allocated && b < batches; b++)
        allocated = (p.batches[b] = malloc(sizeof(batch))) != NULL;
    if (!allocated || (wanted > 1 && !(p.workers = calloc(wanted, sizeof *p.workers)))) {
        ws_fail(err, "out of memory");
        goto out;
    }
    if (stream_models(&s, err) != 0)
        goto out;
    s.fill = p.batches[0];
    s.fill->item_count = s.fill->request_count = 0;
    /* Workers only when there is more than one hierarchy and core. */
    pool_start(&p, wanted);
    if (p.threads > 0)
        s.pool = &p;
    /* Consumers fed inline are charged on this thread: not decoding. */
    double inline_before = inline_consumer_cpu(o, count, !s.pool), start = thread_cpu_seconds();
    rc = run_stream(&s);
    double decode_cpu = thread_cpu_seconds() - start -
                        (inline_consumer_cpu(o, count, !s.pool) - inline_before);
    if (s.pool)
        rc = pool_stop(&p, rc, &s.err);
    if (rc != 0)
        ws_fail(err, "%s", s.err.msg);
    if (stats)
        *stats = (replay_stream_stats){.issued = s.issued, .peak_resident_ctas = s.peak_resident,
                                       .decode_cpu_seconds = decode_cpu};
out:
    free(p.workers);
    stream_models_free(&s);
    for (uint32_t b = 0; b < POOL_RING; b++)
        free(p.batches[b]);
    return rc;
}

/* ---- several warp orders, one decode ---- */

/* A stream per distinct warp order, each feeding its own consumers (on
 * worker threads through one pool where there are cores, else inline),
 * advanced in lockstep by CTA dispatch (the one furthest behind steps
 * next) over a shared cache of decoded CTAs (cta_cache.h), so the trace is
 * decoded once and the copies held stay about one residency of CTAs. */
static int run_streams(const sched_source *source, const gpu_config *config,
                       const replay_options *o, const replay_consumer *consumers,
                       const uint32_t *group_of, uint32_t count,
                       const warp_order_spec *orders, uint32_t groups, progress *bar,
                       ws_error *err)
{
    replay_options own = *o;
    own.consumer_cpu_seconds = NULL; /* indices are per stream here */
    cta_cache *ctas = cta_cache_new(source, groups, err);
    sched_source shared = ctas ? cta_cache_source(ctas) : *source;
    stream *st = calloc(groups, sizeof *st);
    sched **sc = calloc(groups, sizeof *sc);
    replay_consumer *mine = calloc(count ? count : 1, sizeof *mine);
    uint32_t *first_of = calloc(groups, sizeof *first_of);
    int *state = calloc(groups, sizeof *state);
    /* Worker threads for the hierarchies when there are cores: the streams
     * stay on this thread, their batches go through one pool. */
    uint32_t wanted = thread_count(o, count);
    pool p = {.lock = PTHREAD_MUTEX_INITIALIZER, .changed = PTHREAD_COND_INITIALIZER};
    int rc = -1;
    if (!ctas || !st || !sc || !mine || !first_of || !state ||
        (wanted > 1 && !(p.workers = calloc(wanted, sizeof *p.workers)))) {
        ws_fail(err, "out of memory");
        goto out;
    }
    for (uint32_t b = 0; wanted > 1 && b < POOL_RING; b++)
        if (!(p.batches[b] = malloc(sizeof(batch)))) {
            ws_fail(err, "out of memory");
            goto out;
        }
    for (uint32_t g = 0, first = 0; g < groups; g++) {
        stream *s = &st[g];
        *s = (stream){.source = &shared, .config = config, .options = &own,
                      .schedule = o->schedule,
                      .coalesce = {.line_bytes = config->l1.line_bytes, .half_warp = o->half_warp},
                      .bar = g == 0 ? bar : NULL, .inline_consumers = mine + first, .group = g};
        s->schedule.warp = orders[g].ops;
        s->schedule.warp_n = orders[g].n;
        s->schedule.warp_p = orders[g].p;
        first_of[g] = first;
        for (uint32_t i = 0; i < count; i++)
            if (group_of[i] == g)
                mine[first + s->inline_count++] = consumers[i];
        first += s->inline_count;
        if (stream_models(s, err) != 0 || !(s->fill = malloc(sizeof(batch)))) {
            if (!s->fill)
                ws_fail(err, "out of memory");
            goto out;
        }
        s->fill->item_count = s->fill->request_count = 0;
    }
    uint32_t *group_count = calloc(groups, sizeof *group_count);
    if (!group_count) {
        ws_fail(err, "out of memory");
        goto out;
    }
    for (uint32_t g = 0; g < groups; g++)
        group_count[g] = st[g].inline_count;
    p.consumers = mine;
    p.count = count;
    p.group_first = first_of;
    p.group_count = group_count;
    pool_start(&p, wanted);
    for (uint32_t g = 0; g < groups; g++) {
        if (p.threads) {
            st[g].pool = &p;
            st[g].copies = 1;
        }
        sc[g] = stream_sched(&st[g]);
        state[g] = sc[g] ? 1 : -1;
    }
    for (;;) {
        int64_t next = -1;
        for (uint32_t g = 0; g < groups; g++)
            if (state[g] == 1 && (next < 0 || st[g].dispatched < st[next].dispatched))
                next = g;
        if (next < 0)
            break;
        state[next] = stream_step(&st[next], sc[next]);
        if (state[next] < 0)
            break;
    }
    rc = 0;
    for (uint32_t g = 0; g < groups; g++)
        if (stream_finish(&st[g], sc[g], state[g]) != 0 && rc == 0)
            rc = ws_fail(err, "%s", st[g].err.msg);
    memset(sc, 0, groups * sizeof *sc);
    if (p.threads) { /* the pool's own last batch: the workers stop */
        batch *end = st[0].fill;
        end->item_count = end->request_count = 0;
        pool_publish_copy(&p, end, 0, 1);
        rc = pool_stop(&p, rc, err);
    }
    free(group_count);
out: /* the workers start after the last `goto out`: none is running here */
    for (uint32_t g = 0; st && g < groups; g++) {
        if (sc && sc[g])
            sched_free(sc[g]);
        stream_models_free(&st[g]);
        free(st[g].fill);
    }
    for (uint32_t b = 0; b < POOL_RING; b++)
        free(p.batches[b]);
    free(p.workers);
    free(st);
    free(sc);
    free(mine);
    free(first_of);
    free(state);
    cta_cache_free(ctas);
    return rc;
}

/* Feeds `count` hierarchies one pass: hierarchy i under warp order
 * orders[i] (NULL: the options' own); one stream when they all agree. */
static int feed(const sched_source *source, const gpu_config *config, const replay_options *o,
                hierarchy **hs, const warp_order_spec *orders, uint32_t count,
                progress *bar, ws_error *err)
{
    replay_consumer *cs = calloc(count ? count : 1, sizeof *cs);
    uint32_t *group_of = calloc(count ? count : 1, sizeof *group_of);
    warp_order_spec *distinct = calloc(count ? count : 1, sizeof *distinct);
    uint32_t groups = 0;
    int rc = -1;
    if (!cs || !group_of || !distinct) {
        ws_fail(err, "out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < count; i++) {
        cs[i] = hierarchy_consumer(hs[i]);
        warp_order_spec run = {o->schedule.warp, o->schedule.warp_n, o->schedule.warp_p};
        const warp_order_spec *order = orders && orders[i].ops ? &orders[i] : &run;
        uint32_t g = 0;
        while (g < groups && !warp_order_spec_equal(&distinct[g], order))
            g++;
        if (g == groups)
            distinct[groups++] = *order;
        group_of[i] = g;
    }
    if (groups > 1 && o->schedule.warp->recorded) {
        rc = ws_fail(err, "the recorded schedule is one order: no warp order can be compared "
                     "on it");
    } else if (groups > 1) {
        rc = run_streams(source, config, o, cs, group_of, count, distinct, groups, bar, err);
    } else {
        replay_options one = *o;
        if (groups == 1) {
            one.schedule.warp = distinct[0].ops;
            one.schedule.warp_n = distinct[0].n;
            one.schedule.warp_p = distinct[0].p;
        }
        rc = replay_stream_run(source, config, &one, cs, count, bar, NULL, err);
    }
out:
    free(cs);
    free(group_of);
    free(distinct);
    return rc;
}

/* ---- OPT's recording passes ---- */

static int needs_next(const policy_spec *spec)
{
    return spec->replacement->needs_next_use;
}

/* A hierarchy that only records the key stream of one level: any non-OPT
 * policy gives the same L1 stream; the L2 stream needs the real L1 policy. */
static hierarchy *recorder(const hierarchy_options *o, uint32_t kernels, int keep_l1,
                           nextuse *l1_next, nextuse *record_l1, nextuse *record_l2, ws_error *err)
{
    hierarchy_options r = *o;
    r.l1_next = l1_next;
    r.l2_next = NULL;
    r.record_l1 = record_l1;
    r.record_l2 = record_l2;
    if (!keep_l1)
        r.l1_spec = policy_spec_lru();
    r.l2_spec = policy_spec_lru();
    return hierarchy_new(&r, kernels, err);
}

/* Feeds the recorders one pass, frees them, and ends their key streams
 * (streams[0..n_streams)) with the backward pass. */
static int recording_pass(const sched_source *source, const gpu_config *config,
                          const replay_options *o, hierarchy **rec,
                          const warp_order_spec *orders, uint32_t *n_rec,
                          nextuse *const *streams, uint32_t n_streams, int timed, ws_error *err)
{
    int rc = !*n_rec ? 0
             : timed ? timed_replay_run(source, config, o, rec, orders, *n_rec, NULL, err)
                     : feed(source, config, o, rec, orders, *n_rec, NULL, err);
    for (uint32_t i = 0; i < *n_rec; i++)
        hierarchy_free(rec[i]);
    *n_rec = 0;
    for (uint32_t i = 0; rc == 0 && i < n_streams; i++)
        rc = nextuse_finish(streams[i], err);
    return rc;
}

int replay_run(const sched_source *source, const gpu_config *config, const replay_options *o,
               const hierarchy_options *options, uint32_t count, hierarchy **out, progress *bar,
               ws_error *err)
{
    uint32_t kernels = source->trace->kernel_count, slots = count ? count : 1;
    hierarchy_options *final = calloc(slots, sizeof *final);
    nextuse **owned = calloc(3 * (size_t)slots, sizeof *owned);  /* every key stream */
    hierarchy **rec = calloc(2 * (size_t)slots, sizeof *rec);     /* one pass's recorders */
    /* Each hierarchy's warp order, and each recorder's (its hierarchy's). */
    warp_order_spec *orders = calloc(slots, sizeof *orders);
    warp_order_spec *rec_orders = calloc(2 * (size_t)slots, sizeof *rec_orders);
    nextuse **l1_for_l2 = calloc(slots, sizeof *l1_for_l2);
    uint32_t n_owned = 0, n_rec = 0;
    int rc = -1;
    if (count)
        memset(out, 0, count * sizeof *out);
    const gpu_config **configs = calloc(slots, sizeof *configs);
    for (uint32_t i = 0; configs && i < count; i++)
        configs[i] = &options[i].config;
    if (!final || !owned || !rec || !orders || !rec_orders || !l1_for_l2 || !configs) {
        free(configs);
        ws_fail(err, "out of memory");
        goto out;
    }
    rc = config_check_models(configs, count, err);
    free(configs);
    if (rc != 0)
        goto out;
    rc = -1;
    /* Pass 1: L1 keys for every OPT L1 (twice when its L2 is OPT too: the
     * L2 recorder replays the same L1 and consumes one copy). */
    int timed = count && options[0].timed;
    for (uint32_t i = 0; i < count; i++) {
        final[i] = options[i];
        orders[i] = options[i].warp_order;
        if (hierarchy_resolve_policies(&final[i], err) != 0)
            goto out;
        final[i].l2_by_touch = o->l2_by_touch; /* hierarchy_new refuses where it is not exact */
        if (options[i].timed != timed) {
            ws_fail(err, "replay: a run is either timed or functional, not both");
            goto out;
        }
        if (timed && (needs_next(&final[i].l1_spec) || needs_next(&final[i].l2_spec))) {
            /* OPT needs the future of its order, which its own hits would
             * change in a closed loop: it rides a timed LRU run's order. */
            final[i].timed = 0;
            final[i].timed_by_lru = 1;
        }
    }
    for (uint32_t i = 0; i < count; i++) {
        if (!needs_next(&final[i].l1_spec))
            continue;
        for (int copy = 0; copy < 1 + needs_next(&final[i].l2_spec); copy++) {
            nextuse *n = nextuse_new(err);
            if (!n)
                goto out;
            owned[n_owned++] = n;
            *(copy ? &l1_for_l2[i] : &final[i].l1_next) = n;
            rec_orders[n_rec] = orders[i];
            if (!(rec[n_rec++] = recorder(&final[i], kernels, 0, NULL, n, NULL, err)))
                goto out;
        }
    }
    if (recording_pass(source, config, o, rec, rec_orders, &n_rec, owned, n_owned, timed, err) != 0)
        goto out;
    /* Pass 2: L2 keys for every OPT L2, behind the real L1 policy. */
    uint32_t first_l2 = n_owned;
    for (uint32_t i = 0; i < count; i++) {
        if (!needs_next(&final[i].l2_spec))
            continue;
        nextuse *n = nextuse_new(err);
        if (!n)
            goto out;
        owned[n_owned++] = final[i].l2_next = n;
        rec_orders[n_rec] = orders[i];
        if (!(rec[n_rec++] = recorder(&final[i], kernels, 1, l1_for_l2[i], NULL, n, err)))
            goto out;
    }
    if (recording_pass(source, config, o, rec, rec_orders, &n_rec, owned + first_l2,
                       n_owned - first_l2, timed, err) != 0)
        goto out;
    /* The real pass: one stream for all, or in the timed replay
     * (docs/metrics.md §12) a closed loop each. */
    for (uint32_t i = 0; i < count; i++)
        if (!(out[i] = hierarchy_new(&final[i], kernels, err)))
            goto out;
    if ((timed ? timed_replay_run(source, config, o, out, orders, count, bar, err)
               : feed(source, config, o, out, orders, count, bar, err)) != 0)
        goto out;
    for (uint32_t i = 0; i < count; i++)
        if (hierarchy_finish(out[i], err) != 0)
            goto out;
    rc = 0;
out:
    for (uint32_t i = 0; rec && i < n_rec; i++)
        hierarchy_free(rec[i]);
    for (uint32_t i = 0; owned && i < n_owned; i++)
        nextuse_free(owned[i]);
    if (rc != 0)
        for (uint32_t i = 0; i < count; i++) {
            hierarchy_free(out[i]);
            out[i] = NULL;
        }
    free(final);
    free(owned);
    free(rec);
    free(orders);
    free(rec_orders);
    free(l1_for_l2);
    return rc;
}
