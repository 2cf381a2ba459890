/* cli/cmd_workloads.c: `warpscope workloads`: the embedded benchmarks. */
#include <stdio.h>

#include "cli/cli.h"
#include "collectors/workloads/workloads.h"

static const char usage[] =
    "usage: warpscope workloads\n\n"
    "Lists the embedded benchmark kernels that `warpscope record --workload`\n"
    "and `warpscope profile --workload` run in the CUDA-grid emulator:\n"
    "name, suite, kernels, what it does, and what each size means.\n";

static int run(int argc, char **argv)
{
    if (argc > 1)
        return cli_error(NULL, "workloads takes no arguments");
    printf("%-10s %-10s %-44s %s\n", "name", "suite", "kernels", "description");
    for (unsigned i = 0; workload_at(i); i++) {
        const workload *w = workload_at(i);
        printf("%-10s %-10s %-44s %s\n", w->name, w->suite, w->kernels, w->description);
        printf("%-10s %-10s sizes: small %s, medium %s, large %s\n", "", "", w->sizes[SIZE_SMALL],
               w->sizes[SIZE_MEDIUM], w->sizes[SIZE_LARGE]);
    }
    return 0;
}

const cli_command cmd_workloads = {"workloads", "list the embedded benchmark kernels", usage, run};
