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
#include "tests/path_cases.h"
#include "tests/trace_gen.h"
#define L2_SIZE "6M:64:128"


/* Replays the case through o on the direct path and o with a subscriber
 * that hears nothing, in one pass (one issue order), and compares them. */
static void expect_direct_equals_general(const path_case *pc, const hierarchy_options *o,
                                         int by_sm, int must_hit)
{
    const char *what = pc->what;
    hierarchy *h[2];
    path_case_replay_both(pc, o, h);
    cr_assert(hierarchy_direct(h[0]), "%s: on the direct path", what);
    cr_assert(!hierarchy_direct(h[1]), "%s: a subscriber takes it off", what);
    cr_assert_eq(hierarchy_consumer(h[0]).by_sm, by_sm, "%s: fed SM by SM or not", what);
    cr_assert_eq(hierarchy_consumer(h[1]).by_sm, 0, "%s: in issue order", what);
    const replay_results *direct = hierarchy_results(h[0]), *general = hierarchy_results(h[1]);
    cr_assert_gt(general->total.l1.misses, 0, "%s: a case with misses", what);
    cr_assert(!must_hit || general->total.l1.hits > 0, "%s: and hits", what);
    expect_same_counts(direct, general, what);
    hierarchy_free(h[0]);
    hierarchy_free(h[1]);
}

static void expect_case(const path_case *pc)
{
    hierarchy_options o = {.config = pc->config, .seed = 9, .collect = COLLECT_NONE,
                           .allocate_p = 2};
    expect_direct_equals_general(pc, &o, 0, pc->must_hit);
}

/* m under every L1 policy of a list, whole lines (write-evict) and
 * sectored (write-allocate): policies that read the request (srrip, dip),
 * draw at random (random) or keep their own figures. */
static void expect_every_config(wst_memtrace *m, int must_hit, const char *trace)
{
    static const char *const l1_policies[] = {"lru", "fifo", "random", "dip", "srrip"};
    path_case_configs(m, must_hit, trace, l1_policies, sizeof l1_policies / sizeof *l1_policies,
                      "16K:4:128", expect_case);
}

Test(direct_path, counts_every_record_kind_as_the_general_path_does)
{
    path_case_traces(expect_every_config);
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
                path_case pc = {.src = &src, .ro = &ro, .config = c};
                snprintf(pc.what, sizeof pc.what, "%s, collect %d, p %u",
                         stores ? "global stores" : "loads", (int)collect[i], p);
                expect_direct_equals_general(&pc, &o, 1, 1);
            }
        sched_source_free(&src);
        wst_memtrace_free(m);
    }
}
