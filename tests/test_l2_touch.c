/* tests/test_l2_touch.c: an L2 that never evicts, answered from the issue
 * stream (analyzer/l2_touch.h): the stream's flags by hand, the trace's
 * check at a set's ways, and the sweep's grid with the shared L2 against
 * each point replayed with its own L2 slices. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/cache.h"
#include "analyzer/l2_touch.h"
#include "analyzer/replay.h"
#include "analyzer/sweep.h"
#include "formats/memtrace.h"
#include "tests/trace_gen.h"

Test(l2_touch, first_touches_and_first_writes_by_hand)
{
    ws_error err;
    l2_touch *t = l2_touch_new(&err);
    cr_assert_not_null(t);
    int failed = 0;
    cr_expect_eq(l2_touch_request(t, 7, 0, &failed), L2_TOUCH_FIRST, "a first read misses");
    cr_expect_eq(l2_touch_request(t, 7, 0, &failed), 0, "then it hits");
    cr_expect_eq(l2_touch_request(t, 7, 1, &failed), L2_TOUCH_FIRST_WRITE, "a hit that dirties");
    cr_expect_eq(l2_touch_request(t, 7, 1, &failed), 0, "dirty already");
    cr_expect_eq(l2_touch_request(t, 9, 1, &failed), L2_TOUCH_FIRST | L2_TOUCH_FIRST_WRITE,
                 "a first write allocates dirty");
    cr_expect_eq(failed, 0);
    l2_touch_free(t);
}

static gpu_config small_gpu(const char *l2)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = 2;
    cr_assert_eq(config_override(&c, "--l1", "4K:4:128", &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&c, "--l2", l2, &err), 0, "%s", err.msg);
    return c;
}

/* `count` lines of one L2 set of c (its slice and set), from line `from`. */
static void lines_of_one_set(const gpu_config *c, uint64_t from, uint64_t *out, size_t count)
{
    ws_error err;
    cache_options co = cache_options_for(&c->l2, c->l2.slices);
    co.policy = policy_spec_lru().replacement;
    cache *slice = cache_new(&co, &err);
    cr_assert_not_null(slice, "%s", err.msg);
    size_t got = 0;
    uint64_t set = cache_set_of(slice, from), at = from % c->l2.slices;
    for (uint64_t line = from; got < count; line++)
        if (line % c->l2.slices == at && cache_set_of(slice, line) == set)
            out[got++] = line;
    cache_free(slice);
}

static int fits(const wst_memtrace *m, const gpu_config *c)
{
    sched_source src = sched_source_memtrace(m);
    ws_error err;
    int rc = l2_touch_fits(&src, c, 0, &err);
    cr_assert_geq(rc, 0, "%s", err.msg);
    sched_source_free(&src);
    return rc;
}

Test(l2_touch, a_trace_fits_while_no_set_is_asked_for_more_lines_than_its_ways)
{
    gpu_config c = small_gpu("48K:8:128");
    uint64_t lines[9];
    lines_of_one_set(&c, 0x40000, lines, 9);
    wst_memtrace *eight = test_lines_trace(lines, 8, 2, 2, 20, 4, WST_GLOBAL);
    wst_memtrace *nine = test_lines_trace(lines, 9, 2, 2, 20, 4, WST_GLOBAL);
    cr_expect_eq(fits(eight, &c), 1, "8 lines in an 8-way set");
    cr_expect_eq(fits(nine, &c), 0, "a ninth line would evict one");
    /* A local store dirties its L1 line: its write-back reaches L2 when
     * the L1 evicts it, which depends on the point. */
    wst_memtrace *local = test_lines_trace(lines, 2, 1, 1, 8, 2, WST_LOCAL);
    cr_expect_eq(fits(local, &c), 0);
    wst_memtrace_free(eight);
    wst_memtrace_free(nine);
    wst_memtrace_free(local);
}

/* The grid of a trace whose L2 `l2` does (or does not) hold it: every
 * point's counts, all of them, equal those of the point replayed alone
 * with its own L2 slices (replay_options.l2_by_touch off). */
static void expect_grid_equals_points(const char *l2, int expect_by_touch)
{
    gpu_config c = small_gpu(l2);
    uint64_t lines[300];
    for (size_t i = 0; i < 300; i++) /* a footprint the 4K L1s thrash, spread over the sets */
        lines[i] = 0x1000 + i * 3;
    wst_memtrace *m = test_lines_trace(lines, 300, 6, 8, 60, 5, WST_GLOBAL);
    sched_source src = sched_source_memtrace(m);
    replay_options ro;
    replay_options_default(&ro);
    hierarchy_options base = {.config = c, .seed = 5};
    sweep_result grid;
    ws_error err;
    cr_assert_eq(sweep_run(&src, &c, &ro, &base, 4, NULL, &grid, &err), 0, "%s", err.msg);
    cr_expect_eq(grid.l2_by_touch, expect_by_touch);
    replay_options_default(&ro);
    for (uint32_t n = 1; n <= 4; n++)
        for (uint32_t p = 1; p <= n; p++) {
            hierarchy_options o = base;
            o.warp_order = (warp_order_spec){&warp_order_tuple, n, n};
            o.allocate_p = p;
            o.collect = COLLECT_GRID; /* as the grid's points (tests/test_sweep_grid.c) */
            hierarchy *h;
            cr_assert_eq(replay_run(&src, &c, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
            const replay_counts *alone = &hierarchy_results(h)->total;
            const sweep_point *at = sweep_at(&grid, n, p);
            cr_expect_gt(alone->l2.accesses, 0);
            cr_expect(memcmp(&at->counts, alone, sizeof *alone) == 0,
                      "(%u, %u): L2 hits %llu against %llu, DRAM reads %llu against %llu", n, p,
                      (unsigned long long)at->counts.l2.hits, (unsigned long long)alone->l2.hits,
                      (unsigned long long)at->counts.traffic.dram_read_bytes,
                      (unsigned long long)alone->traffic.dram_read_bytes);
            hierarchy_free(h);
        }
    sweep_result_free(&grid);
    sched_source_free(&src);
    wst_memtrace_free(m);
}

Test(l2_touch, the_grid_with_its_streams_l2_equals_each_point_with_its_own)
{
    expect_grid_equals_points("768K:8:128", 1);
}

Test(l2_touch, a_grid_whose_l2_would_evict_keeps_its_own_l2s)
{
    expect_grid_equals_points("24K:2:128", 0);
}
