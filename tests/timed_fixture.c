/* tests/timed_fixture.c: see timed_fixture.h. */
#include "tests/timed_fixture.h"

#include <criterion/criterion.h>
#include <string.h>

#include "formats/sink.h"

static wst_memtrace *build(const rec *recs, size_t n, uint32_t kernels, uint32_t grid_x,
                           uint32_t grid_y, uint32_t warps)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink s = wst_memtrace_sink(m);
    ws_error err;
    for (uint32_t k = 0; k < kernels; k++) {
        wst_kernel kernel = {.name = "k", .grid = {grid_x, grid_y, 1}, .block = {32 * warps, 1, 1}};
        cr_assert_geq(wst_sink_add_kernel(&s, &kernel, &err), 0);
        uint32_t pcs = 1;
        for (size_t i = 0; i < n; i++)
            if (recs[i].kernel == k && recs[i].pc >= pcs)
                pcs = recs[i].pc + 1;
        for (uint32_t p = 0; p < pcs; p++)
            cr_assert_geq(wst_sink_add_pc(&s, k, &(wst_pc){.offset = 16 * p}, &err), 0);
    }
    for (size_t i = 0; i < n; i++) {
        wst_record r;
        memset(&r, 0, sizeof r);
        r.cta = recs[i].cta;
        r.warp = recs[i].warp;
        r.pc = recs[i].pc;
        r.kind = (uint8_t)recs[i].kind;
        r.gap = recs[i].gap;
        r.waits = recs[i].waits;
        r.has_waits = recs[i].has_waits;
        r.size = 4;
        for (uint32_t l = 0; l < recs[i].lanes; l++) {
            r.mask |= 1u << l;
            r.addr[l] = 0x10000000 + recs[i].line[l] * 128;
        }
        cr_assert_eq(wst_sink_add_record(&s, recs[i].kernel, &r, &err), 0, "%s", err.msg);
    }
    return m;
}

wst_memtrace *timed_trace(const rec *recs, size_t n, uint32_t kernels, uint32_t warps)
{
    return build(recs, n, kernels, 1, 1, warps);
}

wst_memtrace *timed_trace_grid(const rec *recs, size_t n, uint32_t grid_x, uint32_t grid_y,
                               uint32_t warps)
{
    return build(recs, n, 1, grid_x, grid_y, warps);
}

void timed_set(gpu_config *c, const char *assignment)
{
    ws_error err;
    cr_assert_eq(config_override(c, "--set", assignment, &err), 0, "%s: %s", assignment, err.msg);
}

hierarchy_options timed_bypass_pc(const gpu_config *c, one_pc_bypass *b)
{
    b->flag = 1;
    b->flags[0] = &b->flag;
    b->counts[0] = 1;
    b->pcs = (bypass_pcs){.flags = b->flags, .pc_counts = b->counts, .kernels = 1};
    return (hierarchy_options){.seed = 1, .config = *c, .l1_param = &b->pcs,
                               .l1_spec = {.replacement = policy_find("lru"),
                                           .admission = admission_find("bypass-pc")}};
}

gpu_config timed_tiny_gpu(const char *gpu)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, gpu, &err), 0);
    c.sms = 1;
    c.schedulers_per_sm = 1;
    const char *sets[] = {"l2.slices=1", "latency.l2=120", "latency.dram=220",
                          "timing.l1_latency=20", "mshr.entries=32", "mshr.merges=8"};
    for (size_t i = 0; i < sizeof sets / sizeof *sets; i++)
        timed_set(&c, sets[i]);
    cr_assert_eq(config_override(&c, "--l2", "64K:8:128", &err), 0, "%s", err.msg);
    return c;
}

static void seen_instruction(void *ctx, const replay_issue *is)
{
    seen *s = ctx;
    if (s->count < 64) {
        s->cycle[s->count] = is->step;
        s->warp[s->count] = is->cta_warp;
        s->sm[s->count] = is->sm;
        s->cta[s->count] = is->cta;
        s->age_rank[s->count++] = is->age_rank;
    }
}

static hierarchy *run(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                      const warp_order_ops *order_ops, const hierarchy_options *base, int timed,
                      seen *order)
{
    hierarchy_options o = base ? *base : (hierarchy_options){.seed = 1};
    o.config = *c;
    o.timed = timed;
    if (order)
        o.observers[o.observer_count++] =
            (l1_observer){.ctx = order, .instruction_end = seen_instruction};
    replay_options ro;
    replay_options_default(&ro);
    ws_error err;
    cr_assert_eq(sched_options_parse(schedule, &ro.schedule, &err), 0, "%s", err.msg);
    if (order_ops)
        ro.schedule.warp = order_ops;
    sched_source src = sched_source_memtrace(m);
    hierarchy *h = NULL;
    cr_assert_eq(replay_run(&src, c, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
    sched_source_free(&src);
    return h;
}

hierarchy *timed_run(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                     const hierarchy_options *base, seen *order)
{
    return run(m, c, schedule, NULL, base, 1, order);
}

hierarchy *timed_run_order(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                           const warp_order_ops *order_ops)
{
    return run(m, c, schedule, order_ops, NULL, 1, NULL);
}

hierarchy *functional_run(const wst_memtrace *m, const gpu_config *c, const char *schedule,
                          const hierarchy_options *base)
{
    return run(m, c, schedule, NULL, base, 0, NULL);
}

uint64_t timed_kernel_cycles(const hierarchy *h, uint32_t k)
{
    const timed_kernel *t = &hierarchy_results(h)->kernels[k].timed;
    return t->end_cycle - t->start_cycle;
}

uint64_t timed_total_cycles(const hierarchy *h)
{
    uint64_t cycles = 0;
    for (uint32_t k = 0; k < hierarchy_results(h)->kernel_count; k++)
        cycles += timed_kernel_cycles(h, k);
    return cycles;
}

void timed_assert_cycles_add_up(const hierarchy *h, const gpu_config *c)
{
    const replay_results *r = hierarchy_results(h);
    uint64_t slots = r->timed_total.issue_cycles;
    for (int s = 0; s < STALL_CAUSES; s++)
        slots += r->timed_total.stalls[s];
    cr_assert_eq(slots, timed_total_cycles(h) * c->sms * c->schedulers_per_sm);
}
