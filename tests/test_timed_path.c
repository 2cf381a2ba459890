/* tests/test_timed_path.c: a timed hierarchy that only its built-in
 * collectors hear of (the timed path, analyzer/hierarchy.c) gives what the
 * same hierarchy gives on the general path: every count, the clock, the
 * schedulers' stalls and the queues.  The general path is forced with a
 * subscriber that has no hook, as tests/test_direct_path.c does; each
 * hierarchy runs its own closed loop, so a difference in any answer of
 * L1 would change the issue order too. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/replay.h"
#include "formats/memtrace.h"
#include "tests/trace_gen.h"

static void expect_same_queues(const queue_counts *a, const queue_counts *b, uint32_t n,
                               const char *what)
{
    cr_assert(a && b, "%s: both timed", what);
    cr_expect(memcmp(a, b, n * sizeof *a) == 0, "%s: queues differ", what);
}

/* Every figure the timed path could change. */
static void expect_same_timed_results(const replay_results *a, const replay_results *b,
                                      const char *what)
{
    cr_expect(memcmp(&a->total, &b->total, sizeof a->total) == 0, "%s: totals differ", what);
    cr_assert_eq(a->kernel_count, b->kernel_count);
    for (uint32_t k = 0; k < a->kernel_count; k++) {
        const replay_kernel *x = &a->kernels[k], *y = &b->kernels[k];
        cr_expect(memcmp(&x->counts, &y->counts, sizeof x->counts) == 0,
                  "%s: kernel %u's counts differ", what, k);
        cr_expect(memcmp(&x->timed, &y->timed, sizeof x->timed) == 0,
                  "%s: kernel %u's clock differs", what, k);
        cr_assert_eq(x->pc_count, y->pc_count);
        cr_expect(x->pc_count == 0 || memcmp(x->pcs, y->pcs, x->pc_count * sizeof *x->pcs) == 0,
                  "%s: kernel %u's per-PC counts differ", what, k);
    }
    cr_expect(memcmp(&a->timed_total, &b->timed_total, sizeof a->timed_total) == 0, "%s", what);
    cr_assert_eq(a->schedulers, b->schedulers);
    size_t stalls = (size_t)a->sms * a->schedulers * STALL_CAUSES;
    cr_expect(memcmp(a->scheduler_stalls, b->scheduler_stalls, stalls * 8) == 0,
              "%s: stalls differ", what);
    expect_same_queues(a->l2_queues, b->l2_queues, a->slices, what);
    expect_same_queues(a->dram_queues, b->dram_queues, a->slices, what);
    size_t sms = a->sms;
    cr_expect(memcmp(a->sm_hits, b->sm_hits, sms * 8) == 0, "%s", what);
    cr_expect(memcmp(a->sm_misses, b->sm_misses, sms * 8) == 0, "%s", what);
    cr_expect(memcmp(a->sm_load_misses, b->sm_load_misses, sms * 8) == 0, "%s", what);
    cr_expect(memcmp(a->remote_holders, b->remote_holders, sms * sms * 8) == 0, "%s", what);
    cr_expect(a->replication_sum == b->replication_sum, "%s", what);
    cr_expect_eq(a->replication_samples, b->replication_samples, "%s", what);
    cr_expect_eq(a->l1_policy_stat_count, b->l1_policy_stat_count, "%s", what);
    for (uint32_t i = 0; i < a->l1_policy_stat_count; i++)
        cr_expect_eq(a->l1_policy_stats[i].value, b->l1_policy_stats[i].value, "%s", what);
}

/* Replays `src` through o on the timed path and o with a subscriber that
 * hears nothing, and compares them. */
static void expect_timed_path_equals_general(const sched_source *src, const gpu_config *c,
                                             const replay_options *ro, const hierarchy_options *o,
                                             const char *what)
{
    hierarchy_options both[2] = {*o, *o};
    both[1].observers[both[1].observer_count++] = (l1_observer){0};
    hierarchy *h[2];
    ws_error err;
    cr_assert_eq(replay_run(src, c, ro, both, 2, h, NULL, &err), 0, "%s: %s", what, err.msg);
    cr_assert(hierarchy_timed_path(h[0]), "%s: on the timed path", what);
    cr_assert(!hierarchy_timed_path(h[1]), "%s: a subscriber takes it off", what);
    const replay_results *fast = hierarchy_results(h[0]), *general = hierarchy_results(h[1]);
    cr_assert_gt(general->total.l1.misses, 0, "%s: a case with misses", what);
    cr_assert_gt(general->timed_total.end_cycle, 0, "%s: a clock", what);
    expect_same_timed_results(fast, general, what);
    hierarchy_free(h[0]);
    hierarchy_free(h[1]);
}

/* m under L1 policies that read the request or keep figures, whole lines
 * (write-evict) and sectored (write-allocate), with the built-in
 * collectors and without, and few MSHRs and merge slots, so that loads
 * wait at L1 (docs/metrics.md §12). */
static void expect_every_timed_config(wst_memtrace *m, const char *trace)
{
    static const char *const l1_policies[] = {"lru", "fifo", "srrip", "dip"};
    static const hierarchy_collect collect[] = {COLLECT_TOTALS, COLLECT_NONE};
    sched_source src = sched_source_memtrace(m);
    replay_options ro;
    replay_options_default(&ro);
    for (int sectored = 0; sectored <= 1; sectored++)
        for (size_t i = 0; i < sizeof l1_policies / sizeof *l1_policies; i++) {
            gpu_config c;
            ws_error err;
            cr_assert_eq(config_load(&c, sectored ? "volta" : "fermi", &err), 0);
            c.sms = 4;
            cr_assert_eq(config_override(&c, "--l1", sectored ? "4K:4:128:32" : "4K:4:128", &err),
                         0, "%s", err.msg);
            cr_assert_eq(config_override(&c, "--l1-policy", l1_policies[i], &err), 0, "%s",
                         err.msg);
            cr_assert_eq(config_override(&c, "--set", "mshr.entries=3", &err), 0, "%s", err.msg);
            cr_assert_eq(config_override(&c, "--set", "mshr.merges=2", &err), 0, "%s", err.msg);
            hierarchy_options o = {.config = c, .seed = 9, .timed = 1,
                                   .collect = collect[i % 2], .allocate_p = sectored ? 2 : 0};
            char what[128];
            snprintf(what, sizeof what, "%s trace, %s L1, %s, collect %d", trace, l1_policies[i],
                     sectored ? "sectored, write-allocate" : "whole lines, write-evict",
                     (int)o.collect);
            expect_timed_path_equals_general(&src, &c, &ro, &o, what);
        }
    sched_source_free(&src);
    wst_memtrace_free(m);
}

Test(timed_path, counts_and_clocks_as_the_general_path_does)
{
    /* Every record kind, space and cache operator (a random trace), loads
     * that reuse their lines (hits and merges into fills in flight), and
     * global and local stores to the lines the loads reuse. */
    uint64_t lines[300];
    for (size_t i = 0; i < 300; i++)
        lines[i] = 0x4000 + i * 3;
    expect_every_timed_config(test_random_trace(41, 3, 600), "random");
    expect_every_timed_config(test_looping_trace(7, 12, 5, 30), "looping");
    expect_every_timed_config(test_lines_trace(lines, 300, 6, 8, 60, 4, WST_GLOBAL),
                              "global stores");
    expect_every_timed_config(test_lines_trace(lines, 300, 6, 8, 60, 4, WST_LOCAL),
                              "local stores");
}

Test(timed_path, only_plain_timed_hierarchies_take_it)
{
    /* Functional, or with a stage (the CCN ring) or sharing, a hierarchy
     * stays off the timed path. */
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = 2;
    hierarchy_options timed = {.config = c, .timed = 1, .collect = COLLECT_TOTALS};
    hierarchy_options functional = {.config = c, .collect = COLLECT_TOTALS};
    hierarchy_options ring = timed, sharing = timed;
    ring.ccn = ccn_options_default();
    ring.ccn.enabled = 1;
    sharing.track_sharing = 1;
    const hierarchy_options *cases[] = {&timed, &functional, &ring, &sharing};
    for (int i = 0; i < 4; i++) {
        hierarchy *h = hierarchy_new(cases[i], 1, &err);
        cr_assert(h, "%s", err.msg);
        cr_expect_eq(hierarchy_timed_path(h), i == 0, "case %d", i);
        hierarchy_free(h);
    }
}
