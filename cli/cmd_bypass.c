/* cli/cmd_bypass.c: `warpscope bypass`: L1 bypass hints per line and per
 * load PC, verified by replay (docs/metrics.md §9, S1). */
#include <stdio.h>

#include "analyzer/bypass_advisor.h"
#include "cli/cli.h"
#include "cli/default_gpu.h"
#include "cli/trace_filter.h"
#include "cli/replay_args.h"
#include "reports/bypass_out.h"
#include "reports/json_out.h"
#include "util/outfile.h"

static const char usage[] =
    "usage: warpscope bypass FILE.wst [--gpu NAME] [--csv DIR] [--json hints.json]\n"
    "                        [options]\n\n"
    "Profiles the trace for L1 bypass: a baseline replay gives each line's\n"
    "utilization U and reuse times R (S1 Eq. 1: bypass when U x (1 + R) < 1); each\n"
    "load PC gets the share of its requests that are bypass-worthy and a verdict\n"
    "from replaying the trace with that PC bypassed (bypass it when L1->L2 plus\n"
    "DRAM bytes go down).  Prints the changes to make, ranked by the bytes below\n"
    "L1 each saves and grouped by source line: load with __ldcg, coalesce\n"
    "accesses (uncoalesced loads), schedule CTAs that share data on one SM (S0's\n"
    "dispatch, replayed); then the traffic and L1 miss rate before and after, with\n"
    "the table (bypass-table) and with the recommended PCs (bypass-pc).\n\n"
    REPLAY_ARGS_USAGE
    "  --trials N            replay at most N PCs one by one (default 24)\n"
    "  --u sector|raw        Eq. 1's U: bytes of the 32 B sectors touched (default,\n"
    "                        docs/metrics.md §9) or the bytes lanes asked for (S1's own)\n"
    "  --csv DIR             hints as CSV: DIR/hints_pcs.csv (one row per load PC)\n"
    "                        DIR/hints_lines.csv (one row per line) and\n"
    "                        DIR/advice.csv (the ranked changes)\n"
    "  --json FILE           hints as JSON\n\n"
    "example:\n"
    "  warpscope bypass gaussian.wst --gpu fermi --csv hints\n";

static int run(int argc, char **argv)
{
    static const char *const extra[] = {"--json", "--trials", "--u", NULL};
    replay_args a;
    int status = replay_args_parse("bypass", argc, argv, extra, &a);
    if (status != 0)
        return status;
    /* -o once wrote a single CSV of PC rows then line rows; say where the
     * two tables went rather than write something else to that name. */
    if (a.json)
        return cli_error(NULL, "bypass: -o is gone: --csv DIR writes DIR/hints_pcs.csv and "
                               "DIR/hints_lines.csv, --json FILE the JSON");
    ws_error err;
    wst_reader *r = cli_open_trace(a.trace, &err);
    if (!r)
        return cli_fail(a.trace, &err);
    replay_args_prepare_reader(&a, r);
    sched_source src = sched_source_wst(r);
    bypass_advice *advice =
        bypass_advise(&src, &a.replay, &a.hierarchy, a.trials ? a.trials : 24,
                      a.utilization, a.quiet, &err);
    if (!advice) {
        wst_reader_close(r);
        return cli_fail(a.trace, &err);
    }
    const wst_trace *t = wst_reader_trace(r);
    if (a.json_extra) {
        json_t *doc = bypass_json(advice, t, 10000);
        if (report_json_write(a.json_extra, doc, &err) != 0)
            status = cli_fail(a.json_extra, &err);
        json_decref(doc);
    }
    if (status == 0 && a.csv &&
        (ws_make_dir(a.csv, &err) != 0 ||
         bypass_write_tables(a.csv, advice, t, a.hierarchy.config.l1.line_bytes, &err) != 0))
        status = cli_fail(NULL, &err);
    if (status == 0)
        bypass_print_summary(stdout, advice, t);
    bypass_advice_free(advice);
    wst_reader_close(r);
    if (status == 0)
        cli_paper_preset_note(&a.config, a.quiet); /* after the run: errors stay one line */
    return status;
}

const cli_command cmd_bypass = {"bypass", "L1 bypass hints per load PC and line, verified by replay",
                                usage, run};
