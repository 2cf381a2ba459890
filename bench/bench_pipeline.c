/* bench/bench_pipeline.c: the emulated collector and the analysis pass.
 * Prints a Markdown section:
 *   - emulator throughput (warp records/s) and trace bytes per record for the
 *     large sizes of gemm, bfs and spmv;
 *   - `analyze` throughput (warp records/s and line requests/s) on the large
 *     sizes of gemm and bfs and the medium size of spmv (ten line requests
 *     per record: its large trace takes minutes);
 *   - analyze peak memory for two trace lengths over the same data (a kernel
 *     that sweeps one array R times), which must not grow with R.
 * Each analysis runs in a child process so its peak RSS is its own.
 *
 *   build/rel/bench/bench_pipeline [--size small|medium|large] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "analyzer/analysis.h"
#include "bench/bench_traces.h"
#include "collectors/workloads/workloads.h"
#include "formats/wst.h"


static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t trace_records(const char *path, uint64_t *bytes)
{
    ws_error err;
    wst_reader *r = wst_reader_open(path, &err);
    if (!r) {
        fprintf(stderr, "bench_pipeline: %s: %s\n", path, err.msg);
        exit(1);
    }
    uint64_t n = 0;
    for (uint32_t k = 0; k < wst_reader_trace(r)->kernel_count; k++)
        n += wst_reader_trace(r)->kernels[k].record_count;
    *bytes = wst_reader_file_bytes(r);
    wst_reader_close(r);
    return n;
}

/* What the analyzing child reports back through its pipe. */
typedef struct child_result {
    uint64_t line_requests; /* counted (global loads) */
    analysis_cpu parts;     /* CPU seconds of each of the pass's threads */
} child_result;

/* Analyzes path in a child; returns seconds, the child's peak RSS, its CPU
 * seconds over all threads and what the child reported. */
static double analyze_child(const char *path, long *peak_kb, double *cpu_seconds,
                            child_result *result)
{
    int fds[2];
    if (pipe(fds) != 0)
        exit(1);
    double start = now();
    pid_t pid = fork();
    if (pid == 0) {
        ws_error err;
        gpu_config config;
        analysis_options options;
        analysis_options_default(&options);
        options.measure_cpu = 1;
        config_load(&config, "fermi", &err);
        wst_reader *r = wst_reader_open(path, &err);
        analysis *a = r ? analysis_run(r, &config, &options, NULL, &err) : NULL;
        if (!a)
            fprintf(stderr, "bench_pipeline: %s\n", err.msg);
        child_result out = {.line_requests = a ? metrics_summary(a->metrics)->counts.requests : 0};
        if (a)
            out.parts = a->cpu;
        ssize_t ignored = write(fds[1], &out, sizeof out);
        (void)ignored;
        _exit(a ? 0 : 1);
    }
    close(fds[1]);
    if (read(fds[0], result, sizeof *result) != sizeof *result)
        memset(result, 0, sizeof *result);
    close(fds[0]);
    int status;
    struct rusage usage;
    wait4(pid, &status, 0, &usage);
    double seconds = now() - start;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_pipeline: analyzing %s failed\n", path);
        exit(1);
    }
    *peak_kb = usage.ru_maxrss;
    if (cpu_seconds)
        *cpu_seconds = (double)usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
                       (double)usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    return seconds;
}

/* Each of the pass's threads in CPU us per record, and the two bounds they
 * set: all work spread perfectly over this machine's cores, and the slowest
 * thread alone on a core of its own (any number of cores). */
static void print_cpu_parts(const char *const *names, const char *const *sizes,
                            const uint64_t *records, const child_result *results)
{
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("\nWhere the work goes: each part runs on a thread of its own; CPU us per record "
           "(thread CPU clocks).  The bounds: M records/s if every part's work were spread "
           "perfectly over this machine's %ld cores, and if each part had a core of its own "
           "(the slowest part then sets the pace, however many cores).\n\n"
           "| workload | size | schedule + coalesce | metrics + 4 reuse streams | "
           "2 sector reuse streams | sharing + locality | L1/L2 replay | bound, %ld cores | "
           "bound, one core per part |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n",
           cores, cores);
    for (int i = 0; i < 3; i++) {
        const analysis_cpu *c = &results[i].parts;
        double parts[] = {c->schedule, c->metrics, c->sector_reuse, c->sharing, c->replay};
        double total = 0, slowest = 0;
        printf("| %s | %s |", names[i], sizes[i]);
        for (size_t p = 0; p < sizeof parts / sizeof *parts; p++) {
            printf(" %.3f |", parts[p] / (double)records[i] * 1e6);
            total += parts[p];
            slowest = parts[p] > slowest ? parts[p] : slowest;
        }
        printf(" %.2f | %.2f |\n", (double)records[i] * (double)cores / total / 1e6,
               (double)records[i] / slowest / 1e6);
    }
}

/* One sweep of an array by 120 CTAs, launched R times: the trace grows with
 * R while the lines, CTAs and per-kernel state stay the same. */
typedef struct sweep_args {
    float *data;
    unsigned n;
} sweep_args;

static void sweep(emu_thread *t)
{
    const sweep_args *a = t->args;
    unsigned i = (t->blockIdx.x % 120) * t->blockDim.x + t->threadIdx.x;
    float sum = 0;
    for (unsigned j = i; j < a->n; j += 120 * t->blockDim.x)
        sum += EMU_LD(t, float, &a->data[j]);
    (void)sum;
}

static void write_sweep(const char *path, unsigned rounds)
{
    ws_error err;
    wst_writer *w = wst_writer_open(path, NULL, NULL, &err);
    wst_sink sink = wst_writer_sink(w);
    emu *e = emu_new(&sink, 1ull << 30, &err);
    sweep_args a = {emu_malloc(e, (4u << 20) * 4), 4u << 20};
    emu_launch l = {.name = "sweep", .grid = {120, 1, 1}, .block = {256, 1, 1}, .kernel = sweep,
                    .args = &a};
    for (unsigned r = 0; r < rounds; r++)
        if (emu_launch_kernel(e, &l, &err) != 0) {
            fprintf(stderr, "bench_pipeline: %s\n", err.msg);
            exit(1);
        }
    if (wst_writer_close(w, &err) != 0) {
        fprintf(stderr, "bench_pipeline: %s\n", err.msg);
        exit(1);
    }
    emu_free(e);
}

int main(int argc, char **argv)
{
    workload_size record_size = SIZE_LARGE;
    if (argc == 3 && strcmp(argv[1], "--size") == 0)
        record_size = (workload_size)workload_size_parse(argv[2]);
    const char *names[] = {"gemm", "bfs", "spmv"};
    char path[256];
    printf("## Emulated collector and analysis pass (`bench/bench_pipeline.c`)\n\n");
    printf("Recording (one core) writes the .wst trace; analysis is `analyze` on the fermi "
           "preset with the default schedule (rr,gto): scheduler and coalescer on one thread, "
           "and on worker threads U, reuse distance and time in 3 scopes x 2 granularities, "
           "locality, sharing, the access map, and the replay of the config's L1/L2 (all "
           "cores: %ld).  Target: 5 M warp records/s.\n\n",
           sysconf(_SC_NPROCESSORS_ONLN));
    printf("| workload | size | warp records | record (M records/s) | bytes/record |\n|---|---|---|---|---|\n");
    for (int i = 0; i < 3; i++) {
        double start = now();
        bench_trace_record(names[i], record_size, path, sizeof path);
        double seconds = now() - start;
        uint64_t bytes, records = trace_records(path, &bytes);
        printf("| %s | %s | %llu | %.2f | %.2f |\n", names[i], workload_size_name(record_size),
               (unsigned long long)records, records / seconds / 1e6, (double)bytes / records);
        fflush(stdout);
    }
    printf("\n| workload | size | warp records | line requests | analyze s | M records/s | "
           "M line requests/s | CPU s (all threads) | CPU us/record | peak RSS (MiB) |\n"
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    child_result results[3];
    uint64_t analyzed_records[3];
    const char *analyzed_sizes[3];
    for (int i = 0; i < 3; i++) {
        /* spmv's large trace has ten line requests per record: minutes. */
        workload_size size = i == 2 && record_size == SIZE_LARGE ? SIZE_MEDIUM : record_size;
        bench_trace(names[i], size, path, sizeof path);
        uint64_t bytes, records = trace_records(path, &bytes);
        long peak;
        double cpu;
        double seconds = analyze_child(path, &peak, &cpu, &results[i]);
        uint64_t requests = results[i].line_requests;
        analyzed_records[i] = records;
        analyzed_sizes[i] = workload_size_name(size);
        printf("| %s | %s | %llu | %llu | %.1f | %.2f | %.2f | %.1f | %.2f | %.0f |\n", names[i],
               workload_size_name(size), (unsigned long long)records,
               (unsigned long long)requests, seconds, records / seconds / 1e6,
               requests / seconds / 1e6, cpu, cpu / (double)records * 1e6, peak / 1024.0);
        fflush(stdout);
    }
    printf("\nCPU us/record is the work per record over all threads: at C us, 5 M records/s "
           "takes 5 x C cores even with the work perfectly balanced over them.\n");
    print_cpu_parts(names, analyzed_sizes, analyzed_records, results);
    printf("\nMemory against trace length: one kernel reading the same 16 MiB array R times "
           "launched R times (same lines and CTAs, R times the records).\n\n| R | warp records | analyze peak RSS (MiB) |\n|---|---|---|\n");
    for (unsigned rounds = 1; rounds <= 4; rounds *= 4) {
        snprintf(path, sizeof path, "/tmp/bench-pipeline-sweep-%d.wst", (int)getpid());
        write_sweep(path, rounds);
        uint64_t bytes, records = trace_records(path, &bytes);
        long peak;
        child_result ignored;
        analyze_child(path, &peak, NULL, &ignored);
        printf("| %u | %llu | %.0f |\n", rounds, (unsigned long long)records, peak / 1024.0);
        unlink(path);
    }
    return 0;
}
