/* cli/cli.h: what every subcommand shares.
 *
 * A subcommand is one file defining a `cli_command`; adding one means adding
 * that file and one line to the table in warpscope.c. */
#ifndef WS_CLI_H
#define WS_CLI_H

#include "util/error.h"

#include "util/version.h"

typedef struct cli_command {
    const char *name;
    const char *summary; /* one line for `warpscope --help` */
    const char *usage;   /* full text for `warpscope NAME --help` */
    int (*run)(int argc, char **argv); /* argv[0] is the command name */
} cli_command;

/* Prints `warpscope: <subject>: <message>` (or `warpscope: <message>` when
 * subject is NULL) on stderr and returns the exit status 1. */
int cli_error(const char *subject, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Same, taking the message from a ws_error. */
int cli_fail(const char *subject, const ws_error *err);

/* 0 when everything printed so far has reached standard output; else the
 * one-line error (a full disk, a closed pipe) and 1. */
int cli_stdout_check(void);
/* True when writing to stdout failed because its reader is gone (a closed
 * pipe: `warpscope profile ... | head -1`). */
int cli_stdout_reader_gone(void);

/* True when argv[i] is -h or --help; prints the command's usage then. */
int cli_wants_help(const cli_command *cmd, int argc, char **argv);

/* Parses a non-negative integer option value with an optional K/M/G suffix;
 * -1 with a one-line complaint naming the option when it is not one. */
int cli_parse_u64(const char *option, const char *text, unsigned long long *out);

/* cli_parse_u64 of a value that must lie in [lo, hi]: 0, or -1 after a
 * one-line complaint ("--threads: 1 to 256, not 0"). */
int cli_parse_in_range(const char *option, const char *text, unsigned long long lo,
                       unsigned long long hi, unsigned long long *out);

/* The usage text of the command `name` (warpscope.c's table), or NULL. */
const char *cli_usage(const char *name);

/* The one-line complaint, exit status 1, for an option given as
 * "--name=value" or last without its value: "unknown option" when the
 * command's usage does not list it, else what is missing. */
int cli_option_problem(const char *command, const char *opt);

/* --cache-op honour|ignore: 0 with *ignore set, or -1 after a complaint. */
int cli_parse_cache_op(const char *text, int *ignore);

/* Parses `FORMAT INPUT -o OUTPUT` for the converters (import, export);
 * only the accelsim format exists.  0 or an exit status after complaining. */
int cli_convert_args(const char *command, int argc, char **argv, const char **input,
                     const char **output);

#endif
