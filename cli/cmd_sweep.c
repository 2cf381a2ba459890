/* cli/cmd_sweep.c: `warpscope sweep`: S3 ch. 5's (N, p) grid from one
 * decode, with Poise's prediction beside the grid's best points. */
#include <stdio.h>
#include <stdlib.h>

#include "analyzer/sweep.h"
#include "cli/cli.h"
#include "cli/default_gpu.h"
#include "cli/trace_filter.h"
#include "cli/replay_args.h"
#include "cli/sweep_out.h"
#include "cli/sweep_ranks.h"
#include "util/ranks.h"

static const char usage[] =
    "usage: warpscope sweep FILE.wst [--gpu NAME] [--n-max N] [-o sweep.json]\n"
    "                       [--csv DIR] [--html FILE] [options]\n\n"
    "Replays every warp tuple (N, p), 1 <= p <= N <= N_MAX, of S3 chapter 5: only\n"
    "the N oldest warps of each scheduler issue, only the p oldest of them may\n"
    "allocate in L1 (the others may hit).  One decode of the trace feeds the\n"
    "whole grid (one issue stream per N).  Prints the best points by L1 hit\n"
    "rate and by L1->L2 traffic, and Poise's prediction: S3 Table 5.3's\n"
    "features measured at (N_MAX, N_MAX) and (1, 1), its regression, and its\n"
    "local search (docs/replay.md).\n\n"
    "  --n-max N             the grid's largest N (default: warps per scheduler,\n"
    "                        24 on the poise preset)\n"
    "  --poise-stride N,P    Poise's search strides (default 2,4, S3's best)\n"
    REPLAY_ARGS_USAGE
    "  -o FILE               the grid and the prediction as JSON (docs/report-schema.md)\n"
    "  --csv DIR             DIR/sweep.csv, one row per (N, p)\n"
    "  --html FILE           the grid as heatmaps, one self-contained page\n\n"
    "example:\n"
    "  warpscope sweep syr2k.wst --gpu poise -o sweep.json --html sweep.html\n";

static int run(int argc, char **argv)
{
    static const char *const extra[] = {"--n-max", "--poise-stride", "--html", NULL};
    replay_args a;
    int status = replay_args_parse("sweep", argc, argv, extra, &a);
    if (status != 0)
        return status;
    if (a.replay.schedule.warp != &warp_order_gto)
        return cli_error("--schedule", "sweep sets the warp order itself (each point's tuple, "
                                       "GTO among the N); give the CTA dispatch only, e.g. rr");
    uint32_t n_max = a.n_max ? a.n_max : sweep_default_n_max(&a.config);
    /* On R ranks each replays its share of the grid, whole issue streams,
     * and rank 0 merges the points' counters (docs/analysis.md "Ranks"). */
    ranks_own_share();
    sweep_result grid = {0};
    wst_reader *r;
    ws_error err;
    if (!(r = cli_open_trace(a.trace, &err))) {
        status = cli_fail(a.trace, &err);
    } else {
        replay_args_prepare_reader(&a, r);
        const wst_trace *t = wst_reader_trace(r);
        uint64_t records = 0;
        for (uint32_t k = 0; k < t->kernel_count; k++)
            records += t->kernels[k].record_count;
        sched_source source = sched_source_wst(r);
        progress *bar = progress_new("sweep", records, a.quiet || ranks_rank() != 0);
        if (sweep_run_share(&source, &a.config, &a.replay, &a.hierarchy, n_max, ranks_rank(),
                            ranks_size(), bar, &grid, &err) != 0)
            status = cli_fail(a.trace, &err);
        progress_free(bar);
    }
    status = ranks_share_end(status); /* a failing rank's line, once */
    status = sweep_gather(&grid, status);
    if (status == 0 && ranks_rank() == 0) {
        sweep_result_complete(&grid, wst_reader_trace(r));
        sweep_summary summary = sweep_summarize(&grid, &a);
        status = sweep_write(&grid, &summary, &a);
        if (status == 0)
            sweep_print(stdout, &grid, &summary);
    }
    sweep_result_free(&grid);
    if (r)
        wst_reader_close(r);
    if (status == 0 && ranks_rank() == 0)
        cli_paper_preset_note(&a.config, a.quiet); /* after the run: errors stay one line */
    return status;
}

const cli_command cmd_sweep = {"sweep", "replay S3's whole (N, p) warp-tuple grid, with Poise's "
                                        "prediction", usage, run};
