/* tests/test_results_pack.c: a replay's results packed for another rank
 * and unpacked equal the original in every figure a report writes
 * (analyzer/results_pack.h; docs/analysis.md "Ranks"), and bytes cut short
 * or damaged are refused, never followed. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/replay.h"
#include "analyzer/results_pack.h"
#include "analyzer/systems.h"
#include "reports/replay_json.h"
#include "reports/timed_json.h"
#include "tests/trace_gen.h"

enum { ENTRIES = 6 };

/* lru, drrip (policy stats), opt, lru+ccn, lru+lcm, srrip timed: every
 * optional part of replay_results once. */
static void replay_entries(wst_memtrace *m, hierarchy **hs)
{
    gpu_config c;
    ws_error err;
    cr_assert_eq(config_load(&c, "fermi", &err), 0);
    c.sms = 4;
    static const char *const l1[ENTRIES] = {"lru", "drrip", "opt", "lru", "lru", "srrip"};
    static const char *const systems[ENTRIES] = {NULL, NULL, NULL, "ccn", "lcm", NULL};
    hierarchy_options o[ENTRIES];
    for (int i = 0; i < ENTRIES; i++) {
        o[i] = (hierarchy_options){.config = c, .seed = 3};
        o[i].ccn = ccn_options_default();
        o[i].lcm = lcm_options_default();
        snprintf(o[i].config.l1.policy, sizeof o[i].config.l1.policy, "%s", l1[i]);
        if (systems[i])
            cr_assert_eq(system_apply(systems[i], &o[i], &err), 1, "%s", err.msg);
    }
    o[ENTRIES - 1].timed = 1;
    replay_options ro;
    replay_options_default(&ro);
    sched_source src = sched_source_memtrace(m);
    /* The timed entry is a run of its own (a run is functional or timed). */
    cr_assert_eq(replay_run(&src, &c, &ro, o, ENTRIES - 1, hs, NULL, &err), 0, "%s", err.msg);
    cr_assert_eq(replay_run(&src, &c, &ro, o + ENTRIES - 1, 1, hs + ENTRIES - 1, NULL, &err), 0,
                 "%s", err.msg);
    sched_source_free(&src);
}

static char *document(const replay_results *r, const wst_trace *t)
{
    json_t *doc = json_object();
    replay_document_body(doc, r, t, NULL);
    json_object_set_new(doc, "totals", replay_totals_json(r));
    if (r->timed)
        json_object_set_new(doc, "timed", timed_run_json(r, NULL));
    char *text = json_dumps(doc, JSON_SORT_KEYS | JSON_COMPACT);
    json_decref(doc);
    return text;
}

Test(results_pack, unpacked_results_write_the_same_reports)
{
    wst_memtrace *m = test_random_trace(21, 3, 400);
    hierarchy *hs[ENTRIES];
    replay_entries(m, hs);
    results_bytes bytes = {0};
    ws_error err;
    for (int i = 0; i < ENTRIES; i++)
        cr_assert_eq(results_pack(hierarchy_results(hs[i]), &bytes, &err), 0, "%s", err.msg);
    size_t at = 0;
    for (int i = 0; i < ENTRIES; i++) {
        const replay_results *sent = hierarchy_results(hs[i]);
        replay_results *got = results_unpack(bytes.data, bytes.size, &at, &err);
        cr_assert_not_null(got, "entry %d: %s", i, err.msg);
        char *a = document(sent, &m->trace), *b = document(got, &m->trace);
        cr_expect_str_eq(a, b, "entry %d (%s)", i, sent->l1_policy);
        cr_expect_eq(got->l1_policy_stat_count, sent->l1_policy_stat_count);
        for (uint32_t s = 0; s < sent->l1_policy_stat_count; s++) {
            cr_expect_str_eq(got->l1_policy_stats[s].name, sent->l1_policy_stats[s].name);
            cr_expect_eq(got->l1_policy_stats[s].value, sent->l1_policy_stats[s].value);
        }
        cr_expect_eq(!got->ccn, !sent->ccn);
        if (sent->ccn) {
            cr_expect_eq(memcmp(&got->ccn->total, &sent->ccn->total, sizeof sent->ccn->total), 0);
            cr_expect_eq(memcmp(got->ccn->distance_hits, sent->ccn->distance_hits,
                                (sent->ccn->kernel_count + 1) * sent->ccn->sms *
                                    sizeof *sent->ccn->distance_hits), 0);
        }
        cr_expect_eq(!got->lcm, !sent->lcm);
        if (sent->lcm)
            cr_expect_eq(memcmp(&got->lcm->total, &sent->lcm->total, sizeof sent->lcm->total), 0);
        cr_expect_eq(got->timed, sent->timed);
        if (sent->timed && sent->l2_queues)
            cr_expect_eq(memcmp(got->l2_queues, sent->l2_queues,
                                sent->slices * sizeof *sent->l2_queues), 0);
        free(a);
        free(b);
        results_unpacked_free(got);
    }
    cr_expect_eq(at, bytes.size, "every byte read");
    cr_assert(hierarchy_results(hs[3])->ccn && hierarchy_results(hs[4])->lcm &&
              hierarchy_results(hs[ENTRIES - 1])->timed, "the optional parts were exercised");
    pack_bytes_free(&bytes);
    for (int i = 0; i < ENTRIES; i++)
        hierarchy_free(hs[i]);
    wst_memtrace_free(m);
}

/* Every cut of the bytes is refused with a message; so is a count that
 * disagrees with its struct. */
Test(results_pack, short_or_inconsistent_bytes_are_refused)
{
    wst_memtrace *m = test_random_trace(5, 2, 200);
    hierarchy *hs[ENTRIES];
    replay_entries(m, hs);
    results_bytes bytes = {0};
    ws_error err;
    cr_assert_eq(results_pack(hierarchy_results(hs[3]), &bytes, &err), 0); /* with a ring */
    for (size_t cut = 0; cut < bytes.size; cut += 1 + cut / 64) {
        size_t at = 0;
        err.msg[0] = '\0';
        cr_expect_null(results_unpack(bytes.data, cut, &at, &err), "cut at %zu", cut);
        cr_expect_neq(err.msg[0], '\0');
    }
    /* The kernel count in the struct says one more than its array holds. */
    replay_results *r = (replay_results *)bytes.data;
    r->kernel_count++;
    size_t at = 0;
    cr_expect_null(results_unpack(bytes.data, bytes.size, &at, &err));
    pack_bytes_free(&bytes);
    for (int i = 0; i < ENTRIES; i++)
        hierarchy_free(hs[i]);
    wst_memtrace_free(m);
}
