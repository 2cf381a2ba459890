/* tests/test_replay_props.c: properties of the replay on random traces
 * (docs/metrics.md §3, §7): LRU against reuse distance, OPT as the upper bound, seeded
 * randomness, and the threaded comparison equal to one-at-a-time replays. */
#include <criterion/criterion.h>
#include <string.h>
#include <sys/resource.h>

#include "analyzer/cta_cache.h"
#include "analyzer/analysis.h"
#include "analyzer/cache.h"
#include "analyzer/replay.h"
#include "analyzer/systems.h"
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

/* Adds ctas × per_warp × warps records to kernel k, each drawn by `draw`
 * (which sets PC, kind, operator, mask and addresses). */
static void random_records(wst_sink *s, uint32_t k, uint32_t ctas, uint32_t per_warp,
                           uint32_t warps, void (*draw)(wst_record *r, uint64_t *rng), uint64_t *rng)
{
    ws_error err;
    for (uint32_t cta = 0; cta < ctas; cta++)
        for (uint32_t i = 0; i < per_warp; i++)
            for (uint32_t w = 0; w < warps; w++) {
                wst_record r;
                memset(&r, 0, sizeof r);
                r.cta = cta;
                r.warp = w;
                r.size = 4;
                draw(&r, rng);
                cr_assert_eq(wst_sink_add_record(s, k, &r, &err), 0);
            }
}

/* Loads over 4 PCs: mostly one lane, skewed lines. */
static void draw_load(wst_record *r, uint64_t *rng)
{
    r->pc = (uint32_t)(test_rand(rng) % 4);
    int lanes = test_rand(rng) % 3 ? 1 : 32;
    for (int l = 0; l < lanes; l++) {
        r->mask |= 1u << l;
        uint64_t line = test_rand(rng) % 3 ? test_rand(rng) % 64 : test_rand(rng) % 4096;
        r->addr[l] = 0x10000000 + line * 128 + (uint64_t)(l % 32) * 4;
    }
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
    random_records(&s, 0, ctas, per_warp, 4, draw_load, &rng);
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

/* Every policy at L1 on the same schedule: OPT's hits are at least each
 * one's (docs/metrics.md §7). */
static void expect_opt_bounds_l1(const wst_memtrace *m, const gpu_config *c, uint64_t seed)
{
    hierarchy *h[NPOL];
    replay_all(m, c, 2, "lru", 0, h);
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
}

Test(replay_props, opt_has_at_least_the_hits_of_every_policy)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        wst_memtrace *m = load_trace(seed, 12, 60);
        gpu_config c = small_gpu();
        hierarchy *h[NPOL];
        expect_opt_bounds_l1(m, &c, seed);
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

/* ---- OPT's next use (docs/metrics.md §7): stores and kernel ends end it ---- */

typedef struct op {
    uint32_t kernel;
    wst_kind kind;
    uint64_t line;
    wst_cache_op cache_op;
} op;

/* One warp of one CTA per kernel, one lane per record, in this order. */
static wst_memtrace *ops_trace(const op *ops, size_t n, uint32_t kernels)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    for (uint32_t k = 0; k < kernels; k++) {
        wst_kernel kernel = {.name = "k", .grid = {1, 1, 1}, .block = {32, 1, 1}};
        cr_assert_geq(wst_sink_add_kernel(&s, &kernel, &err), 0);
        cr_assert_geq(wst_sink_add_pc(&s, k, &(wst_pc){.offset = 0}, &err), 0);
    }
    for (size_t i = 0; i < n; i++) {
        wst_record r;
        memset(&r, 0, sizeof r);
        r.kind = (uint8_t)ops[i].kind;
        r.cache_op = (uint8_t)ops[i].cache_op;
        r.size = 4;
        r.mask = 1;
        r.addr[0] = 0x10000000 + ops[i].line * 128;
        cr_assert_eq(wst_sink_add_record(&s, ops[i].kernel, &r, &err), 0);
    }
    return m;
}

/* Replays m on one SM whose L1 is `l1`, under each policy; L1 counts. */
static void replay_policies(const wst_memtrace *m, const char *l1, const char *const *policies,
                            int n, replay_counts *out)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = 1;
    cr_assert_eq(config_override(&c, "--l1", l1, &err), 0, "%s", err.msg);
    hierarchy_options o[8];
    hierarchy *h[8];
    for (int i = 0; i < n; i++) {
        o[i] = (hierarchy_options){.config = c, .seed = 5};
        snprintf(o[i].config.l1.policy, sizeof o[i].config.l1.policy, "%s", policies[i]);
    }
    replay_options ro;
    replay_options_default(&ro);
    sched_source src = sched_source_memtrace(m);
    cr_assert_eq(replay_run(&src, &c, &ro, o, (uint32_t)n, h, NULL, &err), 0, "%s", err.msg);
    for (int i = 0; i < n; i++) {
        out[i] = hierarchy_results(h[i])->total;
        hierarchy_free(h[i]);
    }
    sched_source_free(&src);
}

Test(replay_props, opt_sees_the_store_that_invalidates_a_line)
{
    /* One set of 2 ways.  B A C A, store A, store B, B C.  When C misses,
     * B's next load comes after a store that invalidates it: B is dead, so
     * OPT evicts B and keeps C (2 hits, as LRU).  Counting B's later load as
     * its next use, OPT bypassed C and made 1 hit, below LRU. */
    enum { A = 0, B = 2, C = 4 };
    op ops[] = {{0, WST_LOAD, B, WST_OP_DEFAULT},  {0, WST_LOAD, A, WST_OP_DEFAULT},  {0, WST_LOAD, C, WST_OP_DEFAULT}, {0, WST_LOAD, A, WST_OP_DEFAULT},
                {0, WST_STORE, A, WST_OP_DEFAULT}, {0, WST_STORE, B, WST_OP_DEFAULT}, {0, WST_LOAD, B, WST_OP_DEFAULT}, {0, WST_LOAD, C, WST_OP_DEFAULT}};
    wst_memtrace *m = ops_trace(ops, sizeof ops / sizeof *ops, 1);
    const char *const policies[] = {"lru", "opt"};
    replay_counts r[2];
    replay_policies(m, "256:2:128", policies, 2, r);
    cr_expect_eq(r[0].l1.hits, 2, "LRU");
    cr_expect_eq(r[1].l1.hits, 2, "OPT");
    wst_memtrace_free(m);
}

Test(replay_props, opt_bypasses_a_line_whose_next_load_is_in_a_later_kernel)
{
    /* The L1s are flushed between kernels: a line loaded once per kernel has
     * no next use, so OPT bypasses it (one 32 B sector) instead of filling
     * a dead 128 B line. */
    op ops[] = {{0, WST_LOAD, 9, WST_OP_DEFAULT}, {1, WST_LOAD, 9, WST_OP_DEFAULT}};
    wst_memtrace *m = ops_trace(ops, 2, 2);
    const char *const policies[] = {"lru", "opt"};
    replay_counts r[2];
    replay_policies(m, "16K:4:128", policies, 2, r);
    cr_expect_eq(r[0].traffic.l1_to_l2_read_bytes, 2 * 128, "LRU fills both times");
    cr_expect_eq(r[1].traffic.l1_to_l2_read_bytes, 2 * 32, "OPT bypasses both");
    cr_expect_eq(r[1].l1.bypasses, 2);
    cr_expect_eq(r[1].miss_classes.by_class[MISS_COLD], 0, "bypasses have no miss class");
    wst_memtrace_free(m);
}

/* Loads (some cg) and stores over 3 PCs and 96 hot lines. */
static void draw_load_or_store(wst_record *r, uint64_t *rng)
{
    r->pc = (uint32_t)(test_rand(rng) % 3);
    r->kind = test_rand(rng) % 5 == 0 ? WST_STORE : WST_LOAD;
    r->cache_op = test_rand(rng) % 17 == 0 ? WST_OP_CG : WST_OP_DEFAULT;
    int lanes = test_rand(rng) % 4 ? 1 : 32;
    for (int l = 0; l < lanes; l++) {
        r->mask |= 1u << l;
        r->addr[l] = 0x20000000 + (test_rand(rng) % 96) * 128 + (uint64_t)l * 4;
    }
}

/* Random loads and stores over a few hot lines, in several kernels. */
static wst_memtrace *store_trace(uint64_t seed, uint32_t kernels, uint32_t ctas, uint32_t per_warp)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    uint64_t rng = seed;
    for (uint32_t k = 0; k < kernels; k++) {
        wst_kernel kernel = {.name = "k", .grid = {ctas, 1, 1}, .block = {64, 1, 1}};
        cr_assert_geq(wst_sink_add_kernel(&s, &kernel, &err), 0);
        for (uint32_t p = 0; p < 3; p++)
            wst_sink_add_pc(&s, k, &(wst_pc){.offset = p * 16}, &err);
        random_records(&s, k, ctas, per_warp, 2, draw_load_or_store, &rng);
    }
    return m;
}

Test(replay_props, opt_bounds_every_policy_with_stores_and_kernels)
{
    for (uint64_t seed = 1; seed <= 8; seed++) {
        wst_memtrace *m = store_trace(seed, 3, 6, 40);
        gpu_config c = small_gpu();
        ws_error err;
        if (seed > 4) /* stores that allocate (docs/metrics.md §7) */
            cr_assert_eq(config_override(&c, "--set", "l1.write=allocate", &err), 0, "%s", err.msg);
        expect_opt_bounds_l1(m, &c, seed);
        wst_memtrace_free(m);
    }
}

/* Each kernel's LRU counts as the pass ends it (analysis_options.kernel_done). */
typedef struct kernel_lru {
    uint64_t hits[8], misses[8];
} kernel_lru;

static int keep_lru(void *ctx, const analysis *a, uint32_t k, ws_error *err)
{
    (void)err;
    kernel_lru *l = ctx;
    if (k < 8) {
        l->hits[k] = analysis_kernel_at(a, k)->l1_hits;
        l->misses[k] = analysis_kernel_at(a, k)->l1_misses;
    }
    return 0;
}

/* analyze's reference LRU L1 (the one GTO asks) of m under `schedule`;
 * each kernel's counts into lru when given. */
static analysis *analyze_memtrace_lru(const wst_memtrace *m, const gpu_config *c,
                                      const char *schedule, char *dir, kernel_lru *lru)
{
    char *path = test_path(dir, "t.wst");
    cr_assert_eq(test_write_memtrace(m, path, NULL), 0);
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    cr_assert_not_null(r, "%s", err.msg);
    analysis_options options;
    analysis_options_default(&options);
    options.replay = 0;
    options.kernel_done = lru ? keep_lru : NULL;
    options.kernel_done_ctx = lru;
    cr_assert_eq(sched_options_parse(schedule, &options.schedule, &err), 0);
    analysis *a = analysis_run(r, c, &options, NULL, &err);
    cr_assert_not_null(a, "%s", err.msg);
    wst_reader_close(r);
    free(path);
    return a;
}

static analysis *analyze_memtrace(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                                  char *dir)
{
    return analyze_memtrace_lru(m, c, schedule, dir, NULL);
}

Test(replay_props, cv_loads_bypass_the_reference_l1_too)
{
    /* docs/metrics.md §7: one warp loads a line twice with LDG.E.STRONG.SYS (cv).  The
     * reference L1 that GTO asks applies the same rules as the replay: two
     * bypassed misses in both. */
    op ops[] = {{0, WST_LOAD, 3, WST_OP_CV}, {0, WST_LOAD, 3, WST_OP_CV}};
    wst_memtrace *m = ops_trace(ops, 2, 1);
    const char *const policies[] = {"lru"};
    replay_counts r;
    replay_policies(m, "16K:4:128", policies, 1, &r);
    cr_expect_eq(r.l1.misses, 2);
    cr_expect_eq(r.l1.bypasses, 2);
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = 1;
    char *dir = test_tmpdir();
    analysis *a = analyze_memtrace(m, &c, "rr,gto", dir);
    const analysis_kernel *k0 = analysis_kernel_at(a, 0);
    cr_assert_not_null(k0, "the last kernel stays readable after the run");
    cr_expect_eq(k0->l1_hits, 0);
    cr_expect_eq(k0->l1_misses, 2);
    cr_expect_eq(k0->l1_bypasses, 2);
    cr_expect_eq(a->l1_bypasses, 2, "the trace's sums take the kernel");
    analysis_free(a);
    test_tmpdir_cleanup(dir);
    wst_memtrace_free(m);
}

Test(replay_props, analyze_reference_l1_equals_the_lru_replay)
{
    /* One definition of the L1 rules (docs/metrics.md §7): analyze's LRU counts equal
     * `replay --l1-policy lru` hit for hit, with stores, cg loads, kernels and
     * sectors, under GTO (whose order depends on that L1). */
    const char *const geometries[] = {"4K:4:128", "4K:4:128:32"};
    const char *const writes[] = {"evict", "allocate"};
    char *dir = test_tmpdir();
    for (int v = 0; v < 4; v++) {
        int g = v % 2;
        wst_memtrace *m = store_trace(7 + (uint64_t)g, 3, 6, 40);
        gpu_config c = small_gpu();
        ws_error err;
        cr_assert_eq(config_override(&c, "--l1", geometries[g], &err), 0, "%s", err.msg);
        char write[32];
        snprintf(write, sizeof write, "l1.write=%s", writes[v / 2]);
        cr_assert_eq(config_override(&c, "--set", write, &err), 0, "%s", err.msg);
        hierarchy_options o = {.config = c, .seed = 5};
        hierarchy *h;
        replay_options ro;
        replay_options_default(&ro);
        sched_source src = sched_source_memtrace(m);
        cr_assert_eq(replay_run(&src, &c, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
        sched_source_free(&src);
        kernel_lru lru = {0};
        analysis *a = analyze_memtrace_lru(m, &c, "rr,gto", dir, &lru);
        for (uint32_t k = 0; k < 3; k++) {
            const replay_counts *rk = &hierarchy_results(h)->kernels[k].counts;
            cr_expect_eq(lru.hits[k], rk->l1.hits, "%s %s kernel %u hits", geometries[g], write, k);
            cr_expect_eq(lru.misses[k], rk->l1.misses, "%s %s kernel %u misses", geometries[g],
                         write, k);
        }
        cr_expect_eq(a->l1_hits, hierarchy_results(h)->total.l1.hits, "%s %s", geometries[g], write);
        analysis_free(a);
        hierarchy_free(h);
        wst_memtrace_free(m);
    }
    test_tmpdir_cleanup(dir);
}

Test(replay_props, opt_bounds_dacache_and_each_variant_repeats)
{
    /* On one schedule OPT still bounds every DaCache variant (docs/metrics.md §7), and
     * a variant replayed twice gives the same counts (it is deterministic). */
    const char *const policies[] = {"opt",           "dacache", "dacache-stall", "dacache-uncon",
                                    "static0",       "static3", "dacache"};
    for (uint64_t seed = 1; seed <= 2; seed++) {
        wst_memtrace *m = store_trace(seed, 2, 8, 40);
        replay_counts r[7];
        replay_policies(m, "4K:4:128", policies, 7, r);
        for (int i = 1; i < 7; i++)
            cr_expect_leq(r[i].l1.hits, r[0].l1.hits, "seed %llu: %s %llu > opt %llu",
                          (unsigned long long)seed, policies[i],
                          (unsigned long long)r[i].l1.hits, (unsigned long long)r[0].l1.hits);
        cr_expect(memcmp(&r[1], &r[6], sizeof r[1]) == 0, "dacache twice, the same counts");
        wst_memtrace_free(m);
    }
}

/* A warp order may forbid allocation: LRR, with only each scheduler's
 * oldest warp allowed to allocate in L1 (throttling, S3 ch. 5). */
static int oldest_allocates(const void *state, uint32_t age_rank)
{
    (void)state;
    return age_rank == 0;
}

typedef struct fill_log {
    uint64_t fills_by_young, hits_by_young;
} fill_log;

static int log_fill(void *ctx, const replay_issue *is, uint64_t line, ws_error *err)
{
    (void)line, (void)err;
    ((fill_log *)ctx)->fills_by_young += is->kind == WST_LOAD && is->age_rank != 0;
    return 0;
}

static int log_hit(void *ctx, const replay_issue *is, uint64_t line, uint32_t owner, ws_error *err)
{
    (void)line, (void)owner, (void)err;
    ((fill_log *)ctx)->hits_by_young += is->age_rank != 0;
    return 0;
}

Test(replay_props, a_warp_order_may_forbid_allocation_but_not_hits)
{
    wst_memtrace *m = load_trace(3, 4, 40);
    gpu_config c = small_gpu();
    warp_order_ops throttled = warp_order_lrr;
    throttled.may_allocate = oldest_allocates;
    fill_log log = {0};
    hierarchy_options o = {.config = c, .seed = 5};
    o.observers[o.observer_count++] = (l1_observer){.ctx = &log, .fill = log_fill, .hit = log_hit};
    replay_options ro;
    replay_options_default(&ro);
    ro.schedule.warp = &throttled;
    sched_source src = sched_source_memtrace(m);
    hierarchy *h;
    ws_error err;
    cr_assert_eq(replay_run(&src, &c, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
    cr_expect_eq(log.fills_by_young, 0, "only the oldest warps allocate");
    cr_expect_gt(log.hits_by_young, 0, "the others still hit");
    /* Their misses looked L1 up: misses that took no line, not bypasses
     * (docs/metrics.md §9). */
    cr_expect_gt(hierarchy_results(h)->total.l1.misses_not_allocated, 0);
    cr_expect_eq(hierarchy_results(h)->total.l1.bypasses, 0);
    hierarchy_free(h);
    sched_source_free(&src);
    wst_memtrace_free(m);
}

/* ---- an issue stream per warp order, one decode (docs/metrics.md §6) ---- */

typedef struct counting_source {
    sched_source inner;
    uint32_t loads[64]; /* per CTA of kernel 0 */
    uint32_t other_loads;
} counting_source;

static const uint32_t *counting_ctas(void *ctx, uint32_t kernel, uint32_t *count)
{
    counting_source *c = ctx;
    return c->inner.ctas(c->inner.ctx, kernel, count);
}

static int counting_load(void *ctx, uint32_t kernel, uint32_t cta, sched_take_fn take,
                         void *take_ctx, ws_error *err)
{
    counting_source *c = ctx;
    if (kernel == 0 && cta < 64)
        c->loads[cta]++;
    else
        c->other_loads++;
    return c->inner.load_cta(c->inner.ctx, kernel, cta, take, take_ctx, err);
}

Test(replay_props, each_warp_order_its_own_stream_from_one_decode)
{
    /* Two hierarchies under gto, two under lrr (with OPT's recording
     * passes): every CTA is decoded once per pass, and each hierarchy's
     * counts equal a run of its order alone. */
    wst_memtrace *m = load_trace(9, 12, 40);
    gpu_config c = small_gpu();
    counting_source counting = {.inner = sched_source_memtrace(m)};
    sched_source src = {.ctx = &counting, .trace = counting.inner.trace, .ctas = counting_ctas,
                        .load_cta = counting_load};
    const char *const policies[4] = {"lru", "lru", "srrip", "srrip"};
    hierarchy_options o[4];
    for (int i = 0; i < 4; i++) {
        o[i] = (hierarchy_options){.config = c, .seed = 5,
                                   .warp_order = {i % 2 ? &warp_order_lrr : NULL}};
        snprintf(o[i].config.l1.policy, sizeof o[i].config.l1.policy, "%s", policies[i]);
    }
    replay_options ro;
    replay_options_default(&ro);
    hierarchy *h[4];
    ws_error err;
    cr_assert_eq(replay_run(&src, &c, &ro, o, 4, h, NULL, &err), 0, "%s", err.msg);
    for (uint32_t cta = 0; cta < 12; cta++)
        cr_expect_eq(counting.loads[cta], 1, "CTA %u decoded %u times", cta, counting.loads[cta]);
    /* Each order alone. */
    for (int order = 0; order < 2; order++) {
        replay_options alone = ro;
        alone.schedule.warp = order ? &warp_order_lrr : &warp_order_gto;
        hierarchy_options single[2] = {o[order], o[2 + order]};
        single[0].warp_order = single[1].warp_order = (warp_order_spec){0};
        hierarchy *hs[2];
        sched_source plain = sched_source_memtrace(m);
        cr_assert_eq(replay_run(&plain, &c, &alone, single, 2, hs, NULL, &err), 0, "%s", err.msg);
        for (int k = 0; k < 2; k++) {
            const replay_counts *a = &hierarchy_results(h[2 * k + order])->total;
            const replay_counts *b = &hierarchy_results(hs[k])->total;
            cr_expect(memcmp(a, b, sizeof *a) == 0, "%s under %s differs from its own run",
                      policies[2 * k + order], order ? "lrr" : "gto");
            hierarchy_free(hs[k]);
        }
        sched_source_free(&plain);
    }
    cr_expect_neq(hierarchy_results(h[0])->total.l1.hits, hierarchy_results(h[1])->total.l1.hits,
                  "the two orders do differ on this trace");
    for (int i = 0; i < 4; i++)
        hierarchy_free(h[i]);
    sched_source_free(&counting.inner);
    wst_memtrace_free(m);
}

Test(replay_props, the_cta_cache_shares_a_cta_until_every_reader_gave_it_back)
{
    /* 4 warps of 10 records per CTA: three schedulers borrow the same
     * packed copy, grouped by warp; it is decoded once and dropped when the
     * last has given it back. */
    wst_memtrace *m = load_trace(2, 4, 10);
    counting_source counting = {.inner = sched_source_memtrace(m)};
    sched_source src = {.ctx = &counting, .trace = counting.inner.trace, .ctas = counting_ctas,
                        .load_cta = counting_load};
    ws_error err;
    cta_cache *held = cta_cache_new(&src, 3, &err);
    sched_source shared = cta_cache_source(held);
    const packed_cta *copy[3][2];
    const uint32_t *starts;
    for (int reader = 0; reader < 3; reader++)
        for (uint32_t c = 0; c < 2; c++) {
            copy[reader][c] = shared.borrow_cta(shared.ctx, 0, 1 + c, 4, &starts, &err);
            cr_assert_not_null(copy[reader][c], "%s", err.msg);
            cr_expect_eq(starts[4], 40, "every record, grouped by warp");
            cr_expect_eq(starts[1], 10);
        }
    cr_expect_eq(counting.loads[1], 1, "decoded once for three readers");
    cr_expect_eq(counting.loads[2], 1);
    cr_expect_eq(copy[1][0], copy[0][0], "one copy, shared");
    cr_expect_eq(copy[2][1], copy[0][1]);
    cr_expect_eq(cta_cache_peak(held), 2);
    for (int reader = 0; reader < 3; reader++)
        shared.give_back_cta(shared.ctx, 0, 1);
    cr_assert_not_null(shared.borrow_cta(shared.ctx, 0, 1, 4, &starts, &err));
    cr_expect_eq(counting.loads[1], 2, "dropped once all three gave it back: decoded again");
    cr_expect_null(shared.borrow_cta(shared.ctx, 0, 2, 8, &starts, &err),
                   "a reader with another warp count is refused");
    cta_cache_free(held);
    sched_source_free(&counting.inner);
    wst_memtrace_free(m);
}

Test(replay_props, pcal_lets_only_the_p_oldest_allocate)
{
    /* pcal:4,1 (S3's (N, p) tuple): the others may hit, never allocate. */
    wst_memtrace *m = load_trace(4, 4, 40);
    gpu_config c = small_gpu();
    fill_log log = {0};
    hierarchy_options o = {.config = c, .seed = 5};
    o.observers[o.observer_count++] = (l1_observer){.ctx = &log, .fill = log_fill, .hit = log_hit};
    replay_options ro;
    replay_options_default(&ro);
    ws_error err;
    cr_assert_eq(sched_options_parse("rr,pcal:4,1", &ro.schedule, &err), 0, "%s", err.msg);
    sched_source src = sched_source_memtrace(m);
    hierarchy *h;
    cr_assert_eq(replay_run(&src, &c, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
    cr_expect_eq(log.fills_by_young, 0);
    cr_expect_gt(log.hits_by_young, 0);
    hierarchy_free(h);
    sched_source_free(&src);
    wst_memtrace_free(m);
}

/* Replays m with each hierarchy's warp order spec and allocate_p. */
static void replay_specs(const wst_memtrace *m, const gpu_config *c, const char *const *orders,
                         const uint32_t *allocate_p, int n, hierarchy **h)
{
    hierarchy_options o[8];
    ws_error err;
    for (int i = 0; i < n; i++) {
        o[i] = (hierarchy_options){.config = *c, .seed = 5, .allocate_p = allocate_p[i]};
        cr_assert_eq(warp_order_spec_parse(orders[i], &o[i].warp_order, &err), 0, "%s", err.msg);
    }
    replay_options ro;
    replay_options_default(&ro);
    sched_source src = sched_source_memtrace(m);
    cr_assert_eq(replay_run(&src, c, &ro, o, (uint32_t)n, h, NULL, &err), 0, "%s", err.msg);
    sched_source_free(&src);
}

Test(replay_props, swl_is_the_tuple_n_n_and_a_hierarchys_p_equals_its_own_stream)
{
    /* S3's (N, p): swl:N is (N, N); and a hierarchy given allocate_p = p
     * on the (N, N) stream sees what tuple:N,p's own stream gives it (p
     * changes allocation, never the issue order), so a sweep's column of p
     * values shares one stream. */
    wst_memtrace *m = load_trace(7, 6, 40);
    gpu_config c = small_gpu();
    const char *const orders[4] = {"swl:3", "tuple:3,3", "tuple:3,1", "tuple:3,3"};
    const uint32_t p[4] = {0, 0, 0, 1};
    hierarchy *h[4];
    replay_specs(m, &c, orders, p, 4, h);
    const replay_counts *swl = &hierarchy_results(h[0])->total, *tuple = &hierarchy_results(h[1])->total;
    cr_expect(memcmp(swl, tuple, sizeof *swl) == 0, "swl:3 = tuple:3,3");
    const replay_counts *own = &hierarchy_results(h[2])->total, *shared = &hierarchy_results(h[3])->total;
    cr_expect(memcmp(own, shared, sizeof *own) == 0, "tuple:3,1 = tuple:3,3 with allocate_p 1");
    cr_expect_gt(own->non_polluting_accesses, 0, "the younger warps were barred");
    cr_expect_eq(own->polluting_accesses + own->non_polluting_accesses, own->l1.accesses);
    cr_expect_eq(own->polluting_hits + own->non_polluting_hits, own->l1.hits);
    cr_expect_eq(swl->non_polluting_accesses, 0);
    for (int i = 0; i < 4; i++)
        hierarchy_free(h[i]);
    wst_memtrace_free(m);
}

/* OPT behind LCM (docs/replay.md, OPT): what LCM leaves to L1 depends on
 * the L1's contents, so OPT's next uses are keyed on the requests as they
 * enter the stages; its recording pass and its replay then agree, and the
 * replay is the same every time (it used to stop, "OPT next-use read past
 * the recorded accesses"). */
Test(replay_props, opt_behind_lcm_keys_its_next_uses_before_the_stages)
{
    wst_memtrace *m = load_trace(6, 6, 40);
    gpu_config c = small_gpu();
    hierarchy_options o[2];
    ws_error err;
    for (int i = 0; i < 2; i++) {
        o[i] = (hierarchy_options){.config = c, .seed = 5};
        snprintf(o[i].config.l1.policy, sizeof o[i].config.l1.policy, "opt");
        cr_assert_eq(system_apply_list("lcm", &o[i], &err), 0, "%s", err.msg);
    }
    replay_options ro;
    replay_options_default(&ro);
    sched_source src = sched_source_memtrace(m);
    hierarchy *h[2];
    cr_assert_eq(replay_run(&src, &c, &ro, o, 2, h, NULL, &err), 0, "%s", err.msg);
    const replay_counts *a = &hierarchy_results(h[0])->total, *b = &hierarchy_results(h[1])->total;
    cr_expect_gt(a->l1.hits, 0);
    cr_expect_eq(memcmp(a, b, sizeof *a), 0);
    hierarchy_free(h[0]);
    hierarchy_free(h[1]);
    sched_source_free(&src);
    wst_memtrace_free(m);
}
