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
#include "tests/path_cases.h"

static void expect_same_queues(const queue_counts *a, const queue_counts *b, uint32_t n,
                               const char *what)
{
    cr_assert(a && b, "%s: both timed", what);
    cr_expect(memcmp(a, b, n * sizeof *a) == 0, "%s: queues differ", what);
}

/* Every figure the timed path could change: the counts
 * (tests/path_cases.h), the clock, the stalls, the queues and the
 * built-in collectors' figures. */
static void expect_same_timed_results(const replay_results *a, const replay_results *b,
                                      const char *what)
{
    expect_same_counts(a, b, what);
    for (uint32_t k = 0; k < a->kernel_count; k++)
        cr_expect(memcmp(&a->kernels[k].timed, &b->kernels[k].timed, sizeof a->kernels[k].timed)
                      == 0,
                  "%s: kernel %u's clock differs", what, k);
    cr_expect(memcmp(&a->timed_total, &b->timed_total, sizeof a->timed_total) == 0, "%s", what);
    cr_assert_eq(a->schedulers, b->schedulers);
    size_t stalls = (size_t)a->sms * a->schedulers * STALL_CAUSES;
    cr_expect(memcmp(a->scheduler_stalls, b->scheduler_stalls, stalls * 8) == 0,
              "%s: stalls differ", what);
    expect_same_queues(a->l2_queues, b->l2_queues, a->slices, what);
    expect_same_queues(a->dram_queues, b->dram_queues, a->slices, what);
    size_t sms = a->sms;
    cr_expect(memcmp(a->sm_load_misses, b->sm_load_misses, sms * 8) == 0, "%s", what);
    cr_expect(memcmp(a->remote_holders, b->remote_holders, sms * sms * 8) == 0, "%s", what);
    cr_expect(a->replication_sum == b->replication_sum, "%s", what);
    cr_expect_eq(a->replication_samples, b->replication_samples, "%s", what);
}

/* Replays the case through o on the timed path and o with a subscriber
 * that hears nothing, and compares them. */
static void expect_timed_path_equals_general(const path_case *pc, const hierarchy_options *o,
                                             const char *what)
{
    hierarchy *h[2];
    path_case_replay_both(pc, o, h);
    cr_assert(hierarchy_timed_path(h[0]), "%s: on the timed path", what);
    cr_assert(!hierarchy_timed_path(h[1]), "%s: a subscriber takes it off", what);
    const replay_results *fast = hierarchy_results(h[0]), *general = hierarchy_results(h[1]);
    cr_assert_gt(general->total.l1.misses, 0, "%s: a case with misses", what);
    cr_assert_gt(general->timed_total.end_cycle, 0, "%s: a clock", what);
    cr_assert(!pc->must_hit || general->total.l1.hits + general->total.l1.pending_hits > 0,
              "%s: and hits", what);
    expect_same_timed_results(fast, general, what);
    hierarchy_free(h[0]);
    hierarchy_free(h[1]);
}

/* m under L1 policies that read the request or keep figures, whole lines
 * (write-evict) and sectored (write-allocate), with the built-in
 * collectors and without, and few MSHRs and merge slots, so that loads
 * wait at L1 (docs/metrics.md §12). */
static void expect_timed_case(const path_case *pc)
{
    static const hierarchy_collect collect[] = {COLLECT_TOTALS, COLLECT_NONE};
    path_case few_mshrs = *pc;
    ws_error err;
    gpu_config *c = &few_mshrs.config;
    cr_assert_eq(config_override(c, "--set", "mshr.entries=3", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(c, "--set", "mshr.merges=2", &err), 0, "%s", err.msg);
    hierarchy_options o = {.config = *c, .seed = 9, .timed = 1, .collect = collect[pc->policy % 2],
                           .allocate_p = pc->sectored ? 2 : 0};
    char what[160];
    snprintf(what, sizeof what, "%s, collect %d", pc->what, (int)o.collect);
    expect_timed_path_equals_general(&few_mshrs, &o, what);
}

static void expect_every_timed_config(wst_memtrace *m, int must_hit, const char *trace)
{
    static const char *const l1_policies[] = {"lru", "fifo", "srrip", "dip"};
    path_case_configs(m, must_hit, trace, l1_policies, sizeof l1_policies / sizeof *l1_policies,
                      "4K:4:128", expect_timed_case);
}

Test(timed_path, counts_and_clocks_as_the_general_path_does)
{
    path_case_traces(expect_every_timed_config);
}

Test(timed_path, only_plain_timed_hierarchies_take_it)
{
    /* Functional, or with a stage (the CCN ring) or sharing, a hierarchy
     * stays off the timed path. */
    gpu_config c;
    ws_error err;
    path_case_gpu(&c, 0, "16K:4:128", "lru");
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
