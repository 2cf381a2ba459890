/* tests/test_sharing_aware.c: S0's sharing-aware management (docs/metrics.md §9,
 * S0 §V-VI), each rule on a hand-worked sequence over two SMs. */
#include <criterion/criterion.h>
#include <string.h>

#include "analyzer/hierarchy.h"
#include "analyzer/systems.h"
#include "formats/trace.h"

enum { A = 1, B = 2, P = 3, Q = 4, R = 5, S = 6, T = 8, X = 7, Y = 9 };

/* Two SMs, L1 = l1 geometry, one L2 slice of `l2` geometry, under `system`
 * (a system name, or an L1/L2 policy pair "p1/p2"), reserved lines or not. */
static hierarchy *make_reserved(const char *l1, const char *l2, const char *system, int reserved)
{
    hierarchy_options o = {.seed = 1, .timed = reserved};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    o.config.sms = 2;
    o.config.l2.slices = 1;
    cr_assert_eq(config_override(&o.config, "--l1", l1, &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(&o.config, "--l2", l2, &err), 0, "%s", err.msg);
    if (system_apply(system, &o, &err) == 0) {
        const char *slash = strchr(system, '/');
        snprintf(o.config.l1.policy, sizeof o.config.l1.policy, "%.*s", (int)(slash - system),
                 system);
        snprintf(o.config.l2.policy, sizeof o.config.l2.policy, "%s", slash + 1);
    }
    hierarchy *h = hierarchy_new(&o, 1, &err);
    cr_assert_not_null(h, "%s", err.msg);
    cr_assert_eq(hierarchy_kernel_begin(h, 0, 1, &err), 0);
    return h;
}

static hierarchy *make(const char *l1, const char *l2, const char *system)
{
    return make_reserved(l1, l2, system, 0);
}

/* One warp instruction of one request to `line` on `sm`, at its SM's issue
 * clock `step`. */
static void access_at(hierarchy *h, uint32_t sm, uint64_t line, wst_space space,
                      wst_cache_op op, uint64_t step)
{
    ws_request rq = {.line_addr = line * 128, .sector_mask = 0xf, .req_count = 1};
    replay_issue is = {.sm = sm, .warp = sm, .step = step, .kind = WST_LOAD,
                       .space = (uint8_t)space, .cache_op = (uint8_t)op};
    ws_error err;
    cr_assert_eq(hierarchy_instruction(h, &is, &rq, 1, &err), 0, "%s", err.msg);
}

static void access(hierarchy *h, uint32_t sm, uint64_t line, wst_space space, wst_cache_op op)
{
    access_at(h, sm, line, space, op, 0);
}

static void load(hierarchy *h, uint32_t sm, uint64_t line)
{
    access(h, sm, line, WST_GLOBAL, WST_OP_DEFAULT);
}

static const replay_kernel *finish(hierarchy *h)
{
    ws_error err;
    cr_assert_eq(hierarchy_finish(h, &err), 0, "%s", err.msg);
    return &hierarchy_results(h)->kernels[0];
}

Test(sharing_aware, a_second_sms_hit_marks_the_l2_line_shared)
{
    hierarchy *h = make("16K:4:128", "48K:8:128", "sa-fill");
    load(h, 0, A); /* L2 miss: filled, private to SM 0 */
    load(h, 0, A); /* an L1 hit: L2 never sees it */
    load(h, 1, A); /* L2 hit from SM 1: shared */
    load(h, 1, B);
    const replay_kernel *k = finish(h);
    cr_expect_eq(k->l2_fills, 2);
    cr_expect_eq(k->l2_became_shared, 1);
    cr_expect(hierarchy_results(h)->sharing_tracked);
    hierarchy_free(h);
}

Test(sharing_aware, a_shared_fill_bypasses_l1_over_a_private_victim)
{
    /* SM 1's L1 holds one line.  B is private to it; A becomes shared on
     * SM 1's L2 hit and would evict B: it bypasses, so B still hits.  Under
     * plain LRU, A takes B's place. */
    const char *systems[2] = {"sa-fill", "lru/lru"};
    uint64_t hits[2];
    for (int s = 0; s < 2; s++) {
        hierarchy *h = make("128:1:128", "48K:8:128", systems[s]);
        load(h, 1, B);
        load(h, 0, A);
        load(h, 1, A);
        load(h, 1, B);
        hits[s] = finish(h)->counts.l1.hits;
        hierarchy_free(h);
    }
    cr_expect_eq(hits[0], 1, "sa-fill: B hits");
    cr_expect_eq(hits[1], 0, "lru: A evicted B");
}

Test(sharing_aware, l1_evicts_the_lru_shared_line_first_and_spares_a_private_one_once)
{
    /* SM 1's L1: one set of 2 ways.  P (private) then S (shared: SM 0
     * brought it to L2) fill it; Q's miss finds P at the LRU end: P is
     * declared dead and S goes.  R's miss finds P at the LRU end again,
     * dead: P goes. */
    hierarchy *h = make("256:2:128", "48K:8:128", "sa-l1/lru");
    load(h, 0, S);
    load(h, 1, P);
    load(h, 1, S); /* L2 hit from SM 1: shared, and filled into SM 1's L1 as shared */
    load(h, 1, Q); /* victim: S (shared first), P gets its second chance */
    load(h, 1, P); /* so P hits */
    load(h, 1, R); /* P is LRU again... */
    const replay_kernel *k = finish(h);
    cr_expect_eq(k->counts.l1.hits, 1, "P's hit after its reprieve");
    hierarchy_free(h);
    /* The dead-block flag: one set of 3 ways, P private, S and T shared.
     * X's miss spares P (dead now) and takes S; Y's miss finds P at the LRU
     * end again and takes it, though T is shared: T then hits.  Sparing P
     * twice would have cost T. */
    h = make("384:3:128", "48K:8:128", "sa-l1/lru");
    load(h, 0, S);
    load(h, 0, T);
    load(h, 1, P);
    load(h, 1, S);
    load(h, 1, T);
    load(h, 1, X); /* S goes, P is dead */
    load(h, 1, Y); /* P goes */
    load(h, 1, T); /* a hit */
    load(h, 1, P); /* a miss */
    k = finish(h);
    cr_expect_eq(k->counts.l1.hits, 1, "T hits; P was evicted on its second chance");
    hierarchy_free(h);
}

Test(sharing_aware, l2_evicts_the_lru_private_line_first)
{
    /* One L2 set of 2 ways; cg loads skip L1.  S is shared (SM 0 fills,
     * SM 1 hits), P private and more recent.  X's fill takes P under sa-l2
     * (private first), S under LRU; S's next access tells which. */
    const char *systems[2] = {"lru/sa-l2", "lru/lru"};
    uint64_t l2_hits[2];
    for (int s = 0; s < 2; s++) {
        hierarchy *h = make("16K:4:128", "256:2:128", systems[s]);
        access(h, 0, S, WST_GLOBAL, WST_OP_CG);
        access(h, 1, S, WST_GLOBAL, WST_OP_CG);
        access(h, 0, P, WST_GLOBAL, WST_OP_CG);
        access(h, 0, X, WST_GLOBAL, WST_OP_CG);
        access(h, 1, S, WST_GLOBAL, WST_OP_CG);
        l2_hits[s] = finish(h)->counts.l2.hits;
        hierarchy_free(h);
    }
    cr_expect_eq(l2_hits[0], 2, "sa-l2 kept S");
    cr_expect_eq(l2_hits[1], 1, "lru evicted S");
}

/* S0 §V (docs/metrics.md §9): a local L1 miss looks L2 up; a hit is
 * served from L2, a miss comes from DRAM without taking an L2 line. */
Test(sharing_aware, local_misses_bypass_l2_but_hit_there)
{
    hierarchy *h = make("16K:4:128", "48K:8:128", "sa-local");
    access(h, 0, A, WST_LOCAL, WST_OP_DEFAULT);  /* L2 miss: DRAM, no L2 line */
    access(h, 1, A, WST_LOCAL, WST_OP_DEFAULT);  /* so another SM misses in L2 again */
    access(h, 0, B, WST_GLOBAL, WST_OP_DEFAULT); /* a global miss fills L2 */
    access(h, 1, B, WST_LOCAL, WST_OP_DEFAULT);  /* a local miss that hits in L2 */
    const replay_kernel *k = finish(h);
    cr_expect_eq(k->counts.l2.accesses, 4, "every miss looked L2 up");
    cr_expect_eq(k->counts.l2.hits, 1, "the local miss on B was served by L2");
    cr_expect_eq(k->counts.l2.bypasses, 2, "the local misses on A took no L2 line");
    cr_expect_eq(hierarchy_results(h)->total.traffic.dram_read_bytes, 3 * 128);
    hierarchy_free(h);
}

Test(sharing_aware, the_whole_system_and_unknown_names)
{
    hierarchy_options o = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&o.config, "fermi", &err), 0);
    cr_expect_eq(system_apply("sharing-aware", &o, &err), 1);
    cr_expect_str_eq(o.config.l1.policy, "sa-l1");
    cr_expect_str_eq(o.config.l2.policy, "sa-l2");
    cr_expect_eq(o.stage_count, 2);
    cr_expect(o.track_sharing);
    cr_expect_eq(system_apply("lru", &o, &err), 0, "a policy is no system");
}

static void load_at(hierarchy *h, uint32_t sm, uint64_t line, uint64_t step)
{
    access_at(h, sm, line, WST_GLOBAL, WST_OP_DEFAULT, step);
}

Test(sharing_aware, mshr_hits_and_late_rereferences_of_shared_lines)
{
    /* Timed (docs/metrics.md §12): SM 1's first load of A finds it shared in L2
     * (a shared miss) and fills its L1, pending; its second load merges
     * into that pending miss (a shared MSHR hit).  B, filled by SM 0 at step
     * 0, is re-referenced by SM 1 at step 1500: late (>= 1000 steps). */
    hierarchy *h = make_reserved("16K:4:128", "48K:8:128", "sa-fill", 1);
    load_at(h, 0, A, 0);
    load_at(h, 0, B, 1);
    load_at(h, 1, A, 2);    /* shared miss */
    load_at(h, 1, A, 3);    /* MSHR hit on the shared line */
    load_at(h, 1, B, 1500); /* a late re-reference of shared B */
    const replay_kernel *k = finish(h);
    cr_expect_eq(k->shared_misses, 2);
    cr_expect_eq(k->shared_mshr_hits, 1);
    cr_expect_eq(k->shared_rereferences, 2, "SM 1's L2 hits on A and B");
    cr_expect_eq(k->shared_rereferences_late, 1, "B's, 1499 steps after its fill");
    hierarchy_free(h);
}
