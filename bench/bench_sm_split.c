/* bench/bench_sm_split.c: what a split of `analyze` by SM over MPI ranks
 * could gain (docs/analysis.md "Ranks": why the default analyze is not
 * split by SM).  Such a split would repeat the schedule on every rank (the
 * CTA dispatch couples the SMs) and keep the consumers that take every SM's
 * requests on one rank; only the rest spreads.  Shares of analyze's CPU:
 *
 *   repeated      decode, schedule, coalesce and the reference L1 (the
 *                 pass's decoding thread, analysis_cpu.schedule);
 *   global        the global reuse streams (lines and sectors, metrics.md
 *                 §3), sharing (§5) and the access map;
 *   per-SM reuse  the per-SM and per-warp reuse streams;
 *   mixed         the rest of the pass: U, Req and per-line U, locality,
 *                 the L1/L2 replay with its collectors, where per-SM parts
 *                 (the L1s) and global ones (per-line U, the L2, μRC and the
 *                 replication factor) share loops that cannot be timed
 *                 apart.
 *
 * global and per-SM reuse are measured in a second pass that runs only
 * them, each on a thread of its own; mixed is what the whole pass's
 * threads spent beyond the other three.  Prints a Markdown section: the
 * shares, and the speedup and efficiency such a split could reach at 2 and
 * 16 ranks (counting no merge, so upper bounds) with the mixed part on
 * rank 0 (worst) or spread too (best), and the cap of any such split,
 * 1 / (repeated + global).
 *
 *   build/rel/bench/bench_sm_split [--size small|medium|large] [--runs N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/access_map.h"
#include "analyzer/analysis.h"
#include "analyzer/replay.h"
#include "analyzer/sharing.h"
#include "bench/bench_traces.h"

static void die(const char *what, const ws_error *err)
{
    fprintf(stderr, "bench_sm_split: %s: %s\n", what, err->msg);
    exit(1);
}

/* ---- the parts, fed as analyze feeds them (analyzer/analysis.c) ---- */

/* Sharing at the default block (the line) and the access map, over the
 * counted requests (global loads: analyze's default). */
typedef struct global_blocks {
    sharing *sharing;
    access_map *map;
    uint64_t issued;
} global_blocks;

static int blocks_instruction(void *ctx, const replay_issue *is, const ws_request *rq,
                              const replay_ref *refs, int n, ws_error *err)
{
    (void)refs;
    global_blocks *b = ctx;
    b->issued++;
    if (is->space != WST_GLOBAL || is->kind != WST_LOAD)
        return 0;
    for (int i = 0; i < n; i++)
        if (sharing_touch(b->sharing, rq[i].line_addr, is->sm, is->cta, err) != 0 ||
            access_map_touch(b->map, b->issued, rq[i].line_addr, err) != 0)
            return -1;
    return 0;
}

static int blocks_begin(void *ctx, uint32_t k, uint32_t pcs, ws_error *err)
{
    (void)ctx, (void)k, (void)pcs, (void)err;
    return 0;
}

static int blocks_end(void *ctx, ws_error *err)
{
    (void)err;
    sharing_end_kernel(((global_blocks *)ctx)->sharing);
    return 0;
}

/* The metrics options analyze gives its instances (analyzer/analysis.c),
 * reuse streams `mask` only. */
static metrics *reuse_streams(const gpu_config *config, uint32_t mask, ws_error *err)
{
    metrics_options mo = {.coalesce = {.line_bytes = config->l1.line_bytes},
                          .sm_count = config->sms,
                          .warp_slots_per_sm = config->max_warps_per_sm,
                          .exact_distances = 2 * cache_config_lines(&config->l1),
                          .reuse_only = 1,
                          .reuse_mask = mask};
    return metrics_new(&mo, err);
}

/* The parts a split by SM would place apart, each on a thread of its own. */
enum { PART_GLOBAL_REUSE, PART_BLOCKS, PART_SM_REUSE, PARTS };

/* CPU seconds of each part (cpu[PARTS]) in a pass that runs only them. */
static void parts_pass(const char *path, const gpu_config *config, double *cpu)
{
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    if (!r)
        die(path, &err);
    uint32_t global = METRICS_REUSE_BIT(GRAN_LINE, SCOPE_GLOBAL) |
                      METRICS_REUSE_BIT(GRAN_SECTOR, SCOPE_GLOBAL);
    metrics_sink reuse[2] = {
        {.m = reuse_streams(config, global, &err), .line_bytes = config->l1.line_bytes},
        {.m = reuse_streams(config, METRICS_REUSE_ALL & ~global, &err),
         .line_bytes = config->l1.line_bytes}};
    global_blocks blocks = {.sharing = sharing_new(config->sms, config->l1.line_bytes, &err),
                            .map = access_map_new(&err)};
    if (!reuse[0].m || !reuse[1].m || !blocks.sharing || !blocks.map)
        die("the parts", &err);
    replay_consumer consumers[PARTS] = {
        [PART_GLOBAL_REUSE] = metrics_sink_consumer(&reuse[0]),
        [PART_BLOCKS] = {.ctx = &blocks, .kernel_begin = blocks_begin,
                         .instruction = blocks_instruction, .kernel_end = blocks_end},
        [PART_SM_REUSE] = metrics_sink_consumer(&reuse[1])};
    replay_options ro;
    replay_options_default(&ro);
    ro.threads = PARTS;
    ro.consumer_cpu_seconds = cpu;
    sched_source source = sched_source_wst(r);
    if (replay_stream_run(&source, config, &ro, consumers, PARTS, NULL, NULL, &err) != 0)
        die(path, &err);
    sched_source_free(&source);
    metrics_free(reuse[0].m);
    metrics_free(reuse[1].m);
    sharing_free(blocks.sharing);
    access_map_free(blocks.map);
    wst_reader_close(r);
}

/* The whole pass, as `analyze` runs it, each part on a thread of its own. */
static analysis_cpu full_pass(const char *path, const gpu_config *config)
{
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    if (!r)
        die(path, &err);
    analysis_options options;
    analysis_options_default(&options);
    options.measure_cpu = 1;
    analysis *a = analysis_run(r, config, &options, NULL, &err);
    if (!a)
        die(path, &err);
    analysis_cpu cpu = a->cpu;
    analysis_free(a);
    wst_reader_close(r);
    return cpu;
}

/* The split's time on R ranks, one process's CPU = 1: every rank runs the
 * repeated part; rank 0 the global part and as much of the per-SM part as
 * evens the ranks; the per-SM part spread perfectly; no merge counted. */
static double split_time(double repeated, double global, double per_sm, unsigned ranks)
{
    if (global <= per_sm / ranks) /* rank 0 takes a smaller share of SMs: all even */
        return repeated + (global + per_sm) / ranks;
    double rank0 = repeated + global, others = repeated + per_sm / (ranks - 1);
    return rank0 > others ? rank0 : others;
}

static double median(double *v, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j] < v[j - 1]; j--) {
            double t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

enum { MAX_RUNS = 9 };

/* One workload's shares of one process's CPU, medians over the runs. */
typedef struct shares {
    double total; /* CPU seconds of one process, every part */
    double repeated, global, sm_reuse, mixed;
} shares;

static shares measure(const char *path, const gpu_config *config, int runs)
{
    double total[MAX_RUNS], part[4][MAX_RUNS];
    for (int run = 0; run < runs; run++) { /* the two passes interleaved */
        analysis_cpu c = full_pass(path, config);
        double apart[PARTS] = {0};
        parts_pass(path, config, apart);
        total[run] = c.schedule + c.metrics + c.sector_reuse + c.sharing + c.replay;
        part[0][run] = c.schedule / total[run];
        part[1][run] = (apart[PART_GLOBAL_REUSE] + apart[PART_BLOCKS]) / total[run];
        part[2][run] = apart[PART_SM_REUSE] / total[run];
        part[3][run] = 1 - part[0][run] - part[1][run] - part[2][run];
    }
    return (shares){.total = median(total, runs), .repeated = median(part[0], runs),
                    .global = median(part[1], runs), .sm_reuse = median(part[2], runs),
                    .mixed = median(part[3], runs)};
}

int main(int argc, char **argv)
{
    workload_size size = SIZE_MEDIUM;
    int runs = 1;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--size") == 0 && workload_size_parse(argv[i + 1]) >= 0)
            size = (workload_size)workload_size_parse(argv[i + 1]);
        else if (strcmp(argv[i], "--runs") == 0 && atoi(argv[i + 1]) >= 1 && atoi(argv[i + 1]) <= MAX_RUNS)
            runs = atoi(argv[i + 1]);
        else {
            fprintf(stderr, "usage: bench_sm_split [--size small|medium|large] [--runs 1-%d]\n", MAX_RUNS);
            return 2;
        }
    }
    ws_error err;
    gpu_config config;
    if (config_load(&config, "fermi", &err) != 0)
        die("fermi", &err);
    printf("## analyze split by SM: what could spread (`bench/bench_sm_split.c`)\n\n"
           "Shares of one process's `analyze` CPU (fermi, rr,gto, each part on a thread of its "
           "own, median of %d runs): **repeated**, decode, schedule, coalesce and the reference "
           "L1, which every rank of a split by SM repeats (the CTA dispatch couples the SMs); "
           "**global**, the global reuse streams, sharing and the access map, which take every "
           "SM's requests in issue order, on one rank; **per-SM reuse**, the per-SM and per-warp "
           "reuse streams; **mixed**, the rest: U, Req and per-line U, locality, the L1/L2 replay "
           "with its collectors (per-SM L1s, but per-line U, the L2, μRC and replication take "
           "every SM's). Speedups on R ranks, one process's CPU = 1, no merge counted: rank 0 "
           "runs the repeated and global parts and as much else as evens the ranks, the rest "
           "spread perfectly; *best* spreads the mixed part too, *worst* keeps it on rank 0. "
           "Cap: 1 / (repeated + global), whatever R (docs/analysis.md \"Ranks\").\n\n", runs);
    printf("| workload | size | CPU s, one process | repeated %% | global %% | per-SM reuse %% | "
           "mixed %% | speedup, 2 ranks (worst-best) | efficiency, 16 ranks (worst-best) | "
           "cap, any ranks |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    const char *names[] = {"gemm", "bfs", "spmv"};
    for (int w = 0; w < 3; w++) {
        char path[256];
        bench_trace(names[w], size, path, sizeof path);
        shares sh = measure(path, &config, runs);
        double worst_sequential = sh.global + sh.mixed;
        double two[2] = {1 / split_time(sh.repeated, worst_sequential, sh.sm_reuse, 2),
                         1 / split_time(sh.repeated, sh.global, sh.sm_reuse + sh.mixed, 2)};
        double sixteen[2] = {1 / split_time(sh.repeated, worst_sequential, sh.sm_reuse, 16) / 16,
                             1 / split_time(sh.repeated, sh.global, sh.sm_reuse + sh.mixed, 16) / 16};
        printf("| %s | %s | %.2f | %.1f | %.1f | %.1f | %.1f | %.2f-%.2f | %.2f-%.2f | %.2f |\n",
               names[w], workload_size_name(size), sh.total, 100 * sh.repeated, 100 * sh.global,
               100 * sh.sm_reuse, 100 * sh.mixed, two[0], two[1], sixteen[0], sixteen[1],
               1 / (sh.repeated + sh.global));
        fflush(stdout);
    }
    return 0;
}
