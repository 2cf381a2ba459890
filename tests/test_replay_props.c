/* tests/test_replay_props.c: properties of the replay on random traces
 * (SPEC §3, §7): LRU against reuse distance, OPT as the upper bound, seeded
 * randomness, and the threaded comparison equal to one-at-a-time replays. */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/resource.h>

#include "analyzer/analysis.h"
#include "analyzer/cache.h"
#include "analyzer/replay.h"
#include "analyzer/reuse.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

static cache *new_cache(const char *policy, uint32_t sets, uint32_t ways, uint64_t seed)
{
    ws_error err;
    cache_options o = {.sets = sets, .ways = ways, .line_bytes = 128, .policy = policy_find(policy),
                       .policy_geometry = {.seed = seed}};
    cache *c = cache_new(&o, &err);
    cr_assert_not_null(c, "%s", err.msg);
    return c;
}

Test(replay_props, fully_associative_lru_hits_equal_reuse_distance_below_capacity)
{
    for (uint64_t seed = 1; seed <= 6; seed++) {
        uint64_t rng = seed;
        uint32_t ways = 1 + (uint32_t)(test_rand(&rng) % 64), footprint = 8 + (uint32_t)(test_rand(&rng) % 200);
        cache *c = new_cache("lru", 1, ways, 1);
        ws_error err;
        reuse_state *rd = reuse_state_new(NULL, &err);
        uint64_t hits = 0, below = 0;
        for (int i = 0; i < 20000; i++) {
            /* Skewed: half the accesses to a small hot set. */
            uint64_t line = test_rand(&rng) % 2 ? test_rand(&rng) % (footprint / 4 + 1)
                                                : test_rand(&rng) % footprint;
            cache_result r;
            cache_read(c, &(cache_req){.line = line}, 1, 0, &r);
            hits += r.hit;
            uint64_t d = reuse_access(rd, line, NULL);
            below += d != REUSE_COLD && d < ways;
        }
        cr_expect_eq(hits, below, "seed %llu, %u ways: LRU %llu hits, reuse distance %llu",
                     (unsigned long long)seed, ways, (unsigned long long)hits, (unsigned long long)below);
        reuse_state_free(rd);
        cache_free(c);
    }
}

Test(replay_props, set_associative_lru_equals_per_set_reuse_distance)
{
    enum { SETS = 8, WAYS = 4 };
    cache *c = new_cache("lru", SETS, WAYS, 1);
    ws_error err;
    reuse_state *rd[SETS];
    for (int s = 0; s < SETS; s++)
        rd[s] = reuse_state_new(NULL, &err);
    uint64_t rng = 42, hits = 0, below = 0;
    for (int i = 0; i < 20000; i++) {
        uint64_t line = test_rand(&rng) % 300;
        cache_result r;
        cache_read(c, &(cache_req){.line = line}, 1, 0, &r);
        hits += r.hit;
        uint64_t d = reuse_access(rd[line % SETS], line, NULL);
        below += d != REUSE_COLD && d < WAYS;
    }
    cr_expect_eq(hits, below);
    for (int s = 0; s < SETS; s++)
        reuse_state_free(rd[s]);
    cache_free(c);
}

/* A load-only random trace: several CTAs and warps, skewed lines. */
static wst_memtrace *load_trace(uint64_t seed, uint32_t ctas, uint32_t per_warp)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel k = {.name = "k", .grid = {ctas, 1, 1}, .block = {128, 1, 1}};
    cr_assert_eq(wst_sink_add_kernel(&s, &k, &err), 0);
    for (uint32_t p = 0; p < 4; p++)
        wst_sink_add_pc(&s, 0, &(wst_pc){.offset = p * 16}, &err);
    uint64_t rng = seed;
    for (uint32_t cta = 0; cta < ctas; cta++)
        for (uint32_t i = 0; i < per_warp; i++)
            for (uint32_t w = 0; w < 4; w++) {
                wst_record r;
                memset(&r, 0, sizeof r);
                r.cta = cta;
                r.warp = w;
                r.pc = (uint32_t)(test_rand(&rng) % 4);
                r.size = 4;
                int lanes = test_rand(&rng) % 3 ? 1 : 32;
                for (int l = 0; l < lanes; l++) {
                    r.mask |= 1u << l;
                    uint64_t line = test_rand(&rng) % 3 ? test_rand(&rng) % 64 : test_rand(&rng) % 4096;
                    r.addr[l] = 0x10000000 + line * 128 + (uint64_t)(l % 32) * 4;
                }
                cr_assert_eq(wst_sink_add_record(&s, 0, &r, &err), 0);
            }
    return m;
}

static gpu_config small_gpu(void)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = 2;
    cr_assert_eq(config_override(&c, "--l1", "4K:4:128", &err), 0);
    cr_assert_eq(config_override(&c, "--l2", "48K:8:128", &err), 0);
    return c;
}

static const char *const POLICIES[] = {"lru", "fifo", "random", "lip", "bip", "dip",
                                       "srrip", "brrip", "drrip", "opt"};
enum { NPOL = 10 };

/* Every policy at L1 (L2 = l2), or with l2_varies every policy at L2
 * behind an LRU L1. */
static void replay_all(const wst_memtrace *m, const gpu_config *c, uint32_t threads,
                       const char *l2, int l2_varies, hierarchy **out)
{
    hierarchy_options o[NPOL];
    for (int i = 0; i < NPOL; i++) {
        o[i] = (hierarchy_options){.config = *c, .seed = 5};
        snprintf(o[i].config.l1.policy, sizeof o[i].config.l1.policy, "%s",
                 l2_varies ? "lru" : POLICIES[i]);
        snprintf(o[i].config.l2.policy, sizeof o[i].config.l2.policy, "%s",
                 l2_varies ? POLICIES[i] : l2);
    }
    replay_options ro;
    replay_options_default(&ro);
    ro.threads = threads;
    sched_source src = sched_source_memtrace(m);
    ws_error err;
    cr_assert_eq(replay_run(&src, c, &ro, o, NPOL, out, NULL, &err), 0, "%s", err.msg);
    sched_source_free(&src);
}

Test(replay_props, opt_has_at_least_the_hits_of_every_policy)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        wst_memtrace *m = load_trace(seed, 12, 60);
        gpu_config c = small_gpu();
        hierarchy *h[NPOL];
        replay_all(m, &c, 2, "lru", 0, h);
        const replay_results *opt = hierarchy_results(h[NPOL - 1]);
        cr_assert_str_eq(opt->l1_policy, "opt");
        cr_expect_gt(opt->total.l1.hits, 0);
        for (int i = 0; i < NPOL; i++) {
            const replay_results *r = hierarchy_results(h[i]);
            cr_expect_eq(r->total.l1.accesses, opt->total.l1.accesses, "same stream");
            cr_expect_leq(r->total.l1.hits, opt->total.l1.hits, "seed %llu: L1 %s %llu > opt %llu",
                          (unsigned long long)seed, r->l1_policy,
                          (unsigned long long)r->total.l1.hits,
                          (unsigned long long)opt->total.l1.hits);
        }
        for (int i = 0; i < NPOL; i++)
            hierarchy_free(h[i]);
        /* At L2, behind the same LRU L1 (so every L2 sees the same stream). */
        replay_all(m, &c, 2, NULL, 1, h);
        const replay_results *opt2 = hierarchy_results(h[NPOL - 1]);
        cr_assert_str_eq(opt2->l2_policy, "opt");
        for (int i = 0; i < NPOL; i++) {
            const replay_results *r = hierarchy_results(h[i]);
            cr_expect_eq(r->total.l2.accesses, opt2->total.l2.accesses, "same L2 stream");
            cr_expect_leq(r->total.l2.hits, opt2->total.l2.hits, "L2 %s beats opt", r->l2_policy);
        }
        for (int i = 0; i < NPOL; i++)
            hierarchy_free(h[i]);
        wst_memtrace_free(m);
    }
}

Test(replay_props, threads_change_nothing_and_random_repeats)
{
    wst_memtrace *m = load_trace(9, 10, 50);
    gpu_config c = small_gpu();
    hierarchy *a[NPOL], *b[NPOL];
    replay_all(m, &c, 1, "lru", 0, a);
    replay_all(m, &c, 3, "lru", 0, b);
    for (int i = 0; i < NPOL; i++) {
        const replay_results *x = hierarchy_results(a[i]), *y = hierarchy_results(b[i]);
        cr_expect(memcmp(&x->total, &y->total, sizeof x->total) == 0, "%s differs with threads",
                  x->l1_policy);
        hierarchy_free(a[i]);
        hierarchy_free(b[i]);
    }
    wst_memtrace_free(m);
}

/* ---- the worker ring ---------------------------------------------------- */

/* Counts what it sees; slow ones spin per instruction, and a failing one
 * stops at its `fail_at`-th instruction. */
typedef struct counting_consumer {
    uint64_t instructions, requests, kernels;
    uint64_t spin, fail_at;
    volatile uint64_t sink;
} counting_consumer;

static int count_kernel_begin(void *ctx, uint32_t kernel, uint32_t pcs, ws_error *err)
{
    ((counting_consumer *)ctx)->kernels++;
    return 0;
}

static int count_instruction(void *ctx, const replay_issue *is, const ws_request *rq,
                             const replay_ref *refs, int n, ws_error *err)
{
    counting_consumer *c = ctx;
    for (uint64_t i = 0; i < c->spin; i++)
        c->sink += i;
    c->requests += (uint64_t)n;
    if (++c->instructions == c->fail_at)
        return ws_fail(err, "consumer gave up at instruction %llu",
                       (unsigned long long)c->instructions);
    return 0;
}

static int count_kernel_end(void *ctx, ws_error *err)
{
    return 0;
}

static int run_consumers_timed(const wst_memtrace *m, counting_consumer *c, uint32_t count,
                               uint32_t threads, double *cpu_seconds, replay_stream_stats *stats,
                               ws_error *err)
{
    gpu_config g = small_gpu();
    replay_consumer consumers[4];
    for (uint32_t i = 0; i < count; i++)
        consumers[i] = (replay_consumer){.ctx = &c[i], .kernel_begin = count_kernel_begin,
                                         .instruction = count_instruction,
                                         .kernel_end = count_kernel_end};
    replay_options ro;
    replay_options_default(&ro);
    ro.threads = threads;
    ro.consumer_cpu_seconds = cpu_seconds;
    sched_source src = sched_source_memtrace(m);
    int rc = replay_stream_run(&src, &g, &ro, consumers, count, NULL, stats, err);
    sched_source_free(&src);
    return rc;
}

static int run_consumers(const wst_memtrace *m, counting_consumer *c, uint32_t count,
                         uint32_t threads, ws_error *err)
{
    return run_consumers_timed(m, c, count, threads, NULL, NULL, err);
}

static double process_cpu_seconds(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec / 1e6;
}

/* Each consumer's CPU time is charged to it, inline or on workers: a
 * consumer doing 20 000 additions per instruction costs far more than one
 * doing none and most of what decoding leaves, and the parts together with
 * the decoding thread's never exceed what the process spent
 * (bench_pipeline's breakdown rests on it). */
Test(replay_props, consumer_cpu_time_goes_to_the_consumer_that_spent_it)
{
    wst_memtrace *m = load_trace(11, 16, 100); /* 6 400 instructions */
    for (uint32_t threads = 1; threads <= 3; threads += 2) {
        counting_consumer c[3] = {{.spin = 0}, {.spin = 20000}, {.spin = 0}};
        double cpu[3] = {0, 0, 0};
        replay_stream_stats stats;
        ws_error err;
        double before = process_cpu_seconds();
        cr_assert_eq(run_consumers_timed(m, c, 3, threads, cpu, &stats, &err), 0, "%s", err.msg);
        double spent = process_cpu_seconds() - before;
        cr_assert_eq(c[1].instructions, 6400);
        cr_assert_gt(cpu[1], 10 * (cpu[0] + cpu[2]), "threads %u: %g against %g and %g",
                     threads, cpu[1], cpu[0], cpu[2]);
        cr_assert_gt(cpu[1], 0.5 * (spent - stats.decode_cpu_seconds),
                     "threads %u: %g of %g, decoding %g", threads, cpu[1], spent,
                     stats.decode_cpu_seconds);
        cr_assert_geq(stats.decode_cpu_seconds, 0.0);
        /* rusage ticks are coarser than thread clocks: a little slack. */
        cr_assert_leq(cpu[0] + cpu[1] + cpu[2] + stats.decode_cpu_seconds, spent + 0.02,
                      "threads %u: parts %g + %g + %g + %g, process %g", threads, cpu[0],
                      cpu[1], cpu[2], stats.decode_cpu_seconds, spent);
    }
    wst_memtrace_free(m);
}

/* Consumers of very different speeds on worker threads all see the whole
 * stream (many batches go round the ring), the same as one thread. */
Test(replay_props, ring_delivers_every_batch_to_every_worker)
{
    wst_memtrace *m = load_trace(9, 64, 200); /* 51 200 instructions */
    counting_consumer one = {0}, four[4] = {{.spin = 0}, {.spin = 400}, {.spin = 0}, {.spin = 50}};
    ws_error err;
    cr_assert_eq(run_consumers(m, &one, 1, 1, &err), 0, "%s", err.msg);
    cr_assert_eq(run_consumers(m, four, 4, 4, &err), 0, "%s", err.msg);
    cr_assert_eq(one.instructions, 64 * 200 * 4);
    cr_assert_gt(one.requests, (uint64_t)16 << 14, "the stream must span many batches");
    for (int i = 0; i < 4; i++) {
        cr_assert_eq(four[i].instructions, one.instructions);
        cr_assert_eq(four[i].requests, one.requests);
        cr_assert_eq(four[i].kernels, 1);
    }
    wst_memtrace_free(m);
}

/* A worker that fails mid-stream stops the pass with its message, whatever
 * the other workers are doing, and nothing hangs. */
Test(replay_props, failing_worker_stops_the_pass)
{
    wst_memtrace *m = load_trace(10, 64, 200);
    for (uint32_t threads = 1; threads <= 3; threads++) {
        counting_consumer c[3] = {{.spin = 100}, {.fail_at = 30000}, {.spin = 0}};
        ws_error err;
        cr_assert_eq(run_consumers(m, c, 3, threads, &err), -1);
        cr_assert(strstr(err.msg, "gave up at instruction 30000"), "%s", err.msg);
    }
    wst_memtrace_free(m);
}

/* analyze's five threads each report their CPU time when asked, and only
 * then (the reports never carry timings). */
Test(replay_props, analysis_measures_each_part_only_when_asked)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    gpu_config config;
    ws_error err;
    cr_assert_eq(config_load(&config, "fermi", &err), 0, "%s", err.msg);
    for (int measure = 0; measure <= 1; measure++) {
        wst_reader *r = wst_reader_open(trace, &err);
        cr_assert_not_null(r, "%s", err.msg);
        analysis_options options;
        analysis_options_default(&options);
        options.measure_cpu = measure;
        double before = process_cpu_seconds();
        analysis *a = analysis_run(r, &config, &options, NULL, &err);
        double spent = process_cpu_seconds() - before;
        cr_assert_not_null(a, "%s", err.msg);
        const analysis_cpu *c = &a->cpu;
        double parts[] = {c->schedule, c->metrics, c->sector_reuse, c->sharing, c->replay};
        double sum = 0;
        for (int i = 0; i < 5; i++) {
            if (measure)
                cr_assert_gt(parts[i], 0.0, "part %d", i);
            else
                cr_assert_eq(parts[i], 0.0, "part %d", i);
            sum += parts[i];
        }
        cr_assert_leq(sum, spent + 0.02, "parts %g, process %g", sum, spent);
        analysis_free(a);
        wst_reader_close(r);
    }
    free(trace);
    test_tmpdir_cleanup(dir);
}
