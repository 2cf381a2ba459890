/* tests/test_cli_compare_text.c: `compare`'s text table reads no collector's
 * figure, so a compare that writes no file runs without collectors
 * (docs/replay.md, "What a hierarchy collects"): its table must be the one
 * a run that writes the JSON prints, for every kind of policy, functional
 * and timed. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/helpers.h"

/* The table of `compare TRACE --policies P [--timed]`, with and without
 * -o: equal; the JSON still carries the collectors' miss classes. */
static void same_table(const char *dir, const char *trace, const char *policies, int timed)
{
    char *json = test_path(dir, "compare.json");
    cli_result plain = cli_run("compare", trace, "--gpu", "fermi", "--policies", policies,
                               timed ? "--timed" : "--quiet", "--quiet", NULL);
    cli_result written = cli_run("compare", trace, "--gpu", "fermi", "--policies", policies,
                                 timed ? "--timed" : "--quiet", "--quiet", "-o", json, NULL);
    cr_assert_eq(plain.status, 0, "%s: %s", policies, plain.err);
    cr_assert_eq(written.status, 0, "%s: %s", policies, written.err);
    cr_assert_str_eq(plain.out, written.out, "%s%s", policies, timed ? " --timed" : "");
    json_t *doc = test_load_json(json);
    json_t *first = json_array_get(json_object_get(doc, "policies"), 0);
    json_t *classes = json_object_get(first, "miss_classes");
    cr_assert(json_is_object(classes), "%s: the JSON's miss classes", policies);
    json_int_t cold = json_integer_value(json_object_get(classes, "cold"));
    cr_assert_gt(cold, 0, "%s: the written run collected its miss classes", policies);
    json_decref(doc);
    cli_result_free(&plain);
    cli_result_free(&written);
    free(json);
}

Test(cli_compare_text, the_table_is_the_same_without_collectors)
{
    char *dir = test_tmpdir();
    char *trace = test_record_trace(dir, "bfs");
    const char *sets[] = {"lru,fifo,srrip,opt",
                          "dacache,dacache-stall,static1,sa-l1",
                          "lru+bypass-table,lru@lrr,drrip@ccws",
                          "sharing-aware,srrip+ccn,lcm,lcm-coalesce"};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        for (int timed = 0; timed < 2; timed++)
            same_table(dir, trace, sets[i], timed);
    free(trace);
    test_tmpdir_cleanup(dir);
}
