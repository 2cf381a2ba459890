/* tests/test_direct_path.c: a hierarchy that nothing but its own counts
 * hears of (the direct path, analyzer/hierarchy.c) counts what the same
 * hierarchy counts on the general path, and one fed SM by SM
 * (hierarchy_sm_order_free) what it counts fed in issue order.  The
 * general path is forced with a subscriber that has no hook: it hears
 * nothing and changes nothing, but a hierarchy with a subscriber is not on
 * the direct path. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/l2_touch.h"
#include "analyzer/replay.h"
#include "formats/memtrace.h"
#include "tests/trace_gen.h"
#define L2_SIZE "6M:64:128"


/* Every figure of a and b that the direct path could change: the totals,
 * each kernel's counts and per-PC counts, the per-SM counts and the
 * policies' own figures. */
static void expect_same_results(const replay_results *a, const replay_results *b, const char *what)
{
    cr_expect(memcmp(&a->total, &b->total, sizeof a->total) == 0, "%s: totals differ", what);
    cr_assert_eq(a->kernel_count, b->kernel_count);
    for (uint32_t k = 0; k < a->kernel_count; k++) {
        const replay_kernel *x = &a->kernels[k], *y = &b->kernels[k];
        cr_expect(memcmp(&x->counts, &y->counts, sizeof x->counts) == 0,
                  "%s: kernel %u's counts differ", what, k);
        cr_assert_eq(x->pc_count, y->pc_count);
        cr_expect(x->pc_count == 0 || memcmp(x->pcs, y->pcs, x->pc_count * sizeof *x->pcs) == 0,
                  "%s: kernel %u's per-PC counts differ", what, k);
    }
    cr_expect(memcmp(a->sm_hits, b->sm_hits, a->sms * sizeof *a->sm_hits) == 0, "%s", what);
    cr_expect(memcmp(a->sm_misses, b->sm_misses, a->sms * sizeof *a->sm_misses) == 0, "%s", what);
    cr_expect_eq(a->l1_policy_stat_count, b->l1_policy_stat_count, "%s", what);
    for (uint32_t i = 0; i < a->l1_policy_stat_count; i++)
        cr_expect_eq(a->l1_policy_stats[i].value, b->l1_policy_stats[i].value, "%s", what);
}

/* Replays `src` through o on the direct path and o with a subscriber that
 * hears nothing, in one pass (one issue order), and compares them. */
static void expect_direct_equals_general(const sched_source *src, const gpu_config *c,
                                         const replay_options *ro, const hierarchy_options *o,
                                         int by_sm, int must_hit, const char *what)
{
    hierarchy_options both[2] = {*o, *o};
    both[1].observers[both[1].observer_count++] = (l1_observer){0};
    hierarchy *h[2];
    ws_error err;
    cr_assert_eq(replay_run(src, c, ro, both, 2, h, NULL, &err), 0, "%s: %s", what, err.msg);
    cr_assert(hierarchy_direct(h[0]), "%s: on the direct path", what);
    cr_assert(!hierarchy_direct(h[1]), "%s: a subscriber takes it off", what);
    cr_assert_eq(hierarchy_consumer(h[0]).by_sm, by_sm, "%s: fed SM by SM or not", what);
    cr_assert_eq(hierarchy_consumer(h[1]).by_sm, 0, "%s: in issue order", what);
    const replay_results *direct = hierarchy_results(h[0]), *general = hierarchy_results(h[1]);
    cr_assert_gt(general->total.l1.misses, 0, "%s: a case with misses", what);
    cr_assert(!must_hit || general->total.l1.hits > 0, "%s: and hits", what);
    expect_same_results(direct, general, what);
    hierarchy_free(h[0]);
    hierarchy_free(h[1]);
}

/* m under every L1 policy of a list, whole lines (write-evict) and
 * sectored (write-allocate): policies that read the request (srrip, dip),
 * draw at random (random) or keep their own figures. */
static void expect_every_config(wst_memtrace *m, int must_hit, const char *trace)
{
    static const char *const l1_policies[] = {"lru", "fifo", "random", "dip", "srrip"};
    sched_source src = sched_source_memtrace(m);
    replay_options ro;
    replay_options_default(&ro);
    for (int sectored = 0; sectored <= 1; sectored++)
        for (size_t i = 0; i < sizeof l1_policies / sizeof *l1_policies; i++) {
            gpu_config c;
            ws_error err;
            cr_assert_eq(config_load(&c, sectored ? "volta" : "fermi", &err), 0);
            c.sms = 4;
            cr_assert_eq(config_override(&c, "--l1", sectored ? "16K:4:128:32" : "16K:4:128", &err),
                         0, "%s", err.msg);
            cr_assert_eq(config_override(&c, "--l1-policy", l1_policies[i], &err), 0, "%s",
                         err.msg);
            hierarchy_options o = {.config = c, .seed = 9, .collect = COLLECT_NONE,
                                   .allocate_p = 2};
            char what[96];
            snprintf(what, sizeof what, "%s trace, %s L1, %s", trace, l1_policies[i],
                     sectored ? "sectored, write-allocate" : "whole lines, write-evict");
            expect_direct_equals_general(&src, &c, &ro, &o, 0, must_hit, what);
        }
    sched_source_free(&src);
    wst_memtrace_free(m);
}

Test(direct_path, counts_every_record_kind_as_the_general_path_does)
{
    /* Every record kind, space and cache operator (a random trace, which
     * has few hits), loads that reuse their lines, and global and local
     * stores to lines the loads reuse (write-evicts, write-backs). */
    uint64_t lines[400];
    for (size_t i = 0; i < 400; i++)
        lines[i] = 0x2000 + i * 5;
    expect_every_config(test_random_trace(41, 3, 600), 0, "random");
    expect_every_config(test_looping_trace(7, 12, 5, 30), 1, "looping");
    expect_every_config(test_lines_trace(lines, 400, 6, 8, 60, 4, WST_GLOBAL), 1, "global stores");
    expect_every_config(test_lines_trace(lines, 400, 6, 8, 60, 4, WST_LOCAL), 1, "local stores");
}

Test(direct_path, fed_sm_by_sm_it_counts_as_in_issue_order)
{
    /* An L2 that holds the trace, answered from the stream: the grid's
     * points (COLLECT_GRID and COLLECT_NONE), fed SM by SM. */
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = 3;
    cr_assert_eq(config_override(&c, "--l1", "16K:4:128", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&c, "--l2", L2_SIZE, &err), 0, "%s", err.msg);
    uint64_t lines[400];
    for (size_t i = 0; i < 400; i++)
        lines[i] = 0x2000 + i * 5;
    for (int stores = 0; stores <= 1; stores++) {
        wst_memtrace *m = stores ? test_lines_trace(lines, 400, 6, 8, 60, 4, WST_GLOBAL)
                                 : test_looping_trace(46, 12, 5, 30);
        sched_source src = sched_source_memtrace(m);
        cr_assert_eq(l2_touch_fits(&src, &c, 0, &err), 1, "the L2 holds the trace");
        replay_options ro;
        replay_options_default(&ro);
        ro.l2_by_touch = 1;
        const hierarchy_collect collect[] = {COLLECT_GRID, COLLECT_NONE};
        for (size_t i = 0; i < 2; i++)
            for (uint32_t p = 0; p <= 2; p += 2) {
                hierarchy_options o = {.config = c, .seed = 3, .collect = collect[i],
                                       .allocate_p = p, .warp_order = {&warp_order_tuple, 4, 4}};
                char what[96];
                snprintf(what, sizeof what, "%s, collect %d, p %u",
                         stores ? "global stores" : "loads", (int)collect[i], p);
                expect_direct_equals_general(&src, &c, &ro, &o, 1, 1, what);
            }
        sched_source_free(&src);
        wst_memtrace_free(m);
    }
}
