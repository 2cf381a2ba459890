/* cli/cmd_record.c: `warpscope record`: trace a workload in the emulator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "reports/numfmt.h"
#include "reports/term.h"
#include "collectors/workloads/workloads.h"
#include "util/interrupt.h"

static const char usage[] =
    "usage: warpscope record --workload NAME [--size small|medium|large] [--seed N]\n"
    "                        [--verify] [--timing] [--quiet] -o FILE.wst\n"
    "       warpscope record -o FILE.wst -- ./app [args]   (a real GPU, NVBit)\n\n"
    "Runs an embedded benchmark in the CUDA-grid emulator and writes its\n"
    "per-warp memory trace.  Inputs come from --seed (default 1), so the same\n"
    "command writes the same trace.  --verify also checks the kernels' output\n"
    "against a CPU reference.  --timing records the timing the ports state\n"
    "(gaps and the loads each record waits on, for the timed replay of\n"
    "docs/metrics.md §12; docs/cuda-workloads.md says which ports state it);\n"
    "without it every record is a blocking load with no gap.\n"
    "`warpscope workloads` lists the workloads.\n"
    "On a terminal, a long recording counts its records as it goes (--quiet:\n"
    "not).\n\n"
    "With `--`, runs the application under warpscope's NVBit tool (built with\n"
    "`make nvbit NVBIT_PATH=...`, found next to this binary or through\n"
    "WARPSCOPE_NVBIT_TOOL); WARPSCOPE_KERNELS, WARPSCOPE_LAUNCHES and\n"
    "WARPSCOPE_MAX_RECORDS select what is recorded (docs/nvbit.md).\n\n"
    "examples:\n"
    "  warpscope record --workload gaussian --size small -o gaussian.wst\n"
    "  WARPSCOPE_KERNELS='^mult' warpscope record -o app.wst -- ./app 1024\n";

/* The NVBit tool: WARPSCOPE_NVBIT_TOOL, or warpscope-nvbit.so beside the
 * warpscope binary. */
static int find_tool(char *path, size_t cap)
{
    const char *env = getenv("WARPSCOPE_NVBIT_TOOL");
    if (env && *env) {
        snprintf(path, cap, "%s", env);
    } else {
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            return -1;
        self[n] = '\0';
        char *slash = strrchr(self, '/');
        if (slash)
            *slash = '\0';
        int len = snprintf(path, cap, "%s/warpscope-nvbit.so", self);
        if (len < 0 || (size_t)len >= cap)
            return -1; /* a path too long to hold: no tool there */
    }
    return access(path, R_OK) == 0 ? 0 : -1;
}

/* Runs argv[0..] with the tool preloaded, writing out. */
static int record_app(const char *out, char **app)
{
    char tool[4096];
    if (find_tool(tool, sizeof tool) != 0)
        return cli_error(NULL, "the NVBit tool is not built (%s); build it with 'make nvbit "
                         "NVBIT_PATH=/path/to/nvbit' on a machine with a GPU (docs/nvbit.md)", tool);
    char absolute[4096];
    if (out[0] != '/' && getcwd(absolute, sizeof absolute))
        snprintf(absolute + strlen(absolute), sizeof absolute - strlen(absolute), "/%s", out);
    else
        snprintf(absolute, sizeof absolute, "%s", out);
    pid_t pid = fork();
    if (pid == 0) {
        interrupt_child_reset();
        setenv("WARPSCOPE_OUT", absolute, 1);
        setenv("LD_PRELOAD", tool, 1);
        execvp(app[0], app);
        fprintf(stderr, "warpscope: %s: cannot run it\n", app[0]);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return cli_error(app[0], "cannot run it");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return cli_error(app[0], "exited with status %d; the trace may be incomplete",
                         WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    return 0;
}

static int run(int argc, char **argv)
{
    const char *name = NULL, *out = NULL;
    workload_size size = SIZE_SMALL;
    unsigned long long seed = 1;
    int verify = 0, quiet = 0, timing = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--") == 0) {
            if (i + 1 >= argc)
                return cli_error(NULL, "record: nothing to run after --");
            if (!out)
                return cli_error(NULL, "record needs -o FILE.wst before --");
            return record_app(out, argv + i + 1);
        }
        if (strcmp(a, "--verify") == 0 || strcmp(a, "--quiet") == 0) {
            *(a[2] == 'v' ? &verify : &quiet) = 1;
            continue;
        }
        if (strcmp(a, "--timing") == 0) {
            timing = 1;
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
    progress *bar = progress_new_counting("record", "records", quiet);
    int flags = (verify ? RECORD_VERIFY : 0) | (timing ? RECORD_TIMING : 0);
    record_check check;
    int rc =
        record_workload_checked(name, size, seed, flags, out, bar, verify ? &check : NULL, &err);
    progress_free(bar);
    if (rc != 0)
        return cli_fail(strstr(err.msg, "unknown workload") ? NULL : out, &err);
    if (verify) {
        term_printf(stdout, 2,
                    "verified: the output of the %u kernel launch%s matches the CPU "
                    "reference",
                    check.kernels, check.kernels == 1 ? "" : "es");
        term_printf(stdout, 2,
                    "verified: %s read back holds the %s records written, in %s CTAs, "
                    "identical (checksums match)",
                    out, numfmt_grouped(check.records_read).s, numfmt_grouped(check.ctas).s);
    }
    return 0;
}

const cli_command cmd_record = {"record", "trace an embedded workload in the CUDA-grid emulator",
                                usage, run};
