/* tests/path_cases.c: see path_cases.h. */
#include "tests/path_cases.h"

#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "tests/trace_gen.h"

void path_case_gpu(gpu_config *c, int sectored, const char *l1, const char *policy)
{
    ws_error err;
    char geometry[64];
    snprintf(geometry, sizeof geometry, "%s%s", l1, sectored ? ":32" : "");
    cr_assert_eq(config_load(c, sectored ? "volta" : "fermi", &err), 0);
    c->sms = 4;
    cr_assert_eq(config_override(c, "--l1", geometry, &err), 0, "%s", err.msg);
    cr_assert_eq(config_override(c, "--l1-policy", policy, &err), 0, "%s", err.msg);
}

void path_case_configs(wst_memtrace *m, int must_hit, const char *trace,
                       const char *const *policies, size_t n, const char *l1,
                       void (*run)(const path_case *pc))
{
    sched_source src = sched_source_memtrace(m);
    replay_options ro;
    replay_options_default(&ro);
    for (int sectored = 0; sectored <= 1; sectored++)
        for (size_t i = 0; i < n; i++) {
            path_case pc = {.src = &src, .ro = &ro, .policy = i, .sectored = sectored,
                            .must_hit = must_hit};
            path_case_gpu(&pc.config, sectored, l1, policies[i]);
            snprintf(pc.what, sizeof pc.what, "%s trace, %s L1, %s", trace, policies[i],
                     sectored ? "sectored, write-allocate" : "whole lines, write-evict");
            run(&pc);
        }
    sched_source_free(&src);
    wst_memtrace_free(m);
}

void path_case_replay_both(const path_case *pc, const hierarchy_options *o, hierarchy *h[2])
{
    hierarchy_options both[2] = {*o, *o};
    both[1].observers[both[1].observer_count++] = (l1_observer){0};
    ws_error err;
    cr_assert_eq(replay_run(pc->src, &pc->config, pc->ro, both, 2, h, NULL, &err), 0, "%s: %s",
                 pc->what, err.msg);
}

void path_case_traces(void (*each)(wst_memtrace *m, int must_hit, const char *name))
{
    uint64_t lines[400];
    for (size_t i = 0; i < 400; i++)
        lines[i] = 0x2000 + i * 5;
    each(test_random_trace(41, 3, 600), 0, "random");
    each(test_looping_trace(7, 12, 5, 30), 1, "looping");
    each(test_lines_trace(lines, 400, 6, 8, 60, 4, WST_GLOBAL), 1, "global stores");
    each(test_lines_trace(lines, 400, 6, 8, 60, 4, WST_LOCAL), 1, "local stores");
}

void expect_same_counts(const replay_results *a, const replay_results *b, const char *what)
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
