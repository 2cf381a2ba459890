/* bench/bench_memory_shapes.c: peak memory against the shape of a trace
 * (README "Limits"; docs/analysis.md, Sharing): memory must follow live
 * state, not the trace's length.  Three hostile shapes, each at three
 * sizes, written with the trace writer and run through build/rel/warpscope
 * (peak RSS of the child from wait4):
 *   - records in one CTA: analyze and export hold the CTA packed;
 *   - every CTA reads the same 4,096 lines: sharing keeps runs of CTA ids;
 *   - empty kernels: analyze keeps no kernel after reporting it; what
 *     grows is the trace's kernel table (docs/analysis.md, Memory). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "formats/wst.h"

#define WARPSCOPE "build/rel/warpscope"

typedef enum shape { ONE_CTA, SHARED_LINES, EMPTY_KERNELS } shape;

static void fail(const char *what, const ws_error *err)
{
    fprintf(stderr, "bench_memory_shapes: %s: %s\n", what, err->msg);
    exit(1);
}

/* n records (kernels, for EMPTY_KERNELS) of the shape into path. */
static void write_shape(const char *path, shape s, uint64_t n)
{
    ws_error err;
    wst_origin origin = {.collector = "bench"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    if (!w)
        fail(path, &err);
    wst_pc pc = {.offset = 0x10, .sass = "LDG.E"};
    wst_kernel k = {.name = "k", .grid = {1u << 20, 1, 1}, .block = {256, 1, 1}, .pcs = &pc,
                    .pc_count = 1};
    uint64_t kernels = s == EMPTY_KERNELS ? n : 1, records = s == EMPTY_KERNELS ? 1 : n;
    for (uint64_t i = 0; i < kernels; i++)
        if (wst_writer_add_kernel(w, &k, &err) < 0)
            fail(path, &err);
    wst_record r = {.size = 4, .mask = 0xffffffffu};
    for (uint64_t i = 0; i < records; i++) {
        uint64_t line = s == SHARED_LINES ? i % 4096 : 0;
        r.cta = s == SHARED_LINES ? (uint32_t)(i / 4096) : 0;
        r.warp = (uint32_t)(i % 8);
        for (int l = 0; l < WST_WARP_SIZE; l++)
            r.addr[l] = 0x100000 + 128 * line + 4 * (uint64_t)l;
        if (wst_writer_add_record(w, 0, &r, &err) != 0)
            fail(path, &err);
        if (s == SHARED_LINES && i % 4096 == 4095 && wst_writer_end_cta(w, 0, r.cta, &err) != 0)
            fail(path, &err);
    }
    if (wst_writer_close(w, &err) != 0)
        fail(path, &err);
}

/* Runs warpscope with args; its peak RSS in MiB and wall seconds. */
static void run(const char *const *args, double *mib, double *seconds)
{
    struct timespec t0, t1;
    fflush(stdout); /* or the child would write our buffered table again */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        const char *argv[8] = {WARPSCOPE};
        for (int i = 0; args[i] && i < 6; i++)
            argv[i + 1] = args[i];
        freopen("/dev/null", "w", stdout);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_memory_shapes: warpscope %s failed\n", args[0]);
        exit(1);
    }
    *mib = ru.ru_maxrss / 1024.0;
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
}

int main(void)
{
    static const struct {
        shape s;
        const char *what, *unit;
        uint64_t n[3];
    } cases[] = {
        {ONE_CTA, "records in one CTA", "records", {1000000, 4000000, 16000000}},
        {SHARED_LINES, "every CTA reads the same 4,096 lines", "records", {1000000, 4000000, 16000000}},
        {EMPTY_KERNELS, "empty kernels (one record in the first)", "kernels", {1000, 4000, 16000}},
    };
    char path[256], out[256];
    snprintf(path, sizeof path, "/tmp/bench-shapes-%d.wst", (int)getpid());
    snprintf(out, sizeof out, "/tmp/bench-shapes-%d", (int)getpid());
    printf("## Peak memory against the trace's shape (`bench_memory_shapes`)\n\n");
    printf("Peak RSS of `warpscope analyze T` (and `export accelsim` for one CTA) on traces\n"
           "written to a shape; memory should follow live state, not the count.  One CTA's\n"
           "records are live state (the scheduler holds a resident CTA whole), capped by\n"
           "WARPSCOPE_CTA_LIMIT; lines read by every CTA are one run of CTA ids each.\n\n");
    printf("| shape | count | analyze (MiB) | analyze (s) | export (MiB) |\n");
    printf("|---|---:|---:|---:|---:|\n");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int i = 0; i < 3; i++) {
            write_shape(path, cases[c].s, cases[c].n[i]);
            double mib, s, export_mib = 0, unused;
            run((const char *const[]){"analyze", path, "--quiet", NULL}, &mib, &s);
            if (cases[c].s == ONE_CTA) {
                run((const char *const[]){"export", "accelsim", path, "-o", out, NULL}, &export_mib,
                    &unused);
                char rm[300];
                snprintf(rm, sizeof rm, "rm -rf '%s'", out);
                if (system(rm) != 0)
                    return 1;
            }
            printf("| %s | %" PRIu64 " %s | %.0f | %.1f | ", cases[c].what, cases[c].n[i],
                   cases[c].unit, mib, s);
            if (export_mib > 0)
                printf("%.0f |\n", export_mib);
            else
                printf("|\n");
            fflush(stdout);
        }
    unlink(path);
    return 0;
}
