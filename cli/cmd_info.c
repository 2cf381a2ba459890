/* cli/cmd_info.c: `warpscope info FILE`: what a trace holds. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/trace_filter.h"
#include "formats/wst.h"
#include "reports/term.h"

static const char usage[] =
    "usage: warpscope info FILE.wst\n\n"
    "Prints the trace's origin, its device allocations (count and bytes; none\n"
    "recorded in imported Accel-Sim traces), each kernel (grid, block, shared\n"
    "memory, registers, CTAs, records by kind, PCs) and the file's size, bytes\n"
    "per record and compression ratio.\n\n"
    "example:\n"
    "  warpscope info gaussian.wst\n";

static const char *or_dash(const char *s) { return s && *s ? s : "-"; }

static int run(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (argv[i][0] == '-' && argv[i][1])
            return cli_option_problem("info", argv[i]);
    if (argc != 2)
        return cli_error(NULL, "info takes one trace file; see 'warpscope info --help'");
    const char *path = argv[1];
    ws_error err;
    wst_reader *r = cli_open_trace(path, &err);
    if (!r)
        return cli_fail(path, &err);
    const wst_trace *t = wst_reader_trace(r);
    uint64_t records = 0, raw_bytes = 0;
    for (size_t i = 0; i < wst_reader_frame_count(r); i++)
        raw_bytes += wst_reader_frame(r, i)->raw_bytes;
    for (uint32_t k = 0; k < t->kernel_count; k++)
        records += t->kernels[k].record_count;
    uint64_t file_bytes = wst_reader_file_bytes(r);

    printf("trace      %s\n", path);
    printf("collector  %s %s\n", or_dash(t->origin.collector), or_dash(t->origin.collector_version));
    printf("workload   %s\n", or_dash(t->origin.workload));
    printf("gpu        %s\n", or_dash(t->origin.gpu));
    if (t->allocation_count) {
        uint64_t allocated = 0;
        for (uint32_t i = 0; i < t->allocation_count; i++)
            allocated += t->allocations[i].bytes;
        printf("allocs     %u (%" PRIu64 " bytes)\n", t->allocation_count, allocated);
    } else {
        printf("allocs     none recorded\n");
    }
    if (wst_reader_selection(r)) /* the kernel filters chose some (docs/kernel-filters.md) */
        printf("kernels    %u (of the file's %u: %s)\n", t->kernel_count,
               wst_reader_kernels_in_file(r), wst_reader_selection(r));
    else
        printf("kernels    %u\n", t->kernel_count);
    printf("records    %" PRIu64 "\n", records);
    printf("format     version %u\n", wst_reader_version(r));
    uint32_t timed = 0;
    for (uint32_t k = 0; k < t->kernel_count; k++)
        timed += t->kernels[k].has_timing != 0;
    /* docs/metrics.md §12: without timing the timed replay takes every
     * record as a blocking load with no gap. */
    if (timed == 0)
        printf("timing     none (blocking loads, no gaps)\n");
    else
        printf("timing     gaps and dependencies from the collector (%u of %u kernels)\n", timed,
               t->kernel_count);
    size_t frames = wst_reader_frame_count(r);
    printf("chunks     %zu in %zu zstd frame%s\n", wst_reader_chunk_count(r), frames,
           frames == 1 ? "" : "s");
    printf("file       %" PRIu64 " bytes, %.2f bytes/record\n", file_bytes,
           records ? (double)file_bytes / (double)records : 0.0);
    printf("raw        %" PRIu64 " bytes (column-encoded), compression %.2fx\n", raw_bytes,
           file_bytes ? (double)raw_bytes / (double)file_bytes : 0.0);
    for (uint32_t k = 0; k < t->kernel_count; k++) {
        const wst_kernel *kernel = &t->kernels[k];
        printf("\nkernel %u   %s\n", k, or_dash(kernel->name));
        term_printf(stdout, 4, "  grid (%u,%u,%u)  block (%u,%u,%u)  shared %u B  registers %u\n",
                    kernel->grid.x, kernel->grid.y, kernel->grid.z, kernel->block.x,
                    kernel->block.y, kernel->block.z, kernel->shared_mem_bytes,
                    kernel->registers_per_thread);
        term_printf(stdout, 4,
                    "  CTAs %u  records %" PRIu64 " (loads %" PRIu64 ", stores %" PRIu64
                    ", atomics %" PRIu64 ")  PCs %u\n",
                    kernel->cta_count, kernel->record_count, kernel->records_by_kind[WST_LOAD],
                    kernel->records_by_kind[WST_STORE], kernel->records_by_kind[WST_ATOMIC],
                    kernel->pc_count);
        if (timed && timed < t->kernel_count)
            printf("  timing %s\n", kernel->has_timing ? "from the collector" : "none");
    }
    wst_reader_close(r);
    return 0;
}

const cli_command cmd_info = {"info", "kernels, grid, records, PCs, size and compression of a trace",
                              usage, run};
