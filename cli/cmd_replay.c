/* cli/cmd_replay.c: `warpscope replay`: one trace through one L1/L2
 * hierarchy (docs/metrics.md §7, §8). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "cli/default_gpu.h"
#include "cli/compare_out.h"
#include "cli/replay_args.h"
#include "cli/replay_run.h"
#include "reports/json_out.h"
#include "reports/replay_json.h"
#include "reports/replay_text.h"
#include "util/outfile.h"
#include "reports/term.h"

static const char usage[] =
    "usage: warpscope replay FILE.wst [--gpu NAME] [--l1-policy P] [--l2-policy P]\n"
    "                        [--schedule CTA,WARP] [-o replay.json] [options]\n\n"
    "Replays the trace through one L1 per SM and a sliced L2 under the chosen\n"
    "policies (default: the config's), and reports hits, misses, MPLI, miss\n"
    "classes, uRC and L1/L2/DRAM traffic, in total, per kernel and per PC.\n\n"
    REPLAY_ARGS_USAGE
    "  -o FILE               the replay as JSON (docs/report-schema.md, REPLAY)\n"
    "  --csv DIR             DIR/replay.csv (compare.csv's columns, one row); with a\n"
    "                        CCN ring also its tables, DIR/ccn*.csv\n\n"
    "example:\n"
    "  warpscope replay gaussian.wst --gpu fermi --l1-policy srrip -o replay.json\n";

/* --csv: the one hierarchy as compare's table, named by its policies. */
static int write_csv(const replay_args *a, hierarchy *h, const wst_trace *t)
{
    ws_error err;
    compare_set *one = calloc(1, sizeof *one);
    if (!one)
        return cli_error(NULL, "out of memory");
    one->count = 1;
    snprintf(one->names[0], sizeof one->names[0], "%s/%s", a->config.l1.policy,
             a->config.l2.policy);
    char path[4096];
    snprintf(path, sizeof path, "%s/replay.csv", a->csv);
    int status = 0;
    if (ws_make_dir(a->csv, &err) != 0 || compare_write_csv(one, &h, path, &err) != 0 ||
        compare_write_ccn_csv(one, &h, t, a->csv, &err) != 0)
        status = cli_fail(NULL, &err);
    free(one);
    return status;
}

static int run(int argc, char **argv)
{
    replay_args a;
    int status = replay_args_parse("replay", argc, argv, NULL, &a);
    if (status != 0)
        return status;
    hierarchy *h = NULL;
    wst_reader *r = NULL;
    if ((status = cli_replay(&a, &a.hierarchy, 1, &h, &r)) != 0)
        return status;
    const replay_results *res = hierarchy_results(h);
    if (a.json) {
        /* Printed only: the timed figures are written as the text is made
         * (without the set, out of memory, they are built as a tree). */
        json_deferred_set *later = json_deferred_new();
        json_t *doc = json_object();
        replay_args_document(doc, &a, "warpscope-replay");
        replay_document_body(doc, res, wst_reader_trace(r), later);
        if (a.replay.schedule.warp->under_study) /* docs/metrics.md §6: a schedule that is the policy */
            json_object_set_new(doc, "own_issue_order", json_true());
        ws_error err;
        if (report_json_write_deferred(a.json, doc, later, &err) != 0)
            status = cli_fail(a.json, &err);
        json_decref(doc);
        json_deferred_free(later);
    }
    if (status == 0 && a.csv)
        status = write_csv(&a, h, wst_reader_trace(r));
    if (status == 0)
        replay_text_summary(stdout, res);
    if (status == 0 && a.replay.schedule.warp->under_study) {
        char schedule[32];
        sched_options_format(&a.replay.schedule, schedule, sizeof schedule);
        term_field(stdout, "issue order",
                   "%s is under study: its issue order is its own, steered "
                   "by the cache, not the baseline's",
                   schedule);
    }
    hierarchy_free(h);
    wst_reader_close(r);
    if (status == 0)
        cli_paper_preset_note(&a.config, a.quiet); /* after the run: errors stay one line */
    return status;
}

const cli_command cmd_replay = {"replay", "replay a trace through L1/L2 under chosen policies",
                                usage, run};
