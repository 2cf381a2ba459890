/* cli/cmd_import.c: `warpscope import accelsim PATH -o FILE.wst`. */
#include <stdio.h>

#include "cli/cli.h"
#include "collectors/accelsim/accelsim.h"
#include "formats/sink.h"
#include "formats/wst.h"

static int run(int argc, char **argv)
{
    const char *input, *output;
    int status = cli_convert_args("import", argc, argv, &input, &output);
    if (status != 0)
        return status;
    ws_error err = {{0}};
    wst_origin origin = {.collector = "accelsim", .collector_version = WARPSCOPE_VERSION,
                         .workload = (char *)input};
    wst_writer *w = wst_writer_open(output, &origin, NULL, &err);
    if (!w)
        return cli_fail(output, &err);
    wst_sink sink = wst_writer_sink(w);
    accelsim_info info;
    if (accelsim_import(input, &sink, &info, &err) != 0) {
        wst_writer_abort(w);
        return cli_fail(NULL, &err); /* the message starts with FILE:LINE */
    }
    /* The SASS's compute capability names the GPU family: sm_61. */
    char gpu[16];
    snprintf(gpu, sizeof gpu, "sm_%u", info.binary_version);
    if (info.binary_version && wst_writer_set_gpu(w, gpu, &err) != 0) {
        wst_writer_abort(w);
        return cli_fail(output, &err);
    }
    if (wst_writer_close(w, &err) != 0)
        return cli_fail(output, &err);
    return 0;
}

const cli_command cmd_import = {
    .name = "import",
    .summary = "convert Accel-Sim traces into .wst",
    .usage = "usage: warpscope import accelsim PATH -o FILE.wst\n\n"
             "Converts Accel-Sim NVBit tracer output.  PATH is a kernelslist.g, a\n"
             "directory holding one, or one kernel-N.traceg / kernel-N.trace file,\n"
             "optionally .xz-compressed.  Global and local loads, stores and atomics\n"
             "are kept; shared, constant and texture accesses are not (docs/accelsim.md).\n"
             "Memory stays bounded by one line and the kernel's PC table.\n\n"
             "examples:\n"
             "  warpscope import accelsim traces/kernelslist.g -o app.wst\n"
             "  warpscope import accelsim traces/kernel-3.traceg.xz -o k3.wst\n",
    .run = run,
};
