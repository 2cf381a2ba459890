/* cli/replay_args.c: see replay_args.h. */
#include "cli/replay_args.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/bypass_advisor.h"
#include "analyzer/systems.h"
#include "cli/cli.h"
#include "cli/trace_filter.h"
#include "cli/default_gpu.h"
#include "collectors/workloads/workloads.h"
#include "reports/json_out.h"
#include "reports/report_doc.h"
#include "util/version.h"

static int valued(const char *opt, const char *const *extra)
{
    for (int i = 0; extra && extra[i]; i++)
        if (strcmp(opt, extra[i]) == 0)
            return i;
    return -1;
}

void replay_args_document(json_t *doc, const replay_args *a, const char *schema)
{
    char schedule[32];
    sched_options_format(&a->replay.schedule, schedule, sizeof schedule);
    json_object_set_new(doc, "schema", json_string(schema));
    json_object_set_new(doc, "version", json_integer(REPORT_VERSION));
    json_object_set_new(doc, "warpscope_version", json_string(WARPSCOPE_VERSION));
    json_t *trace = json_pack("{s:s}", "path", a->trace);
    if (kernel_filter_active(cli_trace_filter())) { /* as report.json says it */
        char what[600];
        kernel_filter_describe(cli_trace_filter(), what, sizeof what);
        json_object_set_new(trace, "kernel_filter", json_string(what));
    }
    json_object_set_new(doc, "trace", trace);
    report_json_set_gpu(doc, &a->config);
    json_object_set_new(doc, "schedule", json_string(schedule));
    json_object_set_new(doc, "cache_ops", json_string(a->ignore_cache_ops ? "ignore" : "honour"));
}

static int parse(const char *command, int argc, char **argv, const char *const *extra,
                 replay_args *a, const char *gpu)
{
    ws_error err;
    memset(a, 0, sizeof *a);
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--gpu") == 0)
            gpu = argv[i + 1];
    if (config_load(&a->config, gpu, &err) != 0)
        return cli_fail(NULL, &err);
    replay_options_default(&a->replay);
    a->hierarchy.seed = 1;
    a->hierarchy.ccn = ccn_options_default(); /* on with --manage ccn or P+ccn */
    a->hierarchy.lcm = lcm_options_default(); /* on with --manage lcm or P+lcm */
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(opt, "--half-warp") == 0) {
            a->replay.half_warp = 1;
        } else if (strcmp(opt, "--quiet") == 0) {
            a->quiet = 1;
        } else if (strcmp(opt, "--l2-cold") == 0) {
            a->hierarchy.l2_cold = 1;
        } else if (strcmp(opt, "--timed") == 0 || strcmp(opt, "--reserved-lines") == 0) {
            a->hierarchy.timed = 1; /* --reserved-lines: the one latency model's old name */
        } else if (strcmp(opt, "--ccn-promote") == 0) {
            a->hierarchy.ccn.promote = 1;
        } else if (opt[0] != '-') {
            if (a->trace)
                return cli_error(NULL, "%s takes one trace file", command);
            a->trace = opt;
        } else {
            if (!value || strchr(opt, '='))
                return cli_option_problem(command, opt);
            i++;
            if ((strcmp(opt, "--l1-policy") == 0 || strcmp(opt, "--l2-policy") == 0) &&
                system_apply(value, &(hierarchy_options){0}, &err) != 0)
                return cli_error(opt, "'%s' is a management system, not a policy: use "
                                      "--manage %s (or %s in compare --policies)",
                                 value, value, value);
            int rc = config_override(&a->config, opt, value, &err);
            if (rc < 0)
                return cli_fail(NULL, &err);
            if (rc == 0 || strcmp(opt, "--gpu") == 0)
                continue;
            unsigned long long n;
            if (strcmp(opt, "-o") == 0 || strcmp(opt, "--output") == 0) {
                a->json = value;
            } else if (strcmp(opt, "--csv") == 0) {
                a->csv = value;
            } else if (strcmp(opt, "--timeline") == 0) {
                a->timeline = value;
            } else if (strcmp(opt, "--html") == 0 && valued(opt, extra) >= 0) {
                a->html = value;
            } else if (strcmp(opt, "--source-dir") == 0 && valued(opt, extra) >= 0) {
                a->source_dir = value;
            } else if (strcmp(opt, "--json") == 0 && valued(opt, extra) >= 0) {
                a->json_extra = value;
            } else if (strcmp(opt, "--trials") == 0 && valued(opt, extra) >= 0) {
                if (cli_parse_in_range(opt, value, 1, BYPASS_MAX_TRIALS, &n) != 0)
                    return 1;
                a->trials = (uint32_t)n;
            } else if (strcmp(opt, "--u") == 0 && valued(opt, extra) >= 0) {
                int kind = bypass_u_parse(value);
                if (kind < 0)
                    return cli_error(NULL, "--u: 'sector' or 'raw', not '%s'", value);
                a->utilization = (bypass_u_kind)kind;
            } else if (strcmp(opt, "--workload") == 0 && valued(opt, extra) >= 0) {
                a->workload = value;
            } else if (strcmp(opt, "--size") == 0 && valued(opt, extra) >= 0) {
                if ((a->size = workload_size_parse(value)) < 0)
                    return cli_error(NULL, "unknown size '%s' (sizes: small, medium, large)", value);
            } else if (strcmp(opt, "--n-max") == 0 && valued(opt, extra) >= 0) {
                if (cli_parse_in_range(opt, value, 1, 128, &n) != 0)
                    return 1;
                a->n_max = (uint32_t)n;
            } else if (strcmp(opt, "--poise-stride") == 0 && valued(opt, extra) >= 0) {
                unsigned sn, sp;
                char tail;
                if (sscanf(value, "%u,%u%c", &sn, &sp, &tail) != 2 || sn > 64 || sp > 64)
                    return cli_error(opt, "expected N,P strides from 0 to 64, not '%s'", value);
                a->stride_n = sn;
                a->stride_p = sp;
                a->strides_set = 1;
            } else if (strcmp(opt, "--policies") == 0 && valued(opt, extra) >= 0) {
                a->policies = value;
            } else if (strcmp(opt, "--manage") == 0) {
                a->manage = value;
            } else if (strcmp(opt, "--cache-op") == 0) {
                if (cli_parse_cache_op(value, &a->ignore_cache_ops) != 0)
                    return 1;
            } else if (strcmp(opt, "--schedule") == 0) {
                if (sched_options_parse(value, &a->replay.schedule, &err) != 0)
                    return cli_fail(NULL, &err);
            } else if (strcmp(opt, "--ccn-sample") == 0) {
                if (cli_parse_in_range(opt, value, 1, UINT32_MAX, &n) != 0)
                    return 1;
                a->hierarchy.ccn.sample_steps = n;
            } else if (strcmp(opt, "--ccn-epoch") == 0) {
                if (cli_parse_in_range(opt, value, 2, UINT32_MAX, &n) != 0)
                    return 1;
                a->hierarchy.ccn.epoch_steps = n;
            } else if (strcmp(opt, "--ccn-hop-cycles") == 0) {
                if (cli_parse_in_range(opt, value, 0, 1000, &n) != 0)
                    return 1;
                a->hierarchy.ccn.hop_cycles = (uint32_t)n;
            } else if (strcmp(opt, "--ccn-min-hit-rate") == 0) {
                char *end;
                double rate = strtod(value, &end);
                if (end == value || *end || !(rate >= 0 && rate <= 1))
                    return cli_error(opt, "expected a hit rate from 0 to 1, not '%s'", value);
                a->hierarchy.ccn.min_hit_rate = rate;
            } else if (strcmp(opt, "--lcm-monitor") == 0) {
                if (strcmp(value, "all-warps") == 0)
                    a->hierarchy.lcm.monitor = LCM_MONITOR_ALL_WARPS;
                else if (strcmp(value, "one-warp") == 0)
                    a->hierarchy.lcm.monitor = LCM_MONITOR_ONE_WARP;
                else
                    return cli_error(opt, "expected all-warps or one-warp, not '%s'", value);
            } else if (strcmp(opt, "--lcm-threshold") == 0) {
                if (cli_parse_in_range(opt, value, 2, 1000000, &n) != 0)
                    return 1;
                a->hierarchy.lcm.threshold = (uint32_t)n;
            } else if (strcmp(opt, "--lcm-window") == 0) {
                if (cli_parse_in_range(opt, value, 1, 1000000, &n) != 0)
                    return 1;
                a->hierarchy.lcm.window = (uint32_t)n;
            } else if (strcmp(opt, "--seed") == 0) {
                if (cli_parse_u64(opt, value, &n) != 0)
                    return 1;
                a->hierarchy.seed = n;
            } else if (strcmp(opt, "--threads") == 0) {
                if (cli_parse_in_range(opt, value, 1, 256, &n) != 0)
                    return 1;
                a->replay.threads = (uint32_t)n;
            } else {
                return cli_error(NULL, "%s: unknown option '%s'; see 'warpscope %s --help'",
                                 command, opt, command);
            }
        }
    }
    if (a->trace && a->workload)
        return cli_error(NULL, "%s: give a trace file or --workload, not both", command);
    if (!a->trace && !a->workload)
        return cli_error(NULL, "%s needs a trace file; see 'warpscope %s --help'", command, command);
    if (a->timeline && !a->hierarchy.timed)
        return cli_error("--timeline", "a timeline is the timed replay's: add --timed");
    if (config_validate(&a->config, &err) != 0)
        return cli_fail(NULL, &err);
    a->hierarchy.config = a->config;
    ccn_options ring = a->hierarchy.ccn;
    ring.throttle = 1; /* check the throttler's options even if ccn-b will not use them */
    if (ccn_options_validate(&ring, &err) != 0)
        return cli_fail(NULL, &err);
    if (a->manage && system_apply_list(a->manage, &a->hierarchy, &err) != 0)
        return cli_fail("--manage", &err);
    return 0;
}

void replay_args_prepare_reader(const replay_args *a, wst_reader *r)
{
    if (a->ignore_cache_ops)
        wst_reader_ignore_cache_ops(r);
}

int replay_args_parse(const char *command, int argc, char **argv, const char *const *extra,
                      replay_args *a)
{
    /* sweep's grid is S3 ch. 5's (Poise): a paper's setup, where its
     * hierarchies fit (hopper's 16 × 17 / 2 of them would not: docs/gpu-configs.md). */
    const char *fallback = strcmp(command, "sweep") == 0 ? "fermi" : CONFIG_DEFAULT_PRESET;
    const char *preset = fallback;
    int rc = parse(command, argc, argv, extra, a, preset);
    if (rc == 0 && !cli_has_option(argc, argv, "--gpu") && a->trace &&
        strcmp(preset = cli_default_gpu(a->trace, fallback, a->quiet), fallback) != 0)
        rc = parse(command, argc, argv, extra, a, preset);
    return rc;
}
