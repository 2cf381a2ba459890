/* cli/trace_filter.h: the kernel filter options every command that reads a
 * trace takes (-k/--kernel-name, --launch-skip, --launch-count;
 * formats/kernel_filter.h), parsed once for all of them.
 *
 * warpscope.c takes the options out of argv before the command parses the
 * rest, so no command parses them itself; each opens its traces with
 * cli_open_trace, which applies them. */
#ifndef WS_CLI_TRACE_FILTER_H
#define WS_CLI_TRACE_FILTER_H

#include <stdio.h>

#include "formats/kernel_filter.h"
#include "formats/wst.h"

/* Removes the filter options from argv (argv[0] is the command) when the
 * command reads traces, and keeps them for cli_open_trace; *argc shrinks.
 * 0, or the exit status after a one-line complaint (a missing or bad
 * value, an invalid regex, the options given to a command that reads no
 * trace). */
int cli_trace_filter_take(int *argc, char **argv);

/* The filter taken (all zero when none was given). */
const kernel_filter *cli_trace_filter(void);

/* wst_reader_open, then the filter: NULL with err when the trace cannot
 * be read or no launch matches the filter. */
wst_reader *cli_open_trace(const char *path, ws_error *err);

/* The options' help, appended to `warpscope COMMAND --help` of the
 * commands that read traces. */
void cli_trace_filter_usage(const char *command, FILE *out);

#endif
