/* cli/replay_run.c: see replay_run.h. */
#include "cli/replay_run.h"

#include <stdlib.h>
#include <string.h>

#include "analyzer/bypass_advisor.h"
#include "cli/cli.h"
#include "cli/trace_filter.h"
#include "reports/timeline_json.h"

/* Whether an entry runs an admission module that has no parameter yet:
 * `bypass-table` or `bypass-pc` named in --policies without a table. */
static int needs_advice(const hierarchy_options *o)
{
    return o->l1_spec.admission && o->l1_spec.admission->needs_param && !o->l1_param;
}

int cli_replay_reader(const replay_args *a, wst_reader *r, const hierarchy_options *options,
                      uint32_t count, hierarchy **out)
{
    ws_error err;
    const wst_trace *t = wst_reader_trace(r);
    uint64_t records = 0;
    for (uint32_t k = 0; k < t->kernel_count; k++)
        records += t->kernels[k].record_count;
    sched_source source = sched_source_wst(r);
    /* Tables the policies need are profiled in this run, on the baseline
     * the command was given, as `warpscope bypass` would (docs/metrics.md §9). */
    hierarchy_options *given = malloc(count * sizeof *given);
    bypass_advice *advice = NULL;
    int rc = given ? 0 : ws_fail(&err, "out of memory");
    for (uint32_t i = 0; rc == 0 && i < count; i++) {
        given[i] = options[i];
        if (!needs_advice(&given[i]))
            continue;
        if (!advice && !(advice = bypass_advise(&source, &a->replay, &a->hierarchy, a->trials ? a->trials : 24,
                                                a->utilization, a->quiet, &err)))
            rc = -1;
        else
            given[i].l1_param = strcmp(given[i].l1_spec.admission->name, "bypass-pc") == 0
                                    ? (const void *)&advice->recommended_pcs
                                    : (const void *)advice->table;
    }
    /* --timeline: the first hierarchy's clock, written as the run goes. */
    replay_options run = a->replay;
    timeline_writer *timeline = NULL;
    if (rc == 0 && a->timeline) {
        if (!(timeline = timeline_open(a->timeline, t, a->config.sms, TIMELINE_MAX_EVENTS, &err)))
            return free(given), bypass_advice_free(advice), cli_fail(a->timeline, &err);
        run.timeline = timeline_observer(timeline);
    }
    progress *bar = rc == 0 ? progress_new("replay", records, a->quiet) : NULL;
    if (rc == 0)
        rc = replay_run(&source, &a->config, &run, given, count, out, bar, &err);
    progress_free(bar);
    if (timeline && rc != 0)
        timeline_abort(timeline);
    else if (timeline && timeline_close(timeline, &err) != 0) {
        for (uint32_t i = 0; i < count; i++)
            hierarchy_free(out[i]), out[i] = NULL;
        bypass_advice_free(advice);
        free(given);
        return cli_fail(a->timeline, &err);
    }
    bypass_advice_free(advice);
    free(given);
    return rc == 0 ? 0 : cli_fail(a->trace, &err);
}

int cli_replay(const replay_args *a, const hierarchy_options *options, uint32_t count,
               hierarchy **out, wst_reader **reader)
{
    ws_error err;
    wst_reader *r = cli_open_trace(a->trace, &err);
    if (!r)
        return cli_fail(a->trace, &err);
    replay_args_prepare_reader(a, r);
    int status = cli_replay_reader(a, r, options, count, out);
    if (status != 0) {
        wst_reader_close(r);
        return status;
    }
    *reader = r;
    return 0;
}
