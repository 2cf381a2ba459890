/* bench/bench_memory_shapes.c: peak memory against the shape of a trace
 * (README "Limits"; docs/analysis.md, Sharing): memory must follow live
 * state, not the trace's length.  Hostile shapes, each at three sizes,
 * written with the trace writer and run through build/rel/warpscope, or
 * the binary named as the first argument (to measure an older build; a
 * second argument keeps the shapes whose name holds it), by peak RSS of the
 * child from wait4:
 *   - records in one CTA: analyze and export hold the CTA packed;
 *   - every CTA reads the same 4,096 lines: sharing keeps runs of CTA ids;
 *   - empty kernels: analyze keeps no kernel after reporting it; what
 *     grows is the trace's kernel table (docs/analysis.md, Memory);
 *   - PCs run once each: `analyze -o` writes a kernel's PC entries one at
 *     a time, and a PC's reuse histograms hold the buckets it filled;
 *   - 120 resident CTAs (fermi: 15 SMs x 8): WARPSCOPE_CTA_LIMIT holds
 *     them together (issue 42), so the largest is refused;
 *   - Accel-Sim launches of one warp and one load each: `import` spools
 *     each launch's metadata as its file ends, and its chunk table and its
 *     input files past the first 1,024 as they come (nothing grows);
 * the size of `analyze -o`'s report, and the peak of `report --html` on
 * it (the report's kernels are read one at a time, and a kernel's PCs:
 * issue 42). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "formats/wst.h"

static const char *warpscope = "build/rel/warpscope";

typedef enum shape {
    ONE_CTA, SHARED_LINES, EMPTY_KERNELS, MANY_PCS, RESIDENT_CTAS, LAUNCHES, SMALL_FRAMES
} shape;

/* SMALL_FRAMES: records a CTA, in CTAs the writer is never told have ended,
 * so that each CTA's chunk is a frame of its own (formats/wst_write.c). */
#define SMALL_FRAME_RECORDS 16u

/* Fermi holds 8 CTAs on each of its 15 SMs. */
#define RESIDENT 120u

static void fail(const char *what, const ws_error *err)
{
    fprintf(stderr, "bench_memory_shapes: %s: %s\n", what, err->msg);
    exit(1);
}

/* n records (kernels, for EMPTY_KERNELS; PCs, for MANY_PCS; records per
 * CTA, for RESIDENT_CTAS; CTAs, for SMALL_FRAMES) of the shape into path. */
static void write_shape(const char *path, shape s, uint64_t n)
{
    ws_error err;
    wst_origin origin = {.collector = "bench"};
    wst_writer *w = wst_writer_open(path, &origin, NULL, &err);
    if (!w)
        fail(path, &err);
    uint32_t pcs = s == MANY_PCS ? (uint32_t)n : 1;
    wst_pc *table = calloc(pcs, sizeof *table);
    for (uint32_t i = 0; i < pcs; i++)
        table[i] = (wst_pc){.offset = 0x10 * (i + 1), .sass = "LDG.E"};
    wst_kernel k = {.name = "k", .grid = {1u << 20, 1, 1}, .block = {256, 1, 1}, .pcs = table,
                    .pc_count = pcs};
    uint64_t kernels = s == EMPTY_KERNELS ? n : 1;
    uint64_t records = s == EMPTY_KERNELS   ? 1
                       : s == RESIDENT_CTAS ? n * RESIDENT
                       : s == SMALL_FRAMES  ? n * SMALL_FRAME_RECORDS
                                            : n;
    uint64_t per_cta = s == SHARED_LINES    ? 4096
                       : s == RESIDENT_CTAS ? n
                       : s == SMALL_FRAMES  ? SMALL_FRAME_RECORDS
                                            : records;
    for (uint64_t i = 0; i < kernels; i++)
        if (wst_writer_add_kernel(w, &k, &err) < 0)
            fail(path, &err);
    free(table);
    wst_record r = {.size = 4, .mask = 0xffffffffu};
    for (uint64_t i = 0; i < records; i++) {
        uint64_t line = s == SHARED_LINES ? i % 4096 : s == MANY_PCS ? i : s == SMALL_FRAMES ? i % 512 : 0;
        r.cta = (uint32_t)(i / per_cta);
        r.pc = s == MANY_PCS ? (uint32_t)i : 0;
        r.warp = (uint32_t)(i % 8);
        for (int l = 0; l < WST_WARP_SIZE; l++)
            r.addr[l] = 0x100000 + 128 * line + 4 * (uint64_t)l;
        if (wst_writer_add_record(w, 0, &r, &err) != 0)
            fail(path, &err);
        if (s != SMALL_FRAMES && per_cta < records && i % per_cta == per_cta - 1 &&
            wst_writer_end_cta(w, 0, r.cta, &err) != 0)
            fail(path, &err);
    }
    if (wst_writer_close(w, &err) != 0)
        fail(path, &err);
}

/* An Accel-Sim trace directory of n launches of one warp and one load. */
static void write_launches(const char *dir, uint64_t n)
{
    char path[512];
    snprintf(path, sizeof path, "mkdir -p '%s'", dir);
    if (system(path) != 0)
        exit(1);
    snprintf(path, sizeof path, "%s/kernelslist.g", dir);
    FILE *list = fopen(path, "w");
    for (uint64_t i = 1; list && i <= n; i++) {
        fprintf(list, "kernel-%" PRIu64 ".traceg\n", i);
        snprintf(path, sizeof path, "%s/kernel-%" PRIu64 ".traceg", dir, i);
        FILE *f = fopen(path, "w");
        if (!f)
            exit(1);
        fprintf(f,
                "-kernel name = _Z6kernelPfi\n-kernel id = %" PRIu64 "\n-grid dim = (1,1,1)\n"
                "-block dim = (32,1,1)\n-shmem = 0\n-nregs = 8\n-binary version = 61\n"
                "-cuda stream id = 0\n-accelsim tracer version = 4\n\n#traces format = "
                "[line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
                "[adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\n\n"
                "thread block = 0,0,0\n\nwarp = 0\ninsts = 2\n"
                "0010 ffffffff 1 R2 LDG.E 1 R4 4 1 0x7fb05b000000 4\n"
                "0020 ffffffff 0 EXIT 0 0\n\n#END_TB\n",
                i);
        fclose(f);
    }
    if (!list || fclose(list) != 0)
        exit(1);
}

/* Runs warpscope with args; its peak RSS in MiB and wall seconds; 0, or
 * -1 when it refused (a limit: its one line is on stderr). */
static int run(const char *const *args, double *mib, double *seconds)
{
    struct timespec t0, t1;
    fflush(stdout); /* or the child would write our buffered table again */
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid == 0) {
        const char *argv[12] = {warpscope};
        for (int i = 0; args[i] && i < 10; i++)
            argv[i + 1] = args[i];
        freopen("/dev/null", "w", stdout);
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int status = 0;
    struct rusage ru;
    wait4(pid, &status, 0, &ru);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    *mib = ru.ru_maxrss / 1024.0;
    *seconds = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    if (!WIFEXITED(status)) {
        fprintf(stderr, "bench_memory_shapes: warpscope %s died\n", args[0]);
        exit(1);
    }
    return WEXITSTATUS(status) == 0 ? 0 : -1;
}

static double file_mib(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size / 1048576.0 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        warpscope = argv[1];
    const char *only = argc > 2 ? argv[2] : NULL; /* the shapes whose name holds this word */
    static const struct {
        shape s;
        const char *what, *unit;
        uint64_t n[3];
    } cases[] = {
        {ONE_CTA, "records in one CTA", "records", {1000000, 4000000, 16000000}},
        {SHARED_LINES, "every CTA reads the same 4,096 lines", "records", {1000000, 4000000, 16000000}},
        {EMPTY_KERNELS, "empty kernels (one record in the first)", "kernels", {1000, 4000, 20000}},
        {MANY_PCS, "PCs, each run once", "PCs", {1000, 10000, 30000}},
        {RESIDENT_CTAS, "120 resident CTAs", "records a CTA", {32768, 131072, 524288}},
        {LAUNCHES, "Accel-Sim launches (import)", "launches", {2000, 32000, 200000}},
        {SMALL_FRAMES, "CTAs never ended (a frame each)", "CTAs", {25000, 100000, 400000}},
    };
    char path[256], out[256], json[256], html[256];
    snprintf(path, sizeof path, "/tmp/bench-shapes-%d.wst", (int)getpid());
    snprintf(out, sizeof out, "/tmp/bench-shapes-%d", (int)getpid());
    snprintf(json, sizeof json, "/tmp/bench-shapes-%d.json", (int)getpid());
    snprintf(html, sizeof html, "/tmp/bench-shapes-%d.html", (int)getpid());
    printf("## Peak memory against the trace's shape (`bench_memory_shapes`)\n\n");
    printf("Peak RSS of `warpscope analyze T -o report.json` (and `export accelsim` for one\n"
           "CTA) on traces written to a shape, with the report's size; memory should follow\n"
           "live state, not the count.  One CTA's records are live state (the scheduler\n"
           "holds a resident CTA whole), and all resident CTAs' records together are capped\n"
           "by WARPSCOPE_CTA_LIMIT (refused: the one-line error, at the peak shown); lines\n"
           "read by every CTA are one run of CTA ids each.  Binary: %s.\n\n", warpscope);
    printf("| shape | count | analyze -o (MiB) | analyze (s) | report.json (MiB) | report --html "
           "(MiB) | export (MiB) |\n");
    printf("|---|---:|---:|---:|---:|---:|---:|\n");
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (int i = 0; i < 3 && (!only || strstr(cases[c].what, only)); i++) {
            double mib, s, export_mib = 0, report_mib = 0, unused;
            char rm[300];
            if (cases[c].s == LAUNCHES) { /* import's peak in the analyze column */
                write_launches(out, cases[c].n[i]);
                int refused = run((const char *const[]){"import", "accelsim", out, "-o", path, NULL},
                                  &mib, &s);
                snprintf(rm, sizeof rm, "rm -rf '%s'", out);
                if (system(rm) != 0)
                    return 1;
                printf("| %s | %" PRIu64 " %s | %.0f%s (import) | %.1f | | | |\n", cases[c].what,
                       cases[c].n[i], cases[c].unit, mib, refused ? " (refused)" : "", s);
                fflush(stdout);
                continue;
            }
            write_shape(path, cases[c].s, cases[c].n[i]);
            unlink(json);
            int refused = run((const char *const[]){"analyze", path, "-o", json, "--quiet", NULL},
                              &mib, &s);
            if (!refused)
                run((const char *const[]){"report", json, "--html", html, NULL}, &report_mib,
                    &unused);
            if (cases[c].s == ONE_CTA) {
                run((const char *const[]){"export", "accelsim", path, "-o", out, NULL}, &export_mib,
                    &unused);
                snprintf(rm, sizeof rm, "rm -rf '%s'", out);
                if (system(rm) != 0)
                    return 1;
            }
            printf("| %s | %" PRIu64 " %s | %.0f%s | %.1f | %.2f | ", cases[c].what, cases[c].n[i],
                   cases[c].unit, mib, refused ? " (refused)" : "", s, file_mib(json));
            if (report_mib > 0)
                printf("%.0f | ", report_mib);
            else
                printf("| ");
            if (export_mib > 0)
                printf("%.0f |\n", export_mib);
            else
                printf("|\n");
            fflush(stdout);
        }
    unlink(path);
    unlink(json);
    unlink(html);
    return 0;
}
