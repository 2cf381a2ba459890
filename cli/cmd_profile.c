/* cli/cmd_profile.c: `warpscope profile`: the main job in one go.  Record
 * (or read) a trace, analyze it (with the replay of the config's policies),
 * derive bypass hints, compare a default policy set, and write one report
 * directory.  Each step is the library call its own command makes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyzer/analysis.h"
#include "analyzer/bypass_advisor.h"
#include "cli/cli.h"
#include "cli/default_gpu.h"
#include "cli/trace_filter.h"
#include "cli/compare_out.h"
#include "cli/replay_args.h"
#include "cli/replay_run.h"
#include "collectors/workloads/workloads.h"
#include "reports/advice_out.h"
#include "reports/term.h"
#include "reports/bypass_out.h"
#include "reports/ccn_csv.h"
#include "reports/analysis_out.h"
#include "reports/html.h"
#include "reports/json_out.h"
#include "reports/replay_text.h"
#include "reports/report_json.h"
#include "reports/text.h"
#include "util/outfile.h"
#include "util/outset.h"

#define PROFILE_POLICIES "lru,fifo,random,dip,srrip,drrip,opt"

static const char usage[] =
    "usage: warpscope profile (--workload NAME [--size S] | FILE.wst) [--gpu NAME]\n"
    "                         [-o DIR] [--csv DIR] [--policies LIST] [options]\n\n"
    "The main job in one go: records the workload in the emulator (or reads\n"
    "FILE.wst), analyzes it, replays it, derives L1 bypass hints, compares the\n"
    "policies, and writes DIR (default warpscope-report):\n"
    "  report.json   the analysis report with replay, bypass and compare sections\n"
    "  report.html   the same, as one self-contained page of charts\n"
    "  pcs.csv, reuse.csv, sharing_*.csv  the tables of `analyze --csv`\n"
    "  hints_pcs.csv, hints_lines.csv     bypass hints per load PC and per line\n"
    "  advice.csv    the changes to make, ranked by the bytes below L1 each saves\n"
    "  compare.csv   one row per policy\n"
    "  ccn*.csv      the CCN ring's tables, when a policy has one\n"
    "  trace.wst     the recorded trace (with --workload)\n"
    "The tables are documented in docs/report-schema.md.\n\n"
    REPLAY_ARGS_USAGE
    "  --csv DIR             the CSV tables go to this directory instead\n"
    "  --policies LIST       compared policies (default " PROFILE_POLICIES ")\n"
    "  --trials N            PCs replayed one by one for the hints (default 24)\n"
    "  --u sector|raw        U of the hints' Eq. 1 (default sector, docs/metrics.md §9)\n"
    "  --source-dir DIR      where the HTML's source view looks for the trace's\n"
    "                        source files first (then where the trace's paths say)\n\n"
    "examples:\n"
    "  warpscope profile --workload gaussian -o gaussian-report\n"
    "  warpscope profile app.wst --gpu volta -o app-report\n";

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* What profile writes: into DIR, and the tables into the --csv directory
 * when there is one. */
static const char *const outputs[] = {"trace.wst",      CSV_TABLE_FILES, BYPASS_PCS_CSV,
                                      BYPASS_LINES_CSV, ADVICE_CSV,      "compare.csv",
                                      CCN_CSV_FILES,    "report.json",   "report.html"};

/* After a failure in a directory this run created: nothing is left behind. */
static void remove_outputs(const char *dir)
{
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++) {
        char *path = join(dir, outputs[i]);
        if (path)
            unlink(path);
        free(path);
    }
    rmdir(dir); /* fails, harmlessly, if anything else is in it */
}

/* Steps 2-4 on an open trace; fills doc and its kernel entries, and writes
 * the tables into dir. */
static int profile_trace(replay_args *a, wst_reader *r, const char *dir, const compare_set *set,
                         json_t **doc_out, kernel_spool **kernels_out)
{
    ws_error err;
    replay_args_prepare_reader(a, r);
    const wst_trace *t = wst_reader_trace(r);
    uint64_t records = 0;
    for (uint32_t k = 0; k < t->kernel_count; k++)
        records += t->kernels[k].record_count;

    analysis_options ao;
    analysis_options_default(&ao);
    ao.schedule = a->replay.schedule;
    ao.half_warp = a->replay.half_warp;
    ao.replay_seed = a->hierarchy.seed;
    analysis_out out;
    if (analysis_out_open(&out, r, SPOOL_BOTH, dir, &err) != 0)
        return cli_fail(NULL, &err);
    analysis_out_attach(&out, &ao);
    progress *bar = progress_new("analyze", records, a->quiet);
    analysis *an = analysis_run(r, &a->config, &ao, bar, &err);
    progress_free(bar);
    progress_next_phase();
    if (!an) {
        analysis_out_close(&out);
        return cli_fail(a->trace, &err);
    }
    json_t *doc = report_analysis_json(an, r, a->trace);
    *doc_out = doc;
    *kernels_out = out.kernels;
    out.kernels = NULL;
    if (analysis_out_commit_csv(&out, an, &err) != 0) {
        analysis_out_close(&out);
        analysis_free(an);
        return cli_fail(NULL, &err);
    }
    report_text_summary(stdout, an, &out.groups);
    analysis_out_close(&out);
    if (an->replay)
        replay_text_summary(stdout, hierarchy_results(an->replay));
    analysis_free(an);

    sched_source src = sched_source_wst(r);
    bypass_advice *advice =
        bypass_advise(&src, &a->replay, &a->hierarchy, a->trials ? a->trials : 24,
                      a->utilization, a->quiet, &err);
    if (!advice)
        return cli_fail(a->trace, &err);
    json_object_set_new(doc, "bypass", bypass_json(advice, t, 1000));
    int status = bypass_annotate_kernels(kernels_out, advice, t, &err) != 0 ||
                         bypass_write_tables(dir, advice, t, a->hierarchy.config.l1.line_bytes, &err) != 0
                     ? cli_fail(NULL, &err)
                     : 0;
    printf("\n");
    bypass_print_summary(stdout, advice, t);
    bypass_advice_free(advice);
    if (status != 0)
        return status;
    progress_next_phase();

    hierarchy *hs[COMPARE_MAX] = {0};
    if ((status = cli_replay_reader(a, r, set->options, set->count, hs)) != 0)
        return status;
    json_object_set_new(doc, "compare", compare_json(set, hs));
    char *csv = join(dir, "compare.csv");
    if (compare_write_csv(set, hs, csv, &err) != 0 ||
        compare_write_ccn_csv(set, hs, t, dir, &err) != 0)
        status = cli_fail(NULL, &err);
    printf(a->hierarchy.timed ? "\npolicy comparison (L1 policy; timed: each drives its own issue "
                               "order):\n"
                             : "\npolicy comparison (L1 policy; same issue order for all):\n");
    compare_print(stdout, set, hs);
    for (uint32_t i = 0; i < set->count; i++)
        hierarchy_free(hs[i]);
    free(csv);
    return status;
}

static int run(int argc, char **argv)
{
    static const char *const extra[] = {"--workload", "--size", "--policies", "--trials", "--u",
                                        "--source-dir", NULL};
    replay_args a;
    int status = replay_args_parse("profile", argc, argv, extra, &a);
    if (status != 0)
        return status;
    const char *dir = a.json ? a.json : "warpscope-report";
    const char *tables = a.csv ? a.csv : dir;
    ws_error err;
    /* Every input is checked before DIR is made: a typo costs no directory
     * and no wait for the analysis. */
    if (a.workload && !workload_lookup(a.workload, &err))
        return cli_fail(NULL, &err);
    compare_set set;
    if (compare_set_parse(&set, a.policies ? a.policies : PROFILE_POLICIES, &a.hierarchy, &err) != 0)
        return cli_fail("--policies", &err);
    wst_reader *r = NULL;
    if (!a.workload && !(r = cli_open_trace(a.trace, &err)))
        return cli_fail(a.trace, &err);
    struct stat before;
    int created = stat(dir, &before) != 0, tables_created = stat(tables, &before) != 0;
    if (ws_make_dir(dir, &err) != 0 || ws_make_dir(tables, &err) != 0) {
        wst_reader_close(r);
        if (created)
            remove_outputs(dir);
        return cli_fail(NULL, &err);
    }
    char *trace_path = NULL;
    /* record (with --workload), analyze, bypass hints, policies */
    progress_plan(a.workload ? 4 : 3);
    if (a.workload) {
        trace_path = join(dir, "trace.wst");
        progress *bar = progress_new_counting("record", "records", a.quiet);
        int recorded = record_workload(a.workload, (workload_size)a.size, 1, 0, trace_path, bar, &err);
        progress_free(bar);
        if (recorded != 0)
            status = cli_fail(a.workload, &err);
        else if (!(r = cli_open_trace(ws_outset_path(trace_path), &err))) /* not yet published */
            status = cli_fail(trace_path, &err);
        a.trace = trace_path;
        progress_next_phase();
    }
    json_t *doc = NULL;
    kernel_spool *kernels = NULL;
    if (status == 0)
        status = profile_trace(&a, r, tables, &set, &doc, &kernels);
    progress_plan(0);
    char *json_path = join(dir, "report.json"), *html_path = join(dir, "report.html");
    if (status == 0 && report_json_write_spooled(json_path, doc, kernels, &err) != 0)
        status = cli_fail(json_path, &err);
    if (status == 0 && html_report_write_with(doc, kernels, html_path,
                                                  &(html_options){.source_dir = a.source_dir},
                                                  &err) != 0)
        status = cli_fail(html_path, &err);
    if (status == 0)
        term_printf(stdout, 2,
                    "\nreport: %s (open in a browser); data: %s and the tables in %s/ "
                    "(docs/report-schema.md)",
                    html_path, json_path, tables);
    json_decref(doc);
    kernel_spool_free(kernels);
    if (r)
        wst_reader_close(r);
    if (status != 0 && tables_created)
        remove_outputs(tables);
    if (status != 0 && created)
        remove_outputs(dir);
    free(json_path);
    free(html_path);
    free(trace_path);
    if (status == 0)
        cli_paper_preset_note(&a.config, a.quiet); /* after the run: errors stay one line */
    return status;
}

const cli_command cmd_profile = {"profile", "the main job: record or read, analyze, hints, compare, report",
                                 usage, run};
