/* tests/test_warp_ready.c: which warps can issue in the timed replay
 * (docs/metrics.md §12), as the warp orders ask it (warp_view_ready), and
 * GTO and LRR choosing among them; the scheduler's look hands GTO the
 * first warp it found ready (warp_view.first_ready), which changes no pick. */
#include <criterion/criterion.h>

#include "analyzer/warp_order.h"
#include "analyzer/warp_orders/gto.h"

/* A record waits for the LD/ST unit, a gap instruction does not; both wait
 * for their ready_at. */
Test(warp_ready, a_record_waits_for_the_ldst_unit_and_a_gap_instruction_does_not)
{
    warp_timing record = {.ready_at = 10, .gap_left = 0}, gap = {.ready_at = 10, .gap_left = 2};
    cr_assert_eq(warp_timing_issue_from(&record, 15), 15); /* the unit opens after its loads */
    cr_assert_eq(warp_timing_issue_from(&record, 5), 10);  /* its loads come back last */
    cr_assert_eq(warp_timing_issue_from(&record, 10), 10);
    cr_assert_eq(warp_timing_issue_from(&gap, 15), 10);

    warp_timing timing[2] = {record, gap};
    warp_view v = {.timing = timing, .ldst_open = 15};
    v.cycle = 9; /* neither: both wait for ready_at 10 */
    cr_assert(!warp_view_ready(&v, 0) && !warp_view_ready(&v, 1));
    v.cycle = 14; /* the gap instruction; the record waits for the unit */
    cr_assert(!warp_view_ready(&v, 0) && warp_view_ready(&v, 1));
    v.cycle = 15;
    cr_assert(warp_view_ready(&v, 0) && warp_view_ready(&v, 1));

    warp_view functional = {.timing = NULL}; /* every live warp can issue */
    cr_assert(warp_view_ready(&functional, 0));
}

typedef struct fixture {
    void *order;
    uint32_t by_age[4];
    uint8_t live[4];
    warp_timing timing[4];
    warp_view view;
} fixture;

/* One SM, one scheduler, slots 0-3 live, oldest first 3, 1, 0, 2; at cycle
 * 100 with the LD/ST unit open, slots 3 and 1 wait for loads (ready at 200
 * and 150), slots 0 and 2 can issue. */
static void setup(fixture *f, const warp_order_ops *ops)
{
    warp_order_geometry g = {.sms = 1, .schedulers = 1, .slots = 4, .gto_k = 8};
    ws_error err;
    f->order = ops->create(&g, &err);
    cr_assert_not_null(f->order, "%s", err.msg);
    ops->kernel_begin(f->order, 4, 1);
    static const uint32_t age[4] = {3, 1, 0, 2};
    static const uint64_t ready_at[4] = {90, 150, 100, 200};
    for (uint32_t s = 0; s < 4; s++) {
        if (ops->arrived)
            ops->arrived(f->order, 0, s);
        f->by_age[s] = age[s];
        f->live[s] = 1;
        f->timing[s] = (warp_timing){.ready_at = ready_at[s]};
    }
    f->view = (warp_view){.by_age = f->by_age, .live_count = 4, .live = f->live,
                          .slot_count = 4, .schedulers = 1, .timing = f->timing, .cycle = 100,
                          .ldst_open = 100};
}

/* GTO: no greedy warp yet, so the oldest ready one, slot 0 (third oldest);
 * it stays greedy while ready; once it waits, the oldest ready is slot 2. */
Test(warp_ready, gto_takes_the_oldest_ready_warp_then_keeps_it)
{
    fixture f;
    setup(&f, &warp_order_gto);
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), 0);
    warp_order_gto.issued(f.order, &f.view, 0, 0);
    f.view.cycle = 101; /* slot 0 issued at 100: ready at 101 */
    f.view.ldst_open = 101;
    f.timing[0].ready_at = 101;
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), 0);
    f.timing[0].ready_at = 400; /* now it waits for a load */
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), 2);
    warp_order_gto.destroy(f.order);
}

/* The look's first ready warp (age position 2: slots 3 and 1 wait) lets
 * GTO start there, with the same pick; a hint for another age list (an
 * order's own view of a group of warps) is not taken, so a position past
 * every ready warp there changes nothing either. */
Test(warp_ready, gto_starts_at_the_looks_first_ready_warp_of_its_own_list)
{
    fixture f;
    setup(&f, &warp_order_gto);
    f.view.first_ready_of = f.by_age;
    f.view.first_ready = 2;
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), 0);
    warp_order_gto.destroy(f.order);

    /* The look's word is taken: from position 3, slot 0 is passed over. */
    setup(&f, &warp_order_gto);
    f.view.first_ready_of = f.by_age;
    f.view.first_ready = 3;
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), 2);
    warp_order_gto.destroy(f.order);

    setup(&f, &warp_order_gto);
    uint32_t other[4] = {3, 1, 0, 2};
    f.view.first_ready_of = other;
    f.view.first_ready = 4;
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), 0);
    warp_order_gto.destroy(f.order);
}

/* GTO takes the look's first ready warp only while it waits after no
 * miss: slot 0 (age position 2) missed at its issue and waits gto_k = 8
 * issues, so at cycle 200 (slots 3 and 1 still wait for loads) GTO goes on
 * to the next ready warp, slot 2; with slot 2 waiting for a load too,
 * none. */
Test(warp_ready, gto_passes_the_looks_first_ready_warp_while_it_waits_after_a_miss)
{
    fixture f;
    setup(&f, &warp_order_gto);
    warp_order_gto.issued(f.order, &f.view, 0, 1); /* ready again after 1 + 8 issues */
    f.view.cycle = f.view.ldst_open = 200;
    f.timing[3].ready_at = f.timing[1].ready_at = 300;
    f.view.first_ready_of = f.by_age;
    f.view.first_ready = 2;
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), 2);
    f.timing[2].ready_at = 300;
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), -1);
    warp_order_gto.destroy(f.order);
}

/* With no warp ready (cycle 95: slot 0's loads are back but its record
 * waits for the LD/ST unit, held until 160; the others wait for loads)
 * GTO picks none, LRR too. */
Test(warp_ready, no_ready_warp_picks_none)
{
    fixture f;
    setup(&f, &warp_order_gto);
    f.view.cycle = 95;
    f.view.ldst_open = 160;
    cr_assert_eq(warp_order_gto.pick(f.order, &f.view), -1);
    warp_order_gto.destroy(f.order);
    setup(&f, &warp_order_lrr);
    f.view.cycle = 95;
    f.view.ldst_open = 160;
    cr_assert_eq(warp_order_lrr.pick(f.order, &f.view), -1);
    warp_order_lrr.destroy(f.order);
}

/* LRR: slots in order from the one after the last issued, ready ones only:
 * 0, then 2 (1 waits), then 0 again (3 waits). */
Test(warp_ready, lrr_rotates_over_the_ready_warps)
{
    fixture f;
    setup(&f, &warp_order_lrr);
    cr_assert_eq(warp_order_lrr.pick(f.order, &f.view), 0);
    cr_assert_eq(warp_order_lrr.pick(f.order, &f.view), 2);
    cr_assert_eq(warp_order_lrr.pick(f.order, &f.view), 0);
    warp_order_lrr.destroy(f.order);
}

/* GTO's timed pick (gto_timed_pick, on warp_order_ops.timed_greedy's
 * array), the one the timed scheduler makes inline: no greedy warp yet, so
 * the look's oldest ready warp, slot 0 (slots 3 and 1 wait), which becomes
 * greedy; it stays greedy while it can issue, even with an older warp
 * ready (slot 3 at cycle 200); once it waits for a load, the look's oldest
 * ready warp again; a greedy warp that left (not live) is passed over. */
Test(warp_ready, gto_timed_pick_keeps_the_greedy_warp_while_it_can_issue)
{
    fixture f;
    setup(&f, &warp_order_gto);
    int32_t *greedy = warp_order_gto.timed_greedy(f.order); /* one SM, one scheduler */
    cr_assert_eq(*greedy, -1);
    cr_assert_eq(gto_timed_pick(greedy, f.live, f.timing, 100, 100, 0), 0);
    cr_assert_eq(*greedy, 0);
    f.timing[0].ready_at = 101;
    cr_assert_eq(gto_timed_pick(greedy, f.live, f.timing, 101, 101, 0), 0);
    cr_assert_eq(gto_timed_pick(greedy, f.live, f.timing, 200, 200, 3), 0);
    f.timing[0].ready_at = 400; /* it waits for a load: slot 2 is the oldest ready */
    cr_assert_eq(gto_timed_pick(greedy, f.live, f.timing, 101, 101, 2), 2);
    cr_assert_eq(*greedy, 2);
    /* A record waits for the LD/ST unit: the greedy slot 2 cannot issue
     * while it is held (open at 150), a gap instruction of slot 1 can. */
    f.timing[1] = (warp_timing){.ready_at = 120, .gap_left = 3};
    f.timing[2].ready_at = 120;
    cr_assert_eq(gto_timed_pick(greedy, f.live, f.timing, 130, 150, 1), 1);
    f.live[1] = 0; /* slot 1 left */
    cr_assert_eq(gto_timed_pick(greedy, f.live, f.timing, 130, 130, 2), 2);
    warp_order_gto.destroy(f.order);
}

/* In the timed replay no order is told of a miss, so GTO's pick through
 * its view and the scheduler's inline pick agree, issue after issue, on
 * every pattern of ready warps (the first ready one handed to both as the
 * look finds it). */
Test(warp_ready, gto_timed_pick_is_gtos_pick_without_misses)
{
    fixture inline_pick, by_view;
    setup(&inline_pick, &warp_order_gto);
    setup(&by_view, &warp_order_gto);
    int32_t *greedy = warp_order_gto.timed_greedy(inline_pick.order);
    uint64_t seed = 12345;
    for (uint64_t cycle = 100; cycle < 400; cycle++) {
        for (uint32_t s = 0; s < 4; s++) {
            seed = seed * 6364136223846793005u + 1442695040888963407u;
            by_view.timing[s].ready_at = inline_pick.timing[s].ready_at = cycle + (seed >> 62);
        }
        by_view.view.cycle = by_view.view.ldst_open = cycle;
        uint32_t first = 0;
        while (first < 4 && !warp_view_ready(&by_view.view, by_view.by_age[first]))
            first++;
        if (first == 4)
            continue; /* the scheduler asks no order then */
        by_view.view.first_ready_of = by_view.by_age;
        by_view.view.first_ready = first;
        int32_t expected = warp_order_gto.pick(by_view.order, &by_view.view);
        warp_order_gto.issued(by_view.order, &by_view.view, (uint32_t)expected, 0);
        cr_assert_eq(gto_timed_pick(greedy, inline_pick.live, inline_pick.timing, cycle, cycle,
                                    inline_pick.by_age[first]),
                     (uint32_t)expected, "cycle %llu", (unsigned long long)cycle);
    }
    warp_order_gto.destroy(inline_pick.order);
    warp_order_gto.destroy(by_view.order);
}
