/* cli/cmd_workloads.c: `warpscope workloads`: the embedded benchmarks. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "collectors/workloads/workloads.h"
#include "reports/term.h"

static const char usage[] =
    "usage: warpscope workloads\n\n"
    "Lists the embedded benchmark kernels that `warpscope record --workload`\n"
    "and `warpscope profile --workload` run in the CUDA-grid emulator:\n"
    "name, suite, what it does, its kernels, and what each size means.\n\n"
    "  --names               only the names, one a line (for scripts)\n";

/* Column widths from the longest entry, so a long name never shifts a row. */
static void widths(int *name, int *suite)
{
    *name = (int)strlen("name");
    *suite = (int)strlen("suite");
    for (unsigned i = 0; workload_at(i); i++) {
        int n = (int)strlen(workload_at(i)->name), s = (int)strlen(workload_at(i)->suite);
        *name = n > *name ? n : *name;
        *suite = s > *suite ? s : *suite;
    }
}

static int run(int argc, char **argv)
{
    int names_only = argc == 2 && strcmp(argv[1], "--names") == 0;
    if (argc > 1 && !names_only)
        return argv[1][0] == '-' ? cli_option_problem("workloads", argv[1])
                                 : cli_error(NULL, "workloads takes no arguments, not '%s'", argv[1]);
    if (names_only) {
        for (unsigned i = 0; workload_at(i); i++)
            printf("%s\n", workload_at(i)->name);
        return 0;
    }
    int name_w, suite_w;
    widths(&name_w, &suite_w);
    /* Continuation lines start with a space: the first word of every other
     * line below the header is a workload's name. */
    printf("%-*s  %-*s  %s\n", name_w, "name", suite_w, "suite", "description");
    for (unsigned i = 0; workload_at(i); i++) {
        const workload *w = workload_at(i);
        unsigned hang = (unsigned)(name_w + suite_w + 4);
        term_printf(stdout, hang, "%-*s  %-*s  %s", name_w, w->name, suite_w, w->suite,
                    w->description);
        term_printf(stdout, hang, "%-*s  kernels: %s", name_w + suite_w + 2, "", w->kernels);
        term_printf(stdout, hang, "%-*s  sizes: small %s, medium %s, large %s",
                    name_w + suite_w + 2, "", w->sizes[SIZE_SMALL], w->sizes[SIZE_MEDIUM],
                    w->sizes[SIZE_LARGE]);
    }
    return 0;
}

const cli_command cmd_workloads = {"workloads", "list the embedded benchmark kernels", usage, run};
