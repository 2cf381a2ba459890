/* cli/cmd_report.c: `warpscope report`: draws a saved report.json. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "reports/baseline_text.h"
#include "reports/html.h"
#include "reports/report_doc.h"
#include "reports/report_keys.h"
#include "reports/run_docs.h"
#include "reports/term.h"

static const char usage[] =
    "usage: warpscope report REPORT.json [--html OUT.html] [--summary]\n"
    "                        [--baseline OLD.json] [--source-dir DIR]\n\n"
    "Reads a report written by 'warpscope analyze -o' or 'profile'\n"
    "(docs/report-schema.md), or the JSON of 'replay -o', 'compare -o' or\n"
    "'sweep -o', and nothing else.\n\n"
    "  --html FILE        write the self-contained HTML page: heatmaps, curves and\n"
    "                     tables as inline SVG, no network needed (docs/html-report.md)\n"
    "  --summary          print the key figures (the default without --html)\n"
    "  --baseline FILE    draw the report beside an earlier report.json, as Nsight\n"
    "                     Compute's baselines: every figure of both with its change,\n"
    "                     absolute and relative; kernels matched by name, those of\n"
    "                     one report only listed\n"
    "  --source-dir DIR   where the HTML source view looks for the trace's source\n"
    "                     files first (then where the trace's paths say)\n\n"
    "examples:\n"
    "  warpscope analyze gaussian.wst --gpu fermi -o report.json\n"
    "  warpscope report report.json --html report.html\n"
    "  warpscope report new.json --baseline old.json --html diff.html\n"
    "  warpscope report compare.json\n";

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
    const char *input = NULL, *html = NULL, *baseline_path = NULL, *source_dir = NULL;
    int summary = 0;
    for (int i = 1; i < argc; i++) {
        const char **valued = strcmp(argv[i], "--html") == 0         ? &html
                              : strcmp(argv[i], "--baseline") == 0   ? &baseline_path
                              : strcmp(argv[i], "--source-dir") == 0 ? &source_dir
                                                                     : NULL;
        if (valued) {
            if (i + 1 >= argc)
                return cli_error(NULL, "report: %s needs a %s", argv[i],
                                 valued == &source_dir ? "directory" : "file name");
            *valued = argv[++i];
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
    run_doc_kind kind = RUN_DOC_REPORT;
    kernel_spool *kernels; /* the report's, read one at a time */
    json_t *doc = run_doc_load(input, &kind, &kernels, &err);
    if (!doc)
        return cli_fail(input, &err);
    int status = 0;
    if (kind != RUN_DOC_REPORT) {
        if (baseline_path)
            status = cli_error(input, "--baseline compares two reports of analyze or profile; "
                                      "this is a %s document", run_doc_schema(kind));
        else if (html && run_doc_html_write(doc, kind, html, &err) != 0)
            status = cli_fail(html, &err);
        if (status == 0 && (summary || !html))
            run_doc_print(stdout, doc, kind);
        json_decref(doc);
        return status;
    }
    json_t *old = NULL;
    if (baseline_path && !(old = report_doc_load(baseline_path, &err)))
        status = cli_fail(baseline_path, &err);
    html_options options = {old, baseline_path, source_dir};
    if (status == 0 && html && html_report_write_with(doc, kernels, html, &options, &err) != 0)
        status = cli_fail(html, &err);
    if (status == 0 && (summary || !html)) {
        if (old) {
            baseline b;
            if (baseline_build(&b, doc, kernels, old, &err) != 0) {
                status = cli_fail(NULL, &err);
            } else {
                baseline_print(stdout, &b, input, baseline_path);
                baseline_free(&b);
            }
        } else {
            print_summary(doc);
        }
    }
    json_decref(old);
    json_decref(doc);
    kernel_spool_free(kernels);
    return status;
}

const cli_command cmd_report = {"report", "draws a saved report.json (or replay, compare, sweep JSON), against a baseline",
                                usage, run};
