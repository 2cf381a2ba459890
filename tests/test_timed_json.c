/* tests/test_timed_json.c: a timed run's JSON (reports/timed_json.h) is
 * the same text whether it is written straight into a printed report
 * (a deferred value: compare -o, replay -o) or built as a tree for a
 * reader (profile's HTML page) and printed by json_dumps; and it holds one
 * stalls object per scheduler, in SM-major order. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "analyzer/replay.h"
#include "reports/json_out.h"
#include "reports/timed_json.h"
#include "tests/trace_gen.h"

static hierarchy *timed_replay(const wst_memtrace *m)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "volta", &err), 0, "%s", err.msg);
    c.sms = 3;
    hierarchy_options o = {.config = c, .seed = 3, .timed = 1};
    replay_options ro;
    replay_options_default(&ro);
    sched_source src = sched_source_memtrace(m);
    hierarchy *h = NULL;
    cr_assert_eq(replay_run(&src, &c, &ro, &o, 1, &h, NULL, &err), 0, "%s", err.msg);
    sched_source_free(&src);
    return h;
}

/* {"run": the run, "kernels": [each kernel]}, deferred into `later` or,
 * with later NULL, as trees. */
static json_t *document(const replay_results *r, json_deferred_set *later)
{
    json_t *doc = json_object(), *kernels = json_array();
    json_object_set_new(doc, "run", timed_run_json(r, later));
    for (uint32_t k = 0; k < r->kernel_count; k++)
        json_array_append_new(kernels, timed_kernel_json(&r->kernels[k], later));
    json_object_set_new(doc, "kernels", kernels);
    return doc;
}

Test(timed_json, written_and_built_print_the_same)
{
    wst_memtrace *m = test_random_trace(41, 3, 300);
    hierarchy *h = timed_replay(m);
    const replay_results *r = hierarchy_results(h);
    cr_assert(r->timed && r->kernel_count == 3);

    json_deferred_set *later = json_deferred_new();
    json_t *written = document(r, later), *built = document(r, NULL);
    char *got = json_print_compact_deferred(written, REPORT_JSON_PRECISION, later);
    char *want = json_dumps(built, REPORT_JSON_FLAGS);
    cr_assert_not_null(got);
    cr_assert_str_eq(got, want);

    /* The tree a reader gets: a stalls object per scheduler, SM by SM. */
    const json_t *per = json_object_get(json_object_get(built, "run"), "stall_cycles_per_scheduler");
    cr_assert_eq(json_array_size(per), (size_t)r->sms * r->schedulers);
    cr_assert_eq(r->sms, 3);
    for (uint32_t i = 0; i < r->sms * r->schedulers; i++) {
        const json_t *one = json_array_get(per, i);
        cr_expect_eq(json_integer_value(json_object_get(one, "sm")), i / r->schedulers);
        cr_expect_eq(json_integer_value(json_object_get(one, "scheduler")), i % r->schedulers);
        cr_expect_eq(json_integer_value(json_object_get(one, "memory")),
                     (json_int_t)r->scheduler_stalls[(size_t)i * STALL_CAUSES + STALL_MEMORY]);
    }
    free(got);
    free(want);
    json_decref(written);
    json_decref(built);
    json_deferred_free(later);
    hierarchy_free(h);
    wst_memtrace_free(m);
}
