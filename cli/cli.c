/* cli/cli.c: helpers shared by the subcommands (see cli.h). */
#include "cli/cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <unistd.h>

#include "util/ranks.h"

int cli_error(const char *subject, const char *fmt, ...)
{
    if (!ranks_reports()) /* every rank would say the same (util/ranks.h) */
        return 1;
    char line[4600];
    int used = snprintf(line, sizeof line, "warpscope: %s%s%s", ranks_prefix(), subject ? subject : "",
                        subject ? ": " : "");
    va_list ap;
    va_start(ap, fmt);
    if (used >= 0 && (size_t)used < sizeof line)
        vsnprintf(line + used, sizeof line - (size_t)used, fmt, ap);
    va_end(ap);
    if (!ranks_keep_error(line)) /* kept: the job's one line, from rank 0 */
        fprintf(stderr, "%s\n", line);
    return 1;
}

int cli_stdout_reader_gone(void)
{
    /* The write end of a pipe whose reader closed polls as an error. */
    struct pollfd out = {.fd = STDOUT_FILENO, .events = POLLOUT};
    return ferror(stdout) && poll(&out, 1, 0) == 1 && (out.revents & POLLERR);
}

int cli_stdout_check(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    return cli_error("standard output", "write failed: %s", strerror(errno ? errno : EIO));
}

int cli_fail(const char *subject, const ws_error *err)
{
    return cli_error(subject, "%s", err->msg[0] ? err->msg : "unknown error");
}

int cli_wants_help(const cli_command *cmd, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(cmd->usage, stdout);
            return 1;
        }
    }
    return 0;
}

int cli_parse_u64(const char *option, const char *text, unsigned long long *out)
{
    char *end = NULL;
    errno = 0;
    if (!text || !*text || *text == '-')
        goto bad;
    unsigned long long value = strtoull(text, &end, 10);
    if (errno || end == text)
        goto bad;
    unsigned long long scale = 1;
    if (*end == 'K' || *end == 'k')
        scale = 1ULL << 10, end++;
    else if (*end == 'M' || *end == 'm')
        scale = 1ULL << 20, end++;
    else if (*end == 'G' || *end == 'g')
        scale = 1ULL << 30, end++;
    if (*end != '\0' || (scale > 1 && value > ~0ULL / scale))
        goto bad;
    *out = value * scale;
    return 0;
bad:
    cli_error(NULL, "%s: expected a non-negative whole number, got '%s'", option,
              text ? text : "");
    return -1;
}

int cli_parse_in_range(const char *option, const char *text, unsigned long long lo,
                       unsigned long long hi, unsigned long long *out)
{
    if (cli_parse_u64(option, text, out) != 0)
        return -1;
    if (*out < lo || *out > hi) {
        cli_error(NULL, "%s: %llu to %llu, not %llu", option, lo, hi, *out);
        return -1;
    }
    return 0;
}

int cli_convert_args(const char *command, int argc, char **argv, const char **input,
                     const char **output)
{
    const char *format = NULL;
    *input = *output = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
            *output = argv[++i];
        else if (argv[i][0] == '-')
            return cli_error(NULL, "%s: unknown option '%s'", command, argv[i]);
        else if (!format)
            format = argv[i];
        else if (!*input)
            *input = argv[i];
        else
            return cli_error(NULL, "%s: unexpected argument '%s'", command, argv[i]);
    }
    if (!format || !*input || !*output)
        return cli_error(NULL, "%s needs a format, an input and -o; see 'warpscope %s --help'",
                         command, command);
    if (strcmp(format, "accelsim") != 0)
        return cli_error(NULL, "%s: unknown trace format '%s' (known: accelsim)", command, format);
    return 0;
}

int cli_parse_cache_op(const char *text, int *ignore)
{
    if (strcmp(text, "honour") != 0 && strcmp(text, "ignore") != 0) {
        cli_error(NULL, "--cache-op: honour or ignore, not '%s'", text);
        return -1;
    }
    *ignore = strcmp(text, "ignore") == 0;
    return 0;
}

/* Whether the usage lists the option: its name as a whole word. */
static int documented(const char *usage, const char *name, size_t len)
{
    for (const char *p = usage; p && *p; p++) {
        if (strncmp(p, name, len) != 0)
            continue;
        char before = p == usage ? ' ' : p[-1], after = p[len];
        if ((before == ' ' || before == '[' || before == '(' || before == ',') &&
            !(after == '-' || (after >= 'a' && after <= 'z') || (after >= '0' && after <= '9')))
            return 1;
    }
    return 0;
}

int cli_option_problem(const char *command, const char *opt)
{
    const char *eq = strchr(opt, '=');
    size_t len = eq ? (size_t)(eq - opt) : strlen(opt);
    if (!documented(cli_usage(command), opt, len))
        return cli_error(NULL, "%s: unknown option '%.*s'; see 'warpscope %s --help'", command, (int)len,
                         opt, command);
    if (eq)
        return cli_error(NULL, "%s: '%s': write '%.*s' alone (a switch) or '%.*s VALUE'", command, opt,
                         (int)len, opt, (int)len, opt);
    return cli_error(NULL, "%s: %s needs a value", command, opt);
}
