/* tests/test_advice.c: each kind of advice (docs/metrics.md §9, "Advice")
 * on a hand-made trace with a known answer, and the ranking. */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/advice.h"
#include "analyzer/bypass_advisor.h"
#include "formats/memtrace.h"

/* One kernel, `ctas` CTAs of one warp, load PCs 0x10 (a.cu:5) and 0x20 (a.cu:9). */
static wst_memtrace *kernel_of(wst_sink *s, uint32_t ctas)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    *s = wst_memtrace_sink(m);
    ws_error err;
    wst_kernel k = {.name = "k", .grid = {ctas, 1, 1}, .block = {32, 1, 1}};
    cr_assert_eq(wst_sink_add_kernel(s, &k, &err), 0);
    wst_sink_add_pc(s, 0, &(wst_pc){.offset = 0x10, .file = "a.cu", .line = 5}, &err);
    wst_sink_add_pc(s, 0, &(wst_pc){.offset = 0x20, .file = "a.cu", .line = 9}, &err);
    return m;
}

/* A whole-warp load of 4 B a lane, lane l at base + l × stride. */
static void load(wst_sink *s, uint32_t cta, uint32_t pc, uint64_t base, uint64_t stride)
{
    wst_record r;
    memset(&r, 0, sizeof r);
    r.cta = cta;
    r.pc = pc;
    r.size = 4;
    r.mask = 0xffffffffu;
    for (int l = 0; l < 32; l++)
        r.addr[l] = base + (uint64_t)l * stride;
    ws_error err;
    cr_assert_eq(wst_sink_add_record(s, 0, &r, &err), 0);
}

/* The advice for m on `gpu` with overrides (option, value pairs, NULL-ended). */
static bypass_advice *advise_on(const wst_memtrace *m, const char *gpu, ...)
{
    hierarchy_options base = {.seed = 1};
    ws_error err;
    cr_assert_eq(config_load(&base.config, gpu, &err), 0);
    va_list ap;
    va_start(ap, gpu);
    for (const char *opt; (opt = va_arg(ap, const char *));)
        cr_assert_eq(config_override(&base.config, opt, va_arg(ap, const char *), &err), 0, "%s",
                     err.msg);
    va_end(ap);
    sched_source src = sched_source_memtrace(m);
    replay_options ro;
    replay_options_default(&ro);
    bypass_advice *a = bypass_advise(&src, &ro, &base, 8, BYPASS_U_SECTOR, 1, &err);
    cr_assert_not_null(a, "%s", err.msg);
    sched_source_free(&src);
    return a;
}

/* PC 0 reads line X twice (a miss, then a hit), then PC 1 streams through
 * two new full lines, ten times over, in a one-set, two-way L1: PC 1's
 * second fill evicts X each time, which had been hit.  Eq. 1 never marks
 * PC 1's lines (U = 1, R = 0: 1 × 1 is not < 1), yet bypassing it keeps X:
 * PC 0 then misses once instead of 10 times, 9 × 128 B less L1 -> L2 (L2
 * holds X, so DRAM is the same).  PC 1's 20 fills all die unhit. */
Test(advice, a_streaming_load_that_evicts_reused_data_is_loaded_with_ldcg)
{
    wst_sink s;
    wst_memtrace *m = kernel_of(&s, 1);
    for (uint64_t i = 0; i < 10; i++) {
        load(&s, 0, 0, 0x100000, 4);
        load(&s, 0, 0, 0x100000, 4);
        load(&s, 0, 1, 0x200000 + 256 * i, 4);
        load(&s, 0, 1, 0x200000 + 256 * i + 128, 4);
    }
    bypass_advice *a = advise_on(m, "fermi", "--sms", "1", "--l1", "256:2:128", NULL);
    cr_assert_eq(a->advice_count, 1);
    const advice_item *it = &a->advice[0];
    cr_expect_eq(it->kind, ADVICE_LDCG);
    cr_expect_eq(it->finding, FINDING_STREAMING);
    cr_expect_eq(a->pcs[it->pc].pc, 1);
    cr_expect_eq(a->pcs[it->pc].worthy, 0, "Eq. 1 marks none of its lines");
    cr_expect_eq(it->saved_bytes, 9 * 128);
    cr_expect(it->checked);
    cr_expect_eq(it->count, 10, "X evicted after each of its hits");
    cr_expect_eq(it->share, 1.0, "every fill dies unhit");
    cr_expect_eq(a->pcs[it->pc].evidence.fills, 20);
    cr_expect_str_eq(advice_kind_words(it->kind), "load with __ldcg");
    bypass_advice_free(a);
    wst_memtrace_free(m);
}

/* One warp reads 32 words at a 128 B stride: 32 sectors where 4 would
 * carry its 128 bytes, an excess of 28 (docs/metrics.md §7's example).  No
 * replay can move its addresses: the estimate is its bytes below L1 × 28/32. */
Test(advice, an_uncoalesced_load_is_coalesced_by_an_estimate)
{
    wst_sink s;
    wst_memtrace *m = kernel_of(&s, 1);
    load(&s, 0, 0, 0x100000, 128);
    bypass_advice *a = advise_on(m, "hopper", "--sms", "1", NULL);
    const advice_item *coalesce = NULL;
    for (uint32_t i = 0; i < a->advice_count; i++)
        if (a->advice[i].kind == ADVICE_COALESCE) {
            cr_assert_null(coalesce, "one PC, one item");
            coalesce = &a->advice[i];
        }
    cr_assert_not_null(coalesce);
    cr_expect_eq(coalesce->finding, FINDING_UNCOALESCED);
    cr_expect_eq(coalesce->count, 28);
    cr_expect_eq(coalesce->share, 28.0 / 32.0);
    cr_expect_not(coalesce->checked, "an estimate");
    uint64_t below = bypass_traffic(&a->baseline); /* PC 0 is the trace's only load */
    cr_expect_gt(below, 0);
    cr_expect_eq(a->pcs[0].evidence.below_l1_bytes, below);
    cr_expect_eq(coalesce->saved_bytes, (uint64_t)((double)below * 28.0 / 32.0));
    cr_expect_str_eq(advice_kind_words(coalesce->kind), "coalesce accesses");
    bypass_advice_free(a);
    wst_memtrace_free(m);
}

/* Two one-warp CTAs read the same line.  rr puts them on two SMs: two L1
 * misses.  S0's bcs puts the pair on one SM: the second hits, 128 B less
 * L1 -> L2 (DRAM reads the line once either way).  qx_adpt on a 1-D grid
 * of 2 CTAs over 2 SMs is rr, and bypassing the PC changes nothing. */
Test(advice, ctas_that_share_a_line_are_scheduled_on_one_sm)
{
    wst_sink s;
    wst_memtrace *m = kernel_of(&s, 2);
    load(&s, 0, 0, 0x100000, 4);
    load(&s, 1, 0, 0x100000, 4);
    bypass_advice *a = advise_on(m, "fermi", "--sms", "2", NULL);
    cr_assert_eq(a->advice_count, 1);
    const advice_item *it = &a->advice[0];
    cr_expect_eq(it->kind, ADVICE_CTA_SCHEDULE);
    cr_expect_eq(it->finding, FINDING_SHARING);
    cr_expect_eq(it->schedule, CTA_BCS);
    cr_expect_eq(it->saved_bytes, 128);
    cr_expect(it->checked);
    cr_expect_eq(it->pc, UINT32_MAX);
    cr_expect_str_eq(advice_kind_words(it->kind), "schedule CTAs that share data on one SM");
    bypass_advice_free(a);
    wst_memtrace_free(m);
}

static const char *place_of(void *ctx, const advice_item *item, char *buf, size_t cap)
{
    (void)ctx;
    snprintf(buf, cap, "line %u", item->pc / 10);
    return buf;
}

/* Sorted by saving, grouped by place: a place's items stay together, the
 * places by their largest saving (pc / 10 is the place here). */
Test(advice, ranking_groups_by_place_and_sorts_by_saving)
{
    advice_item items[] = {{.pc = 11, .saved_bytes = 5},  {.pc = 20, .saved_bytes = 50},
                           {.pc = 12, .saved_bytes = 70}, {.pc = 31, .saved_bytes = 60},
                           {.pc = 21, .saved_bytes = 80}, {.pc = 30, .saved_bytes = 1}};
    advice_rank(items, 6, place_of, NULL);
    const uint32_t want[] = {21, 20, 12, 11, 31, 30};
    for (int i = 0; i < 6; i++)
        cr_expect_eq(items[i].pc, want[i], "item %d: pc %u, want %u", i, items[i].pc, want[i]);
}
