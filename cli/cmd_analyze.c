/* cli/cmd_analyze.c: `warpscope analyze`: the single-pass analysis. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analysis.h"
#include "cli/analyze_ranks.h"
#include "cli/cli.h"
#include "cli/trace_filter.h"
#include "cli/default_gpu.h"
#include "reports/analysis_out.h"
#include "reports/html.h"
#include "reports/json_out.h"
#include "reports/replay_text.h"
#include "reports/report_json.h"
#include "reports/text.h"
#include "reports/term.h"
#include "util/ranks.h"

static const char usage[] =
    "usage: warpscope analyze FILE.wst [--gpu NAME|FILE.json] [--schedule CTA,WARP]\n"
    "                         [-o report.json] [--csv DIR] [--html FILE] [options]\n\n"
    "One streaming pass: rebuilds the issue order (scheduler model), coalesces\n"
    "each warp instruction, and computes load utilization U, reuse distance and\n"
    "reuse time (global, per-SM, per-warp; line and sector), miss-ratio curves,\n"
    "locality classes per PC, and inter-SM / inter-CTA sharing.  Prints a\n"
    "summary; -o writes the full JSON report (docs/report-schema.md), --csv\n"
    "writes its tables into DIR (pcs.csv, reuse.csv, sharing_sharer_counts.csv,\n"
    "sharing_sm_pairs.csv, sharing_cta_distances.csv; docs/report-schema.md),\n"
    "--html the self-contained HTML report (docs/html-report.md; also\n"
    "'warpscope report').\n\n"
    CLI_GPU_USAGE
    "  --sms N, --l1 SIZE:WAYS:LINE[:SECTOR], --l2 ..., --l1-policy P, --l2-policy P\n"
    "                        override the config, e.g. --l1 32K:8:128\n"
    "  --set FIELD=VALUE     any field of the config, e.g. --set max_warps_per_sm=64\n"
    "                        or --set l1.index=fermi-hash (repeatable)\n"
    "  --schedule S          CTA dispatch rr|qN|qx|qx_adpt|bcs and warp order\n"
    "                        lrr|gto|swl:N|pcal:N,p, e.g. rr,gto (default);\n"
    "                        or recorded\n"
    "  --include-stores      count stores and atomics too (default: global loads)\n"
    "  --half-warp           coalesce each half-warp separately\n"
    "  --l2-cold             the L2 starts cold at each kernel: the replay flushes it\n"
    "                        and global reuse restarts (default: kept warm); under\n"
    "                        mpirun -n R the kernels then split over the ranks\n"
    "  --cache-op honour|ignore\n"
    "                        ignore: ld.cg/ld.cv loads, which bypass L1, count as\n"
    "                        cached (a what-if; default honour)\n"
    "  --sample R            SHARDS sampling of reuse distance at rate R (0 < R <= 1);\n"
    "                        miss ratios below 1/R lines are then unresolved\n"
    "  --sharing-block B     sharing per block of B bytes: a power of two from 4 (words)\n"
    "                        to 4096 (pages); default the L1 line (docs/metrics.md §5)\n"
    "  --locality-window N   locality classes from a fully-associative LRU of N lines\n"
    "                        per SM instead of the L1 (cache-independent, docs/metrics.md §4)\n"
    "  --threads N           worker threads for the pass's consumers (default one\n"
    "                        each, 4); 1 runs the whole pass on one thread\n"
    "  --source-dir DIR      where the HTML's source view looks for the trace's\n"
    "                        source files first (then where the trace's paths say)\n"
    "  --quiet               no progress bar\n\n"
    "example:\n"
    "  warpscope analyze gaussian.wst --gpu fermi -o report.json --csv tables\n"
    "  warpscope analyze gaussian.wst --html report.html\n";

typedef struct analyze_args {
    const char *trace, *json, *csv, *html, *source_dir;
    int quiet;
    int ignore_cache_ops; /* --cache-op ignore */
} analyze_args;

static int parse_with(int argc, char **argv, analyze_args *a, gpu_config *config,
                      analysis_options *options, const char *gpu)
{
    ws_error err;
    /* The config comes first so overrides apply to the chosen preset. */
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--gpu") == 0)
            gpu = argv[i + 1];
    if (config_load(config, gpu, &err) != 0)
        return cli_fail(NULL, &err);
    analysis_options_default(options);
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(opt, "--include-stores") == 0) {
            options->include_stores = 1;
        } else if (strcmp(opt, "--half-warp") == 0) {
            options->half_warp = 1;
        } else if (strcmp(opt, "--l2-cold") == 0) {
            options->l2_cold = 1;
        } else if (strcmp(opt, "--quiet") == 0) {
            a->quiet = 1;
        } else if (opt[0] != '-') {
            if (a->trace)
                return cli_error(NULL, "analyze takes one trace file");
            a->trace = opt;
        } else {
            if (!value || strchr(opt, '='))
                return cli_option_problem("analyze", opt);
            i++;
            int rc = config_override(config, opt, value, &err);
            if (rc < 0)
                return cli_fail(NULL, &err);
            if (rc == 0 || strcmp(opt, "--gpu") == 0)
                continue;
            if (strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0) {
                a->json = value;
            } else if (strcmp(opt, "--csv") == 0) {
                a->csv = value;
            } else if (strcmp(opt, "--html") == 0) {
                a->html = value;
            } else if (strcmp(opt, "--source-dir") == 0) {
                a->source_dir = value;
            } else if (strcmp(opt, "--cache-op") == 0) {
                if (cli_parse_cache_op(value, &a->ignore_cache_ops) != 0)
                    return 1;
            } else if (strcmp(opt, "--schedule") == 0) {
                if (sched_options_parse(value, &options->schedule, &err) != 0)
                    return cli_fail(NULL, &err);
            } else if (strcmp(opt, "--locality-window") == 0) {
                unsigned long long lines;
                if (cli_parse_in_range(opt, value, 1, 65536, &lines) != 0)
                    return 1;
                options->locality_window = (uint32_t)lines;
            } else if (strcmp(opt, "--sharing-block") == 0) {
                unsigned long long bytes;
                if (cli_parse_in_range(opt, value, 4, 4096, &bytes) != 0)
                    return 1;
                if (bytes & (bytes - 1))
                    return cli_error(NULL, "--sharing-block: a power of two, not %llu", bytes);
                options->sharing_block = (uint32_t)bytes;
            } else if (strcmp(opt, "--threads") == 0) {
                unsigned long long n;
                if (cli_parse_in_range(opt, value, 1, 256, &n) != 0)
                    return 1;
                options->threads = (uint32_t)n;
            } else if (strcmp(opt, "--sample") == 0) {
                char *end;
                options->sample_rate = strtod(value, &end);
                if (*end || !(options->sample_rate > 0 && options->sample_rate <= 1))
                    return cli_error(NULL, "--sample: expected a rate in (0, 1], got '%s'", value);
                if (options->sample_rate < 0x1p-24) /* SHARDS hashes keys to 24 bits */
                    return cli_error(NULL, "--sample: the smallest rate is 2^-24 (5.96e-08), got '%s'",
                                     value);
            } else {
                return cli_error(NULL, "analyze: unknown option '%s'; see 'warpscope analyze --help'",
                                 opt);
            }
        }
    }
    return a->trace ? 0 : cli_error(NULL, "analyze needs a trace file; see 'warpscope analyze --help'");
}

static int parse(int argc, char **argv, analyze_args *a, gpu_config *config, analysis_options *options)
{
    const char *preset = CONFIG_DEFAULT_PRESET;
    int rc = parse_with(argc, argv, a, config, options, preset);
    if (rc == 0 && !cli_has_option(argc, argv, "--gpu") &&
        strcmp(preset = cli_default_gpu(a->trace, CONFIG_DEFAULT_PRESET, a->quiet),
               CONFIG_DEFAULT_PRESET) != 0)
        rc = parse_with(argc, argv, a, config, options, preset);
    return rc;
}

/* On R ranks (split), rank 0 ends the share here: the job's status. */
static int end_split(int split, analyze_ranks *ranks, int status)
{
    return split ? analyze_ranks_end(ranks, status) : status;
}

static int run(int argc, char **argv)
{
    analyze_args args;
    gpu_config config;
    analysis_options options;
    int status = parse(argc, argv, &args, &config, &options);
    if (status != 0)
        return status;
    if (ranks_size() > 1 && !options.l2_cold && ranks_run_alone("analyze", ANALYZE_WARM_REASON))
        return 0;
    if (ranks_rank() != 0) /* --l2-cold: this rank's block of kernels (cli/analyze_ranks.h) */
        return analyze_ranks_send(args.trace, args.ignore_cache_ops, &config, options);
    int split = ranks_size() > 1;
    if (split)
        ranks_own_share();
    ws_error err;
    wst_reader *r = cli_open_trace(args.trace, &err);
    if (!r)
        return end_split(split, NULL, cli_fail(args.trace, &err));
    if (args.ignore_cache_ops)
        wst_reader_ignore_cache_ops(r);
    uint64_t records = 0;
    for (uint32_t k = 0; k < wst_reader_trace(r)->kernel_count; k++)
        records += wst_reader_trace(r)->kernels[k].record_count;
    analysis_out out;
    unsigned spool = (args.json ? SPOOL_PRINTED : 0) | (args.html ? SPOOL_ENTRIES : 0);
    analyze_ranks *ranks = NULL;
    if (analysis_out_open(&out, r, spool, args.csv, &err) != 0 ||
        (split && !(ranks = analyze_ranks_receive(wst_reader_trace(r), &options, &err)))) {
        analysis_out_close(&out);
        wst_reader_close(r);
        return end_split(split, NULL, cli_fail(NULL, &err));
    }
    analysis_out_attach(&out, &options);
    progress *bar = progress_new("analyze", records, args.quiet);
    analysis *a = analysis_run(r, &config, &options, bar, &err);
    progress_free(bar);
    status = a ? 0 : analyze_ranks_peer_failed(ranks) ? 1 : cli_fail(args.trace, &err);
    status = end_split(split, ranks, status); /* every rank's status: no output if one failed */
    if (status != 0) {
        analysis_free(a);
        analysis_out_close(&out);
        wst_reader_close(r);
        return status;
    }
    if (args.json || args.html) {
        json_t *doc = report_analysis_json(a, r, args.trace);
        if (args.json && report_json_write_spooled(args.json, doc, out.kernels, &err) != 0)
            status = cli_fail(args.json, &err);
        if (status == 0 && args.html && html_report_write_with(doc, out.kernels, args.html,
                                                          &(html_options){.source_dir = args.source_dir},
                                                          &err) != 0)
            status = cli_fail(args.html, &err);
        json_decref(doc);
    }
    if (status == 0 && analysis_out_commit_csv(&out, a, &err) != 0)
        status = cli_fail(NULL, &err);
    if (status == 0) {
        report_text_summary(stdout, a, &out.groups);
        if (a->replay)
            replay_text_summary(stdout, hierarchy_results(a->replay));
        else
            term_printf(stdout, 2,
                        "replay: skipped: L1 %s / L2 %s need a backward pass or a "
                        "profile; use `warpscope replay` or `warpscope bypass`",
                        config.l1.policy, config.l2.policy);
    }
    analysis_out_close(&out);
    analysis_free(a);
    wst_reader_close(r);
    if (status == 0)
        cli_paper_preset_note(&config, args.quiet); /* after the run: errors stay one line */
    return status;
}

const cli_command cmd_analyze = {"analyze", "locality, reuse, utilization and sharing in one pass",
                                 usage, run};
