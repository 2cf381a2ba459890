/* cli/cmd_diff.c: `warpscope diff A.wst B.wst`: do two traces record the
 * same accesses?  The comparison is analyzer/trace_diff.c; this prints it. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "analyzer/trace_diff.h"
#include "cli/cli.h"
#include "cli/trace_filter.h"
#include "util/demangle.h"
#include "reports/term.h"

static const char usage[] =
    "usage: warpscope diff A.wst B.wst [--max N] [--ignore-bases] [--pcs offset|paired]\n\n"
    "Compares two traces record by record: kernels in launch order (name,\n"
    "grid, block), then CTA by CTA, then each warp's records in order (the\n"
    "order of different warps carries no meaning).  Per record: PC, kind,\n"
    "space, bytes per lane, cache operator (when both have one), active mask,\n"
    "and the address of every lane active in both.\n\n"
    "Addresses: when both traces list their allocations (the emulator and the\n"
    "NVBit tool do), a global address is compared as (allocation ordinal,\n"
    "offset inside it), so traces from two allocators agree; an address in no\n"
    "allocation, or any address when a trace lists none (imported Accel-Sim\n"
    "traces), is compared as recorded.  Local memory is per thread: its\n"
    "addresses are compared by shape, each lane's distance from the lowest\n"
    "active lane.\n\n"
    "  --max N          print the first N differences (default 10; 0: only the\n"
    "                   summary)\n"
    "  --ignore-bases   compare every record's addresses by shape: traces\n"
    "                   without allocation tables can still be compared\n"
    "  --pcs offset     a PC is its offset in the kernel (default)\n"
    "  --pcs paired     a PC of A pairs with the PC of B it first meets, and must\n"
    "                   meet that one every time after: for collectors that\n"
    "                   number PCs their own way (the emulator and a GPU)\n\n"
    "Each difference is one line: kernel, launch, CTA (x,y,z), warp, record in\n"
    "the warp, the field and both values; a summary follows.  Exit status: 0\n"
    "when the traces agree, 1 when they differ, 2 on an error, as diff(1).\n"
    "docs/diff.md has the rules.\n\n"
    "examples:\n"
    "  warpscope diff gaussian-emu.wst gaussian-gpu.wst --pcs paired\n"
    "  warpscope diff a.wst b.wst --ignore-bases --max 50\n";

typedef struct diff_args {
    const char *paths[2];
    unsigned long long max;
    diff_options options;
} diff_args;

/* 0, or the exit status 2 after a one-line complaint. */
static int parse(int argc, char **argv, diff_args *a)
{
    *a = (diff_args){.max = 10};
    int files = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--ignore-bases") == 0) {
            a->options.ignore_bases = 1;
        } else if (strcmp(arg, "--max") == 0 || strcmp(arg, "--pcs") == 0) {
            if (i + 1 >= argc)
                return cli_option_problem("diff", arg) + 1;
            const char *value = argv[++i];
            if (strcmp(arg, "--max") == 0) {
                if (cli_parse_u64("--max", value, &a->max) != 0)
                    return 2;
            } else if (strcmp(value, "offset") == 0 || strcmp(value, "paired") == 0) {
                a->options.pcs = value[0] == 'o' ? DIFF_PCS_OFFSET : DIFF_PCS_PAIRED;
            } else {
                return cli_error(NULL, "--pcs: 'offset' or 'paired', not '%s'", value) + 1;
            }
        } else if (arg[0] == '-' && arg[1]) {
            return cli_option_problem("diff", arg) + 1;
        } else if (files == 2) {
            return cli_error(NULL, "diff compares two traces; '%s' is a third", arg) + 1;
        } else {
            a->paths[files++] = arg;
        }
    }
    if (files < 2)
        return cli_error(NULL, "diff needs two trace files; see 'warpscope diff --help'") + 1;
    return 0;
}

typedef struct printer {
    const wst_trace *a;
    unsigned long long max, printed;
} printer;

/* "Fan2 launch 1 CTA (2,0,0) warp 3 record 17: mask: A 0xffffffff, B 0x0000ffff" */
static void print_difference(void *ctx, const diff_event *e)
{
    printer *p = ctx;
    if (p->printed >= p->max)
        return;
    p->printed++;
    if (e->kernel >= 0) {
        const wst_kernel *k = &p->a->kernels[e->kernel];
        char name[128];
        demangle_short(k->name, name, sizeof name);
        printf("%s launch %" PRId64, name, e->kernel);
        if (e->cta >= 0) {
            wst_dim3 at = wst_cta_coords(k->grid, (uint32_t)e->cta);
            printf(" CTA (%u,%u,%u)", at.x, at.y, at.z);
        }
        if (e->warp >= 0)
            printf(" warp %" PRId64, e->warp);
        if (e->record >= 0)
            printf(" record %" PRId64, e->record);
        printf(": ");
    }
    printf("%s", diff_field_name(e->field));
    if (e->lane >= 0)
        printf(" lane %" PRId64, e->lane);
    printf(": A %s, B %s\n", e->a, e->b);
}

static void print_addresses(const diff_summary *s)
{
    /* Wrapped to the width, continuing under the value (reports/term.h). */
    if (s->addresses == DIFF_SHAPE)
        term_printf(stdout, 13, "addresses    by shape (--ignore-bases): each lane's distance "
                                "from the lowest active lane");
    else if (s->addresses == DIFF_BY_ALLOCATION)
        term_printf(stdout, 13, "addresses    by allocation ordinal and offset (A lists %u, B %u); "
                                "local memory by shape",
                    s->allocations[0], s->allocations[1]);
    else
        term_printf(stdout, 13, "addresses    as recorded: %s; local memory by shape",
                    s->allocations[0]   ? "B lists no allocations"
                    : s->allocations[1] ? "A lists no allocations"
                                        : "neither trace lists its allocations");
}

static void print_summary(const diff_summary *s, const printer *p)
{
    if (p->printed)
        printf("\n");
    printf("kernels      %" PRIu64 " compared (A %u, B %u)\n", s->kernels_compared, s->kernels[0],
           s->kernels[1]);
    printf("CTAs         %" PRIu64 " compared\n", s->ctas_compared);
    printf("warps        %" PRIu64 " compared\n", s->warps_compared);
    printf("records      %" PRIu64 " compared, %" PRIu64 " differ\n", s->records_compared,
           s->records_differing);
    print_addresses(s);
    if (s->left_out[0] || s->left_out[1])
        term_printf(stdout, 13, "left out     A %" PRIu64 " records, B %" PRIu64 " (kernels or CTAs "
                                "in one trace only, warp tails, kernels of another shape)",
                    s->left_out[0], s->left_out[1]);
    printf("differences  %" PRIu64, s->differences);
    for (int f = 0, first = 1; f < DIFF_FIELDS; f++)
        if (s->by_field[f]) {
            printf("%s %s %" PRIu64, first ? ":" : ",", diff_field_name((diff_field)f),
                   s->by_field[f]);
            first = 0;
        }
    if (p->printed < s->differences)
        printf(" (the first %llu above)", p->printed);
    printf("\n%s\n", s->differences ? "the traces differ" : "the traces agree");
}

static int run(int argc, char **argv)
{
    diff_args a;
    int status = parse(argc, argv, &a);
    if (status != 0)
        return status;
    wst_reader *traces[2] = {NULL, NULL};
    ws_error err;
    for (int s = 0; s < 2 && status == 0; s++)
        if (!(traces[s] = cli_open_trace(a.paths[s], &err)))
            status = cli_fail(a.paths[s], &err) + 1;
    if (status == 0) {
        printer p = {.a = wst_reader_trace(traces[0]), .max = a.max};
        diff_summary summary;
        int bad = 0;
        if (trace_diff(traces, &a.options, print_difference, &p, &summary, &bad, &err) != 0) {
            fflush(stdout);
            status = cli_fail(a.paths[bad], &err) + 1;
        } else {
            print_summary(&summary, &p);
            status = summary.differences ? 1 : 0;
        }
        /* Checked here too: the caller checks standard output only after a
         * success, and a failed write is an error (2), differences or not. */
        if (status < 2 && cli_stdout_check() != 0)
            status = 2;
    }
    for (int s = 0; s < 2; s++)
        wst_reader_close(traces[s]);
    return status;
}

const cli_command cmd_diff = {"diff", "compare two traces record by record, warp by warp", usage,
                              run};
