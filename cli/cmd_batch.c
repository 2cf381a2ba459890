/* cli/cmd_batch.c: `warpscope batch`: a grid of traces, GPU presets,
 * overrides, systems, warp orders and policies run as one job, on one
 * process or many MPI ranks, into one table (docs/batch.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/config.h"
#include "cli/batch_grid.h"
#include "cli/batch_store.h"
#include "cli/batch_table.h"
#include "cli/cli.h"
#include "cli/compare_out.h"
#include "cli/replay_run.h"
#include "util/progress.h"
#include "util/ranks.h"

static const char usage[] =
    "usage: warpscope batch GRID.json -o DIR [--threads N] [--quiet]\n\n"
    "Runs every point of a grid (docs/batch.md): each trace x GPU preset x\n"
    "--set overrides x system x warp order x policy is one run, replayed as\n"
    "`compare` would replay that entry; runs of one trace, preset and\n"
    "overrides share one decode.  Writes DIR/batch.csv and DIR/batch.json,\n"
    "one row per run with the columns of compare.csv after the run's keys.\n"
    "Each finished run is kept in DIR/runs/: run again after a crash and the\n"
    "finished runs are not replayed.  Under `mpirun -n R` the runs are shared\n"
    "over the ranks; rank 0 writes the table.\n\n"
    "  -o DIR                the output directory (required)\n"
    "  --threads N           worker threads per rank (default: one per core)\n"
    "  --quiet               no progress bar\n\n"
    "example:\n"
    "  mpirun -n 4 warpscope batch grid.json -o grid-out\n";

typedef struct batch_args {
    const char *grid, *dir, *threads;
    int quiet;
} batch_args;

static int parse(int argc, char **argv, batch_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        if (strcmp(opt, "--quiet") == 0) {
            a->quiet = 1;
        } else if (strcmp(opt, "-o") == 0 || strcmp(opt, "--threads") == 0) {
            if (i + 1 >= argc)
                return cli_option_problem("batch", opt);
            *(opt[1] == 'o' ? &a->dir : &a->threads) = argv[++i];
        } else if (opt[0] == '-') {
            return cli_option_problem("batch", opt);
        } else if (a->grid) {
            return cli_error(NULL, "batch takes one grid file");
        } else {
            a->grid = opt;
        }
    }
    if (!a->grid)
        return cli_error(NULL, "batch: give a grid file (docs/batch.md)");
    if (!a->dir)
        return cli_error(NULL, "batch: give the output directory, -o DIR");
    return 0;
}

/* Every preset and override list of the grid, tried before any run, so a
 * mistake there names the grid, not a run.  0, or -1 with err set. */
static int check_configs(const batch_grid *g, ws_error *err)
{
    for (uint32_t p = 0; p < g->gpu_count; p++)
        for (uint32_t s = 0; s < g->set_count; s++) {
            gpu_config c;
            char sets[1024];
            if (config_load(&c, g->gpus[p][0] ? g->gpus[p] : "fermi", err) != 0)
                return ws_fail_prefix(err, "'gpus'[%u]: ", p);
            snprintf(sets, sizeof sets, "%s", g->sets[s]);
            for (char *v = strtok(sets, " "); v; v = strtok(NULL, " "))
                if (config_override(&c, "--set", v, err) != 0)
                    return ws_fail_prefix(err, "'sets'[%u]: ", s);
            if (config_validate(&c, err) != 0)
                return ws_fail_prefix(err, "'gpus'[%u] with 'sets'[%u]: ", p, s);
        }
    /* Every entry a run makes (policy, system, warp order), parsed as
     * compare --policies would, on the fermi preset. */
    hierarchy_options base = {.seed = 1};
    if (config_load(&base.config, "fermi", err) != 0)
        return -1;
    base.ccn = ccn_options_default();
    base.lcm = lcm_options_default();
    compare_set set;
    for (uint32_t p = 0; p < g->policy_count; p++)
        for (uint32_t y = 0; y < g->system_count; y++)
            for (uint32_t o = 0; o < g->order_count; o++) {
                char entry[256];
                if ((batch_grid_entry(g, p, y, o, entry, sizeof entry) != 0 &&
                     ws_fail(err, "the entry is longer than 51 characters")) ||
                    compare_set_parse(&set, entry, &base, err) != 0)
                    return ws_fail_prefix(err, "'policies'[%u], 'systems'[%u], 'warp_orders'[%u]: ",
                                          p, y, o);
            }
    return 0;
}

/* Replays runs[0..n), which share a trace, preset and overrides, as one
 * comparison of their entries, and stores each run's row. */
static int replay_group(const batch_args *b, const batch_grid *g, const batch_run *runs, uint32_t n)
{
    const batch_run *first = &runs[0];
    char *argv[64 + 256];
    int argc = 0;
    char list[COMPARE_MAX * 53] = "", sets[1024];
    argv[argc++] = "compare";
    argv[argc++] = (char *)g->traces[first->trace];
    if (g->gpus[first->gpu][0])
        argv[argc++] = "--gpu", argv[argc++] = (char *)g->gpus[first->gpu];
    snprintf(sets, sizeof sets, "%s", g->sets[first->set]);
    for (char *s = strtok(sets, " "); s && argc < 60; s = strtok(NULL, " "))
        argv[argc++] = "--set", argv[argc++] = s;
    for (uint32_t i = 0; i < g->arg_count && argc < 64 + 250; i++)
        argv[argc++] = (char *)g->args[i];
    if (b->threads)
        argv[argc++] = "--threads", argv[argc++] = (char *)b->threads;
    argv[argc++] = "--quiet";
    argv[argc] = NULL;
    for (uint32_t i = 0; i < n; i++)
        strcat(strcat(list, i ? "," : ""), runs[i].entry);
    static const char *const extra[] = {"--policies", NULL};
    replay_args a;
    int status = replay_args_parse("compare", argc, argv, extra, &a);
    if (status != 0)
        return status;
    compare_set set;
    ws_error err;
    if (compare_set_parse(&set, list, &a.hierarchy, &err) != 0)
        return cli_fail(g->traces[first->trace], &err);
    hierarchy *hs[COMPARE_MAX] = {0};
    wst_reader *r = NULL;
    status = cli_replay(&a, set.options, set.count, hs, &r);
    for (uint32_t i = 0; status == 0 && i < n; i++)
        if (batch_store_write(b->dir, g, &runs[i], hierarchy_results(hs[i]), &err) != 0)
            status = cli_fail(NULL, &err);
    for (uint32_t i = 0; i < set.count; i++)
        hierarchy_free(hs[i]);
    if (r)
        wst_reader_close(r);
    return status;
}

/* Finished runs among pending[0..n): what rank 0's bar shows. */
static uint64_t count_done(const char *dir, const batch_run *runs, const uint32_t *pending, uint32_t n)
{
    uint64_t done = 0;
    for (uint32_t i = 0; i < n; i++)
        done += (uint64_t)batch_store_done(dir, &runs[pending[i]]);
    return done;
}

/* This rank's share of the pending runs, pending[j] for j = rank mod R,
 * in groups that replay together. */
static int run_share(const batch_args *b, const batch_grid *g, const batch_run *runs,
                     const uint32_t *pending, uint32_t pending_count)
{
    uint32_t me = ranks_rank(), ranks = ranks_size();
    batch_run group[COMPARE_MAX];
    uint32_t n = 0;
    progress *bar = me == 0 ? progress_new("batch", pending_count, b->quiet) : NULL;
    int status = 0;
    for (uint32_t j = me; status == 0; j += ranks) {
        const batch_run *run = j < pending_count ? &runs[pending[j]] : NULL;
        if (n && (!run || n == COMPARE_MAX || !batch_same_replay(&group[0], run))) {
            status = replay_group(b, g, group, n);
            n = 0;
            if (bar)
                progress_update(bar, count_done(b->dir, runs, pending, pending_count));
        }
        if (!run)
            break;
        group[n++] = *run;
    }
    progress_free(bar);
    return status;
}

static int run(int argc, char **argv)
{
    batch_args b;
    int status = parse(argc, argv, &b);
    if (status != 0)
        return status;
    batch_grid g;
    ws_error err;
    batch_run *runs = NULL;
    uint32_t count = 0, *pending = NULL, pending_count = 0;
    if (batch_grid_load(b.grid, &g, &err) != 0 || check_configs(&g, &err) != 0 ||
        !(runs = batch_grid_runs(&g, &count, &err))) {
        batch_grid_free(&g);
        return cli_fail(b.grid, &err);
    }
    /* Rank 0 makes the directories; every rank then lists the runs not
     * yet finished before any rank stores one, so all agree on the shares. */
    if (ranks_rank() == 0 && batch_store_prepare(b.dir, &err) != 0)
        status = cli_fail(NULL, &err);
    if ((status = ranks_max_status(status)) == 0) {
        if (!(pending = malloc((count ? count : 1) * sizeof *pending)))
            status = cli_error(NULL, "out of memory");
        for (uint32_t i = 0; pending && i < count; i++)
            if (!batch_store_done(b.dir, &runs[i]))
                pending[pending_count++] = i;
        status = ranks_max_status(status);
    }
    if (status == 0) {
        if (ranks_rank() == 0 && pending_count < count && !b.quiet)
            fprintf(stderr, "warpscope: batch: %u of %u runs already finished in %s/runs\n",
                    count - pending_count, count, b.dir);
        ranks_own_share();
        status = ranks_share_end(run_share(&b, &g, runs, pending, pending_count));
        /* A failed run has said which rank and input; rank 0 then writes
         * no table (the finished runs stay for a resume). */
        if (status == 0 && ranks_rank() == 0)
            status = batch_table_write(b.dir, b.grid, &g, runs, count);
    }
    free(pending);
    free(runs);
    batch_grid_free(&g);
    return status;
}

const cli_command cmd_batch = {"batch", "run a grid of traces, GPUs, overrides and policies as one "
                                        "job (on any number of MPI ranks)", usage, run};
