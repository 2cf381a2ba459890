/* cli/cmd_export.c: `warpscope export accelsim FILE.wst -o DIR`. */
#include "cli/cli.h"
#include "cli/trace_filter.h"
#include "collectors/accelsim/accelsim.h"

static int run(int argc, char **argv)
{
    const char *input, *output;
    int status = cli_convert_args("export", argc, argv, &input, &output);
    if (status != 0)
        return status;
    ws_error err = {{0}};
    if (accelsim_export_filtered(input, cli_trace_filter(), output, &err) != 0)
        return cli_fail(NULL, &err); /* the message names the file */
    return 0;
}

const cli_command cmd_export = {
    .name = "export",
    .summary = "write a .wst trace as Accel-Sim traces",
    .usage = "usage: warpscope export accelsim FILE.wst -o DIR\n\n"
             "Writes DIR/kernelslist.g and DIR/kernel-N.traceg in the text format\n"
             "Accel-Sim's trace parser reads: memory instructions and an EXIT per\n"
             "warp, for every CTA of the grid, in a form its trace-driven simulator\n"
             "runs (SM ids and timestamps are not carried, see docs/accelsim.md).\n\n"
             "example:\n"
             "  warpscope export accelsim app.wst -o traces/\n",
    .run = run,
};
