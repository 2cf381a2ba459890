/* cli/warpscope.c: the `warpscope` command: finds the subcommand and runs it.
 * Parsing of each subcommand's options lives in its own cmd_*.c file. */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/rank_split.h"
#include "cli/trace_filter.h"
#include "util/inputs.h"
#include "util/interrupt.h"
#include "util/outset.h"
#include "util/papers.h"
#include "util/ranks.h"

extern const cli_command cmd_workloads, cmd_record, cmd_import, cmd_export, cmd_info, cmd_dump,
    cmd_diff, cmd_analyze, cmd_replay, cmd_compare, cmd_sweep, cmd_policies, cmd_bypass, cmd_profile, cmd_report,
    cmd_batch;

/* One line per subcommand, in the order `--help` lists them. */
static const cli_command *const commands[] = {
    &cmd_profile,
    &cmd_workloads,
    &cmd_record,
    &cmd_import,
    &cmd_export,
    &cmd_info,
    &cmd_dump,
    &cmd_diff,
    &cmd_analyze,
    &cmd_replay,
    &cmd_compare,
    &cmd_sweep,
    &cmd_batch,
    &cmd_policies,
    &cmd_bypass,
    &cmd_report,
};

static void print_help(FILE *out)
{
    fputs("usage: warpscope <command> [options]\n"
          "       warpscope <command> --help\n"
          "       warpscope --version\n\n"
          "A trace-driven cache analyzer and profiler for GPU kernels.\n\n"
          "commands:\n",
          out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i])
            fprintf(out, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
    fputs("\nS0-S4 in help texts and reports are the papers warpscope implements:\n", out);
    for (size_t i = 0; i < WS_PAPER_COUNT; i++)
        fprintf(out, "  %s  %s\n", ws_papers[i].tag, ws_papers[i].about);
    fputs("definitions: docs/metrics.md; citations: docs/references.md\n", out);
}

const char *cli_usage(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (commands[i] && strcmp(commands[i]->name, name) == 0)
            return commands[i]->usage;
    return NULL;
}

/* A command's outputs appear together or not at all (util/outset.h), and
 * only once everything it printed has reached standard output: a full
 * disk there fails the run in one line; a closed pipe ends it by SIGPIPE,
 * as it would any filter, once its outputs are removed. */
static int finish(int status)
{
    fflush(stdout);
    if (cli_stdout_reader_gone()) { /* as if SIGPIPE had ended the run, less what it wrote */
        ws_outset_discard();
        interrupt_stop(SIGPIPE);
    }
    if (status == 0)
        status = cli_stdout_check();
    ws_error err;
    if (status == 0 && ws_outset_publish(&err) != 0)
        status = cli_fail(NULL, &err);
    if (status != 0) {
        ws_outset_discard();
        interrupt_cleanup_now();
    }
    return status;
}

static int run_command(int argc, char **argv);

int main(int argc, char **argv)
{
    interrupt_install(); /* first: a stop signal from here on takes back what the run wrote */
    ranks_begin(&argc, &argv); /* mpirun -n R: joins the job (docs/analysis.md "Ranks") */
    int status = run_command(argc, argv);
    ranks_end();
    return status;
}

static int run_command(int argc, char **argv)
{
    ws_outset_begin(argc > 1 ? argv[1] : "warpscope");
    ws_inputs_begin(); /* no output of this run may replace what it reads */
    if (argc < 2) {
        print_help(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (strcmp(name, "-h") == 0 || strcmp(name, "--help") == 0 || strcmp(name, "help") == 0) {
        print_help(stdout);
        return finish(0);
    }
    if (strcmp(name, "-V") == 0 || strcmp(name, "--version") == 0) {
        printf("warpscope %s\n", WARPSCOPE_VERSION);
        return finish(0);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        const cli_command *cmd = commands[i];
        if (cmd && strcmp(cmd->name, name) == 0) {
            if (cli_wants_help(cmd, argc - 1, argv + 1)) {
                cli_trace_filter_usage(cmd->name, stdout);
                return finish(0);
            }
            int cmd_argc = argc - 1, status = cli_trace_filter_take(&cmd_argc, argv + 1);
            if (status != 0)
                return finish(status);
            return finish(cli_rank_run(cmd, cmd_argc, argv + 1));
        }
    }
    return cli_error(NULL, "'%s' is not a command; see 'warpscope --help'", name) + 1;
}
