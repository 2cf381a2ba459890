/* cli/cmd_report.c: `warpscope report`: draws a saved report.json. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/html.h"
#include "reports/report_doc.h"
#include "reports/report_keys.h"
#include "reports/term.h"

static const char usage[] =
    "usage: warpscope report REPORT.json [--html OUT.html] [--summary]\n\n"
    "Reads a report written by 'warpscope analyze -o' (docs/report-schema.md)\n"
    "and nothing else.\n\n"
    "  --html FILE   write the self-contained HTML report: heatmaps, curves and\n"
    "                tables as inline SVG, no network needed (docs/html-report.md)\n"
    "  --summary     print the key figures (the default without --html)\n\n"
    "example:\n"
    "  warpscope analyze gaussian.wst --gpu fermi -o report.json\n"
    "  warpscope report report.json --html report.html\n";

static void print_summary(const json_t *doc)
{
    report_key keys[REPORT_KEYS_MAX];
    size_t n = report_keys(doc, keys);
    for (size_t i = 0; i < n; i++) {
        /* Pad by characters, not bytes: labels may hold UTF-8 (μRC). */
        int chars = 0;
        for (const char *c = keys[i].label; *c; c++)
            chars += ((unsigned char)*c & 0xc0) != 0x80;
        printf("%s%*s ", keys[i].label, chars < 28 ? 28 - chars : 0, "");
        term_wrap(stdout, term_width(stdout), (unsigned)(chars < 28 ? 28 : chars) + 1, 29,
                  keys[i].value);
    }
}

static int run(int argc, char **argv)
{
    const char *input = NULL, *html = NULL;
    int summary = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--html") == 0) {
            if (i + 1 >= argc)
                return cli_error(NULL, "report: --html needs a file name");
            html = argv[++i];
        } else if (strcmp(argv[i], "--summary") == 0) {
            summary = 1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_error(NULL, "report: unknown option '%s'; see 'warpscope report --help'", argv[i]);
        } else if (input) {
            return cli_error(NULL, "report takes one report file");
        } else {
            input = argv[i];
        }
    }
    if (!input)
        return cli_error(NULL, "report needs a report.json; see 'warpscope report --help'");
    ws_error err;
    json_t *doc = report_doc_load(input, &err);
    if (!doc)
        return cli_fail(input, &err);
    int status = 0;
    if (html && html_report_write(doc, NULL, html, &err) != 0)
        status = cli_fail(html, &err);
    if (status == 0 && (summary || !html))
        print_summary(doc);
    json_decref(doc);
    return status;
}

const cli_command cmd_report = {"report", "draws a saved report.json: HTML report or key figures",
                                usage, run};
