/* cli/cmd_record.c: `warpscope record`: trace a workload in the emulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "collectors/workloads/workloads.h"

static const char usage[] =
    "usage: warpscope record --workload NAME [--size small|medium|large] [--seed N]\n"
    "                        [--verify] -o FILE.wst\n\n"
    "Runs an embedded benchmark in the CUDA-grid emulator and writes its\n"
    "per-warp memory trace.  Inputs come from --seed (default 1), so the same\n"
    "command writes the same trace.  --verify also checks the kernels' output\n"
    "against a CPU reference.  `warpscope workloads` lists the workloads.\n\n"
    "example:\n"
    "  warpscope record --workload gaussian --size small -o gaussian.wst\n";

static int run(int argc, char **argv)
{
    const char *name = NULL, *out = NULL;
    workload_size size = SIZE_SMALL;
    unsigned long long seed = 1;
    int verify = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--verify") == 0) {
            verify = 1;
            continue;
        }
        if (strcmp(a, "--workload") && strcmp(a, "--size") && strcmp(a, "--seed") &&
            strcmp(a, "-o") && strcmp(a, "--output"))
            return cli_error(NULL, "record: unknown option '%s'; see 'warpscope record --help'", a);
        if (!value)
            return cli_error(NULL, "record: %s needs a value", a);
        i++;
        if (strcmp(a, "--workload") == 0) {
            name = value;
        } else if (strcmp(a, "--size") == 0) {
            int s = workload_size_parse(value);
            if (s < 0)
                return cli_error(NULL, "unknown size '%s' (sizes: small, medium, large)", value);
            size = (workload_size)s;
        } else if (strcmp(a, "--seed") == 0) {
            if (cli_parse_u64("--seed", value, &seed) != 0)
                return 1;
        } else {
            out = value;
        }
    }
    if (!name)
        return cli_error(NULL, "record needs --workload NAME (see 'warpscope workloads')");
    if (!out)
        return cli_error(NULL, "record needs -o FILE.wst");
    ws_error err;
    if (record_workload(name, size, seed, verify, out, &err) != 0)
        return cli_fail(strstr(err.msg, "unknown workload") ? NULL : out, &err);
    return 0;
}

const cli_command cmd_record = {"record", "trace an embedded workload in the CUDA-grid emulator",
                                usage, run};
