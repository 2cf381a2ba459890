/* cli/replay_args.h: the options every replaying command shares (replay,
 * compare, bypass, profile): the GPU config and its overrides, the
 * schedule, and the replay switches. */
#ifndef WS_REPLAY_ARGS_H
#define WS_REPLAY_ARGS_H

#include <jansson.h>

#include "analyzer/bypass_table.h"
#include "analyzer/hierarchy.h"
#include "analyzer/replay.h"
#include "cli/default_gpu.h"

typedef struct replay_args {
    const char *trace, *json, *csv, *policies, *html;
    const char *source_dir; /* profile --source-dir: the HTML source view's files */
    const char *json_extra; /* bypass --json */
    const char *timeline;   /* --timeline FILE: the timed replay's Chrome trace */
    uint32_t trials;        /* bypass --trials */
    bypass_u_kind utilization; /* bypass --u */
    const char *workload;   /* profile --workload: record instead of reading */
    const char *manage;     /* --manage: a management system (analyzer/systems.h) */
    int size;               /* profile --size */
    uint32_t n_max;         /* sweep --n-max (0: the config's warps per scheduler) */
    uint32_t stride_n, stride_p; /* sweep --poise-stride */
    int strides_set;
    int quiet;
    int ignore_cache_ops;   /* --cache-op ignore */
    gpu_config config;
    replay_options replay;
    hierarchy_options hierarchy; /* config filled in by replay_args_finish */
} replay_args;

/* Parses argv (argv[0] is the command).  `extra` lists the command's own
 * valued options beyond the shared ones (e.g. "--policies"), NULL-ended;
 * their values land in the matching field.  0, or an exit status after a
 * one-line complaint. */
int replay_args_parse(const char *command, int argc, char **argv, const char *const *extra,
                      replay_args *a);

/* Adds a replaying command's document head to doc: schema, version,
 * warpscope_version, trace, gpu and schedule (docs/report-schema.md). */
void replay_args_document(json_t *doc, const replay_args *a, const char *schema);

/* Applies the options that change how the trace reads (--cache-op) to a
 * reader the command opened. */
void replay_args_prepare_reader(const replay_args *a, wst_reader *r);

/* The most events a --timeline file holds (about 120 MB): past it the
 * instructions are left out, the kernels and CTAs kept. */
#define TIMELINE_MAX_EVENTS 1000000

/* The shared part of the usage text. */
#define REPLAY_ARGS_USAGE                                                                  \
    CLI_GPU_USAGE                                                                          \
    "  --l1-policy P, --l2-policy P\n"                                                      \
    "                        replacement policy per level (`warpscope policies`)\n"         \
    "  --sms N, --l1 SIZE:WAYS:LINE[:SECTOR], --l2 ...   override the geometry\n"           \
    "  --set FIELD=VALUE     any field of the config, e.g. --set max_warps_per_sm=64\n"    \
    "  --schedule S          CTA dispatch rr|qN|qx|qx_adpt|bcs and warp order\n"            \
    "                        lrr|gto|ccws|lws|swl:N|pcal:N,p|tuple:N,p, e.g. rr,gto\n"     \
    "                        (default); ccws, lws and the tuples steer by the cache:\n"  \
    "                        their issue order is their own;\n"                          \
    "                        or recorded\n"                                               \
    "  --half-warp           coalesce each half-warp separately\n"                          \
    "  --cache-op honour|ignore\n"                                                            \
    "                        ignore: replay ld.cg/ld.cv loads (which bypass L1) as\n"     \
    "                        cached, a what-if (default honour)\n"                        \
    "  --manage SYSTEM       a cache-management system: sharing-aware (S0), or one\n"      \
    "                        of its switches sa-fill, sa-local; ccn, the cooperative\n"    \
    "                        L1 ring of S3 with its throttler, or ccn-b without;\n"       \
    "                        lcm, S2's locality-based management, or its halves\n"       \
    "                        lcm-bypass (streaming PCs bypass L1) and lcm-coalesce\n"    \
    "                        (inter-warp coalescing); joined with +, e.g.\n"             \
    "                        sharing-aware+ccn\n"                                        \
    "  --ccn-sample N, --ccn-epoch N\n"                                                    \
    "                        the throttler's sampling interval and epoch, in steps\n"     \
    "                        of the SM's issue clock (default 1000, 10000)\n"             \
    "  --ccn-min-hit-rate R  ring off for the epoch below this hit rate (0.05)\n"          \
    "  --ccn-promote         a remote hit promotes the line (default: shadow tags)\n"      \
    "  --ccn-hop-cycles C    cycles a ring hop, with --timed (default 4)\n"        \
    "  --lcm-monitor M       whose observations LCM acts on: all-warps (default) or\n"   \
    "                        one-warp, S2's single monitored warp (slot 0)\n"            \
    "  --lcm-threshold T     an observation closes at T accesses (default 8)\n"          \
    "  --lcm-window W        a coalescing tag lives W requests (default 32)\n"           \
    "  --seed N              seed of the randomized policies (default 1)\n"                 \
    "  --l2-cold             flush L2 between kernels (default: kept warm)\n"               \
    "  --timed               the timed replay: a clock, latencies, queues and MSHRs,\n"  \
    "                        each policy driving its own issue order (cycles, IPC,\n"  \
    "                        stalls: the model's figures, docs/replay.md);\n"           \
    "                        --reserved-lines is another name for it\n"               \
    "  --timeline FILE       with --timed: a per-SM timeline (Chrome trace JSON, opens\n" \
    "                        in Perfetto or chrome://tracing)\n"                         \
    "  --threads N           worker threads (default: one per core)\n"                      \
    "  --quiet               no progress bar\n"

#endif
