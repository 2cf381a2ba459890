/* cli/cmd_compare.c: `warpscope compare`: one decode of the trace feeds
 * one hierarchy per policy, side by side (docs/metrics.md §7; DESIGN "decodes once"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/default_gpu.h"
#include "cli/compare_out.h"
#include "cli/compare_ranks.h"
#include "cli/replay_args.h"
#include "cli/replay_run.h"
#include "reports/replay_text.h"
#include "util/ranks.h"

static const char usage[] =
    "usage: warpscope compare FILE.wst [--gpu NAME] --policies P1,P2,...\n"
    "                         [-o compare.json] [--csv DIR] [options]\n\n"
    "Replays the trace once through one hierarchy per policy and prints hit\n"
    "rates, MPLI and L2 / DRAM traffic side by side, relative to the first.\n"
    "A policy P applies at L1 (L2 keeps the config's); L1P/L2P sets both,\n"
    "e.g. lru/lru,opt/opt.  Every hierarchy sees the same issue order, unless\n"
    "an entry names a warp order of its own, P@ORDER (e.g. lru@lrr): then\n"
    "each order gets its own issue stream, still from one decode of the trace.\n"
    "P+SYSTEM adds a management system to the entry, e.g. srrip+ccn (the CCN\n"
    "ring of S3 over the L1s) or sharing-aware+ccn.\n\n"
    "  --policies LIST       default lru,fifo,random,dip,srrip,drrip,opt\n"
    REPLAY_ARGS_USAGE
    "  -o FILE               the comparison as JSON (docs/report-schema.md)\n"
    "  --csv DIR             DIR/compare.csv, one row per policy; with a CCN ring\n"
    "                        also its tables, DIR/ccn*.csv\n\n"
    "example:\n"
    "  warpscope compare gaussian.wst --gpu fermi --policies lru,srrip,drrip,dip,opt\n";

#define DEFAULT_POLICIES "lru,fifo,random,dip,srrip,drrip,opt"

static int run(int argc, char **argv)
{
    static const char *const extra[] = {"--policies", NULL};
    replay_args a;
    int status = replay_args_parse("compare", argc, argv, extra, &a);
    if (status != 0)
        return status;
    compare_set set;
    ws_error err;
    if (compare_set_parse(&set, a.policies ? a.policies : DEFAULT_POLICIES, &a.hierarchy, &err) != 0)
        return cli_fail("--policies", &err);
    compare_set_collect(&set, a.json || a.csv);
    /* The timeline is the first entry's clock over every pass its set
     * needs (OPT's recording pass too): only the whole set on one rank
     * writes it as one process does. */
    if (a.timeline && ranks_run_alone("compare", "--timeline records every pass of the whole set"))
        return 0;
    /* On R ranks entry i replays on rank i mod R; rank 0 writes every
     * output from the gathered results (docs/analysis.md "Ranks"). */
    uint32_t mine = 0, me = ranks_rank();
    hierarchy_options *options = calloc(set.count, sizeof *options);
    hierarchy **hs = calloc(set.count, sizeof *hs);
    if (!hs || !options) {
        free(hs), free(options);
        return cli_error(NULL, "out of memory");
    }
    for (uint32_t i = 0; i < set.count; i++)
        if (compare_entry_rank(i) == me)
            options[mine++] = set.options[i];
    if (me != 0) {
        a.timeline = NULL; /* the first entry's, on rank 0 */
        a.quiet = 1;
    }
    wst_reader *r = NULL;
    ranks_own_share();
    if (mine)
        status = cli_replay(&a, options, mine, hs, &r);
    status = ranks_share_end(status); /* a failing rank's line, once */
    const replay_results *rs[COMPARE_MAX];
    replay_results **unpacked = NULL;
    status = compare_gather(&set, hs, status, rs, &unpacked);
    if (status == 0 && me == 0) {
        status = compare_write_results(&set, rs, &a, wst_reader_trace(r));
        if (status == 0)
            compare_print_results(stdout, &set, rs);
    }
    compare_unpacked_free(unpacked, set.count);
    for (uint32_t i = 0; i < mine; i++)
        hierarchy_free(hs[i]);
    free(hs);
    free(options);
    if (r)
        wst_reader_close(r);
    if (status == 0)
        cli_paper_preset_note(&a.config, a.quiet); /* after the run: errors stay one line */
    return status;
}

const cli_command cmd_compare = {"compare", "replay one trace under several policies side by side",
                                 usage, run};
