/* cli/trace_filter.c: see trace_filter.h. */
#include "cli/trace_filter.h"

#include <string.h>

#include "cli/cli.h"

/* The commands that read a .wst trace, so take the filter. */
static const char *const trace_commands[] = {
    "analyze", "replay", "compare", "sweep", "profile", "bypass", "dump", "info", "export", "diff",
};

/* The filter of this run: set once, by cli_trace_filter_take in main,
 * before the command runs. */
static kernel_filter chosen;

static int reads_traces(const char *command)
{
    for (size_t i = 0; i < sizeof trace_commands / sizeof trace_commands[0]; i++)
        if (strcmp(trace_commands[i], command) == 0)
            return 1;
    return 0;
}

/* The option argv[i] names (with its value inline after '=' or next), or
 * NULL when it is none of ours. */
static const char *option_of(const char *arg, const char **inline_value)
{
    static const char *const names[] = {"-k", "--kernel-name", "--launch-skip", "--launch-count"};
    *inline_value = NULL;
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        size_t len = strlen(names[n]);
        if (strncmp(arg, names[n], len) != 0)
            continue;
        if (arg[len] == '\0')
            return names[n];
        if (arg[len] == '=' && names[n][1] == '-') {
            *inline_value = arg + len + 1;
            return names[n];
        }
    }
    return NULL;
}

int cli_trace_filter_take(int *argc, char **argv)
{
    int out = 1, reads = reads_traces(argv[0]);
    for (int i = 1; i < *argc; i++) {
        const char *value, *name = NULL;
        if (strcmp(argv[i], "--") == 0) { /* the rest belongs to a program (profile -- ...) */
            while (i < *argc)
                argv[out++] = argv[i++];
            break;
        }
        name = option_of(argv[i], &value);
        if (!name) {
            argv[out++] = argv[i];
            continue;
        }
        if (!reads)
            return cli_error(NULL, "%s: %s: this command reads no trace, so takes no kernel filter",
                             argv[0], name);
        if (!value) {
            if (i + 1 >= *argc)
                return cli_error(NULL, "%s: %s needs a value", argv[0], name);
            value = argv[++i];
        }
        unsigned long long n = 0;
        if (strcmp(name, "-k") == 0 || strcmp(name, "--kernel-name") == 0) {
            if (!*value)
                return cli_error(NULL, "%s: %s needs a kernel name or regex:EXPR", argv[0], name);
            chosen.name = value;
        } else if (cli_parse_u64(name, value, &n) != 0) {
            return 1;
        } else if (strcmp(name, "--launch-skip") == 0) {
            chosen.launch_skip = n;
        } else {
            if (n == 0)
                return cli_error(NULL, "%s: --launch-count: at least 1, not 0", argv[0]);
            chosen.launch_count = n;
        }
    }
    argv[out] = NULL;
    *argc = out;
    ws_error err;
    if (kernel_filter_check(&chosen, &err) != 0)
        return cli_fail(NULL, &err);
    return 0;
}

const kernel_filter *cli_trace_filter(void) { return &chosen; }

wst_reader *cli_open_trace(const char *path, ws_error *err)
{
    wst_reader *r = wst_reader_open(path, err);
    if (r && kernel_filter_apply(&chosen, r, err) != 0) {
        wst_reader_close(r);
        return NULL;
    }
    return r;
}

void cli_trace_filter_usage(const char *command, FILE *out)
{
    if (!reads_traces(command))
        return;
    fputs("\nkernel filters (as Nsight Compute's; the command then reads only the launches\n"
          "chosen, numbered from 0 in launch order):\n"
          "  -k, --kernel-name NAME  launches of the kernel NAME: its mangled name, its\n"
          "                          demangled name, or the function name alone (Fan1);\n"
          "                          regex:EXPR takes the launches whose mangled or\n"
          "                          demangled name contains a match of the POSIX extended\n"
          "                          regular expression EXPR (-k 'regex:^_Z4Fan')\n"
          "  --launch-skip N         leave out the first N launches that match\n"
          "  --launch-count N        then read at most N launches\n"
          "A filter that matches no launch is an error naming the trace.\n",
          out);
}
