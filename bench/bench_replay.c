/* bench/bench_replay.c: the replay library.  Prints a Markdown section:
 *   - cache throughput per policy, in line requests per second on one core,
 *     over one L1 of the fermi geometry (16 KB, 4 ways, 32 sets) fed a
 *     20M-request stream with a hot set, a warm set and a stream;
 *   - `compare` of 6 policies (one decode feeding 6 hierarchies on worker
 *     threads) against 6 separate single-policy replays, same process, same
 *     trace (PolyBench gemm, medium size), as a ratio;
 *   - the CCN ring's cost (lru+ccn-b against lru) and LCM's (lcm against
 *     lru) on the same trace;
 *   - the (N, p) sweep on the poise preset against one replay (target:
 *     under 60x one replay's wall time).
 *
 *   build/rel/bench/bench_replay */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/cache.h"
#include "analyzer/nextuse.h"
#include "analyzer/replay.h"
#include "analyzer/sweep.h"
#include "analyzer/tagcache.h"
#include "collectors/workloads/workloads.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void die(const char *what, const ws_error *err)
{
    fprintf(stderr, "bench_replay: %s: %s\n", what, err->msg);
    exit(1);
}

enum { REQUESTS = 20 * 1000 * 1000 };

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* A request stream: line numbers, the L1 (SM) of each, OPT's next uses. */
typedef struct stream {
    uint64_t *lines, *next;
    uint16_t *sms;
    size_t count, cap;
    uint32_t caches;
} stream;

static void stream_next_uses(stream *st)
{
    ws_error err;
    nextuse *nu = nextuse_new(&err);
    for (size_t i = 0; i < st->count && nu; i++)
        nextuse_record(nu, st->lines[i] ^ ((uint64_t)st->sms[i] << 52), &err);
    if (!nu || nextuse_finish(nu, &err) != 0)
        die("next use", &err);
    for (size_t i = 0; i < st->count; i++)
        nextuse_read(nu, &st->next[i], &err);
    nextuse_free(nu);
}

/* Each rate is the best of this many runs on fresh caches: a run that
 * another process slowed down says nothing of the cache. */
enum { RATE_RUNS = 3 };

/* One L1 per SM of the fermi geometry (16 KB, 4 ways, 32 sets). */
static double cache_rate(const char *policy, const stream *st, double *hit_rate)
{
    ws_error err;
    cache_options o = {.sets = 32, .ways = 4, .line_bytes = 128, .policy = policy_find(policy),
                       .policy_geometry = {.seed = 1}};
    double best = 0;
    for (int run = 0; run < RATE_RUNS; run++) {
        cache *c[64];
        for (uint32_t i = 0; i < st->caches; i++)
            if (!(c[i] = cache_new(&o, &err)))
                die(policy, &err);
        uint64_t hits = 0;
        cache_req q = {.sector_mask = 0xf};
        cache_result r;
        /* The stream in locals: through st, every field would be loaded
         * again after each call, a cost of the loop, not of the cache. */
        const uint64_t *lines = st->lines, *next = st->next;
        const uint16_t *sms = st->sms;
        size_t count = st->count;
        double t0 = now();
        for (size_t i = 0; i < count; i++) {
            q.line = lines[i];
            q.next_use = next[i];
            cache_read(c[sms[i]], &q, 1, 0, &r);
            hits += r.hit;
        }
        double rate = (double)st->count / (now() - t0);
        best = rate > best ? rate : best;
        for (uint32_t i = 0; i < st->caches; i++)
            cache_free(c[i]);
        *hit_rate = (double)hits / (double)st->count;
    }
    return best;
}

/* The floor: the scheduler's bare tag-only LRU (no policy interface, no
 * sectors, owners or pending times), on the same stream. */
static double tagcache_rate(const stream *st, double *hit_rate)
{
    ws_error err;
    cache_config g = {.size_bytes = 16384, .ways = 4, .line_bytes = 128, .slices = 1};
    double best = 0;
    for (int run = 0; run < RATE_RUNS; run++) {
        tagcache *c[64];
        for (uint32_t i = 0; i < st->caches; i++)
            if (!(c[i] = tagcache_new(&g, &err)))
                die("tagcache", &err);
        uint64_t hits = 0;
        const uint64_t *lines = st->lines;
        const uint16_t *sms = st->sms;
        size_t count = st->count;
        double t0 = now();
        for (size_t i = 0; i < count; i++)
            hits += (uint64_t)tagcache_access(c[sms[i]], lines[i], 1, 0).hit;
        double rate = (double)st->count / (now() - t0);
        best = rate > best ? rate : best;
        for (uint32_t i = 0; i < st->caches; i++)
            tagcache_free(c[i]);
        *hit_rate = (double)hits / (double)st->count;
    }
    return best;
}

static void policy_table(const stream *st)
{
    printf("| policy | M requests/s | hit rate |\n|---|---|---|\n");
    double floor_hit, floor_rate = tagcache_rate(st, &floor_hit);
    printf("| (reference: bare tag-only LRU) | %.1f | %.1f%% |\n", floor_rate / 1e6, 100 * floor_hit);
    for (int i = 0; policy_all[i]; i++) {
        double hit;
        double rate = cache_rate(policy_all[i]->name, st, &hit);
        printf("| %s | %.1f | %.1f%% |\n", policy_all[i]->name, rate / 1e6, 100 * hit);
        fflush(stdout);
    }
}

/* Collects the global-load requests of a real trace, in replay order. */
static int collect(void *ctx, const replay_issue *is, const ws_request *rq, int n, ws_error *err)
{
    (void)err;
    stream *st = ctx;
    if (is->kind != 0 || is->space != 0 || st->count + (size_t)n > st->cap)
        return 0;
    for (int i = 0; i < n; i++) {
        st->lines[st->count] = rq[i].line_addr >> 7;
        st->sms[st->count++] = (uint16_t)is->sm;
    }
    return 0;
}

static double replay_seconds(const sched_source *src, const gpu_config *c, const char *const *policies,
                             uint32_t count)
{
    hierarchy_options o[8];
    for (uint32_t i = 0; i < count; i++) {
        o[i] = (hierarchy_options){.config = *c, .seed = 1};
        snprintf(o[i].config.l1.policy, sizeof o[i].config.l1.policy, "%s", policies[i]);
    }
    replay_options ro;
    replay_options_default(&ro);
    hierarchy *h[8];
    ws_error err;
    double t0 = now();
    if (replay_run(src, c, &ro, o, count, h, NULL, &err) != 0)
        die("replay", &err);
    double t = now() - t0;
    for (uint32_t i = 0; i < count; i++)
        hierarchy_free(h[i]);
    return t;
}

typedef enum { PLAIN, WITH_RING, WITH_LCM } managed;

/* Seconds of one replay of src on config c, lru, alone, with the CCN ring
 * (ccn-b: every candidate miss probes the other L1s) or with LCM (its
 * monitor on every fill, hit and eviction, bypass and coalescing). */
static double lru_seconds(const sched_source *src, const gpu_config *c, managed with)
{
    hierarchy_options o = {.config = *c, .seed = 1};
    if (with == WITH_RING) {
        o.ccn = ccn_options_default();
        o.ccn.enabled = 1;
        o.ccn.throttle = 0;
    } else if (with == WITH_LCM) {
        o.lcm = lcm_options_default();
        o.lcm.bypass = o.lcm.coalesce = 1;
    }
    replay_options ro;
    replay_options_default(&ro);
    ro.threads = 1;
    hierarchy *h;
    ws_error err;
    double t0 = now();
    if (replay_run(src, c, &ro, &o, 1, &h, NULL, &err) != 0)
        die("replay", &err);
    double t = now() - t0;
    hierarchy_free(h);
    return t;
}

static void ccn_and_sweep(const sched_source *src, const char *path)
{
    ws_error err;
    gpu_config fermi, poise;
    if (config_load(&fermi, "fermi", &err) != 0 || config_load(&poise, "poise", &err) != 0)
        die("config", &err);
    double plain = lru_seconds(src, &fermi, PLAIN), ring = lru_seconds(src, &fermi, WITH_RING);
    double managed_time = lru_seconds(src, &fermi, WITH_LCM);
    printf("\nThe CCN ring on gemm (medium), fermi, one thread: `lru` %.2f s, `lru+ccn-b`\n"
           "(every candidate miss probes up to 14 other L1s) %.2f s: **%.2fx**.\n",
           plain, ring, ring / plain);
    printf("\nLCM on the same replay: `lcm` (bypass and coalescing, its monitor on\n"
           "every L1 fill, hit and eviction) %.2f s: **%.2fx** `lru`.\n", managed_time, managed_time / plain);
    double one = lru_seconds(src, &poise, PLAIN);
    replay_options ro;
    replay_options_default(&ro);
    hierarchy_options base = {.config = poise, .seed = 1};
    sweep_result grid;
    double t0 = now();
    if (sweep_run(src, &poise, &ro, &base, sweep_default_n_max(&poise), NULL, &grid, &err) != 0)
        die(path, &err);
    double sweep = now() - t0;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("\nThe (N, p) sweep on gemm (medium), poise preset: %u hierarchies from one\n"
           "decode, on %ld cores, %.1f s; one `lru` replay %.2f s. Target: under 60x.\n\n"
           "sweep / replay = **%.1fx**\n",
           grid.count, cores, sweep, one, sweep / one);
    sweep_result_free(&grid);
}

int main(void)
{
    ws_error err;
    stream st = {.cap = REQUESTS, .caches = 1};
    st.lines = malloc(REQUESTS * sizeof *st.lines);
    st.next = malloc(REQUESTS * sizeof *st.next);
    st.sms = calloc(REQUESTS, sizeof *st.sms);
    uint64_t rng = 7;
    for (size_t i = 0; i < REQUESTS; i++) {
        uint64_t pick = splitmix(&rng) % 100;
        st.lines[i] = pick < 50 ? splitmix(&rng) % 96                     /* hot: fits */
                      : pick < 80 ? 1000 + splitmix(&rng) % 1024          /* warm: 8x L1 */
                                  : 1000000 + i;                          /* streaming */
    }
    st.count = REQUESTS;
    stream_next_uses(&st);
    printf("## Replay (`bench/bench_replay.c`)\n\n");
    printf("Cache throughput per policy, one core, L1s of the fermi geometry (16 KB, 4\n"
           "ways, 32 sets, 128 B lines), best of %d runs. Target: >= 100 M line\n"
           "requests/s for lru.\n\n", RATE_RUNS);
    printf("Synthetic: %d M requests to one L1 (50%% to a hot set that fits, 30%% to a\n"
           "warm set 8x the cache, 20%% streaming; hits and misses interleave at random,\n"
           "the worst case for branch prediction).\n\n",
           REQUESTS / 1000000);
    policy_table(&st);

    char path[] = "/tmp/bench_replay_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    if (record_workload("gemm", SIZE_MEDIUM, 1, 0, path, NULL, &err) != 0)
        die("record gemm", &err);
    wst_reader *r = wst_reader_open(path, &err);
    if (!r)
        die(path, &err);
    gpu_config c;
    config_load(&c, "fermi", &err);
    sched_source src = sched_source_wst(r);
    replay_options ro;
    replay_options_default(&ro);
    ro.observe = collect;
    ro.observe_ctx = &st;
    st.count = 0;
    st.caches = c.sms;
    if (replay_run(&src, &c, &ro, NULL, 0, NULL, NULL, &err) != 0)
        die("collect", &err);
    stream_next_uses(&st);
    printf("\nReal: the %.1f M global-load line requests of PolyBench gemm (medium), in\n"
           "the rr,gto issue order, each to its SM's L1 (15 L1s).\n\n",
           (double)st.count / 1e6);
    policy_table(&st);
    free(st.lines);
    free(st.next);
    free(st.sms);

    static const char *const six[] = {"lru", "fifo", "random", "dip", "srrip", "drrip"};
    double separate = 0;
    for (int i = 0; i < 6; i++)
        separate += replay_seconds(&src, &c, &six[i], 1);
    double together = replay_seconds(&src, &c, six, 6);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t records = 0;
    for (uint32_t k = 0; k < wst_reader_trace(r)->kernel_count; k++)
        records += wst_reader_trace(r)->kernels[k].record_count;
    printf("\n`compare` of 6 policies (lru, fifo, random, dip, srrip, drrip) on gemm (medium,\n"
           "%.1f M warp records), fermi, %ld cores: one decode feeding 6 hierarchies\n"
           "versus 6 separate replays in the same process.\n\n",
           records / 1e6, cores);
    printf("| run | seconds | warp records/s per policy |\n|---|---|---|\n");
    printf("| 6 separate replays | %.2f | %.2f M |\n", separate, 6 * records / separate / 1e6);
    printf("| one compare | %.2f | %.2f M |\n", together, 6 * records / together / 1e6);
    printf("\ncompare / separate = **%.2f**\n", together / separate);
    ccn_and_sweep(&src, path);
    printf("\nThe reference row is the bare tag-only LRU the scheduler uses (no policy\n"
           "interface, sectors, owners or pending times).  `lru` reads through the\n"
           "cache's plain-LRU instance (docs/replay.md, \"How the cache reads\"): its\n"
           "stamps written in place, its 4 ways a constant; the other policies read\n"
           "through their calls, with the ways a constant too.\n");
    wst_reader_close(r);
    unlink(path);
    return 0;
}
