/* tests/test_ccws.c: cache-conscious wavefront scheduling (docs/metrics.md §9): a warp
 * that misses on a line in its own victim tags raises its lost-locality
 * score; past the cut-off the lowest-scoring warp stops issuing, until the
 * scores decay. */
#include <criterion/criterion.h>

#include "analyzer/warp_order.h"

typedef struct fixture {
    void *order;
    uint32_t by_age[3];
    uint8_t live[3];
    warp_view view;
} fixture;

/* One SM, one scheduler, three live warps (slots 0-2, oldest first) with
 * reference-L1 ids 10, 11, 12. */
static void setup(fixture *f)
{
    warp_order_geometry g = {.sms = 1, .schedulers = 1, .slots = 3, .gto_k = 8,
                             .line_bytes = 128};
    ws_error err;
    f->order = warp_order_ccws.create(&g, &err);
    cr_assert_not_null(f->order, "%s", err.msg);
    warp_order_ccws.kernel_begin(f->order, 3, 1);
    for (uint32_t s = 0; s < 3; s++) {
        warp_order_ccws.arrived(f->order, 0, s);
        f->by_age[s] = s;
        f->live[s] = 1;
    }
    f->view = (warp_view){.by_age = f->by_age, .live_count = 3, .live = f->live, .slot_count = 3,
                          .schedulers = 1};
}

/* Slot `slot` (warp 10 + slot) issues one load of `line`. */
static void load(fixture *f, uint32_t slot, uint64_t line, replay_ref ref)
{
    ws_request rq = {.line_addr = line * 128, .sector_mask = 1, .req_count = 1};
    ref.outcome = L1_LOOKUP;
    warp_order_ccws.observed(f->order, 0, slot, 10 + slot, 0, &rq, &ref, 1);
    warp_order_ccws.issued(f->order, &f->view, slot, !ref.hit);
}

Test(ccws, a_warp_past_the_cutoff_shuts_the_lowest_out_until_scores_decay)
{
    fixture f;
    setup(&f);
    load(&f, 1, 5, (replay_ref){0});        /* warp 11 fills lines 5 and 8 */
    load(&f, 1, 8, (replay_ref){0});
    load(&f, 0, 6, (replay_ref){.evicted = 1, .victim_warp = 11, .victim_line = 5});
    load(&f, 0, 9, (replay_ref){.evicted = 1, .victim_warp = 11, .victim_line = 8});
    cr_expect_eq(warp_order_ccws.pick(f.order, &f.view), 2,
                 "slots 0 and 1 wait after their misses: GTO takes the oldest ready, slot 2");
    /* Warp 11 misses on both its victims: lost locality, +100 each (less
     * 1 a scheduler issue): scores 100, 298, 100 against a cut-off of
     * 3 × 100.  Slot 1 and slot 0 (the older of the 100s) are admitted,
     * slot 2 is shut out: though both admitted warps wait after a miss,
     * slot 2 does not issue. */
    load(&f, 1, 5, (replay_ref){0});
    load(&f, 1, 8, (replay_ref){0});
    cr_expect_neq(warp_order_ccws.pick(f.order, &f.view), 2, "slot 2 is throttled");
    /* 200 issues later the extra score has decayed: with slots 0 and 1
     * waiting after new misses, slot 2 issues again. */
    for (int i = 0; i < 200; i++)
        warp_order_ccws.issued(f.order, &f.view, 0, 0);
    load(&f, 0, 20, (replay_ref){0});
    load(&f, 1, 21, (replay_ref){0});
    cr_expect_eq(warp_order_ccws.pick(f.order, &f.view), 2, "admitted again");
    warp_order_ccws.destroy(f.order);
}

Test(ccws, without_lost_locality_it_is_gto)
{
    /* The same issues through CCWS and GTO: misses, hits, and a victim
     * filled by another warp (warp 11's miss on warp 12's line is no lost
     * locality of its own) leave every score at the base: the picks agree. */
    fixture f;
    setup(&f);
    warp_order_geometry g = {.sms = 1, .schedulers = 1, .slots = 3, .gto_k = 8,
                             .line_bytes = 128};
    ws_error err;
    void *gto = warp_order_gto.create(&g, &err);
    cr_assert_not_null(gto);
    warp_order_gto.kernel_begin(gto, 3, 1);
    for (uint32_t s = 0; s < 3; s++)
        warp_order_gto.arrived(gto, 0, s);
    const struct {
        uint32_t slot;
        uint64_t line;
        replay_ref ref;
    } steps[] = {{1, 5, {0}},
                 {2, 7, {0}},
                 {0, 6, {.evicted = 1, .victim_warp = 12, .victim_line = 7}},
                 {1, 7, {0}},
                 {2, 7, {.hit = 1}},
                 {0, 6, {.hit = 1}}};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        int32_t want = warp_order_gto.pick(gto, &f.view);
        cr_expect_eq(warp_order_ccws.pick(f.order, &f.view), want, "step %zu", i);
        load(&f, steps[i].slot, steps[i].line, steps[i].ref);
        warp_order_gto.issued(gto, &f.view, steps[i].slot, !steps[i].ref.hit);
    }
    warp_order_gto.destroy(gto);
    warp_order_ccws.destroy(f.order);
}
