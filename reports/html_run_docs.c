/* reports/html_run_docs.c: the HTML pages of the replay and compare
 * documents (reports/run_docs.h); a sweep's is html_sweep.c's. */
#include "reports/run_docs.h"

#include "reports/html_page.h"
#include "reports/html_sweep.h"
#include "reports/numfmt.h"
#include "reports/pc_label.h"
#include "reports/report_doc.h"
#include "reports/svg.h"
#include "util/outfile.h"

#define DRAWN_LAUNCHES 1000

static void header(FILE *out, const json_t *doc, const char *title)
{
    fprintf(out, "<header id=\"summary\">\n<h1>%s</h1>\n<dl class=\"context\">", title);
    const char *keys[][2] = {{"trace", "trace.path"}, {"GPU", "gpu.name"},
                             {"schedule", "schedule"}, {"cache operators", "cache_ops"},
                             {"kernel filter", "trace.kernel_filter"}};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const char *v = report_str(doc, keys[i][1]);
        if (!v && i == sizeof keys / sizeof keys[0] - 1)
            continue; /* no filter: every launch */
        fprintf(out, "<dt>%s</dt><dd>", keys[i][0]);
        xml_escape(out, v ? v : "?");
        fputs("</dd>", out);
    }
    fputs("</dl>\n</header>\n", out);
}

static const char replay_heads[] =
    "<th>L1 requests</th><th>L1 hit rate</th><th>L2 hit rate</th><th>L1\xe2\x86\x92L2 bytes</th>"
    "<th>DRAM read bytes</th><th>DRAM write bytes</th><th>\xce\xbcRC</th><th>MPLI mean</th>";

static void replay_cells(FILE *out, const json_t *r)
{
    html_cell(out, "n", numfmt_count(report_num(r, "l1.requests")).s);
    html_cell(out, "n", numfmt_percent(report_num(r, "l1.hit_rate")).s);
    html_cell(out, "n", numfmt_percent(report_num(r, "l2.hit_rate")).s);
    html_cell(out, "n", numfmt_bytes(report_num(r, "traffic.l1_to_l2_bytes")).s);
    html_cell(out, "n", numfmt_bytes(report_num(r, "traffic.l2_to_dram_read_bytes")).s);
    html_cell(out, "n", numfmt_bytes(report_num(r, "traffic.dram_write_bytes")).s);
    html_cell(out, "n", numfmt_percent(report_num(r, "urc")).s);
    html_cell(out, "n", numfmt(NUMFMT_PLAIN, report_num(r, "mpli.mean")).s);
}

static void replay_page(FILE *out, const json_t *doc)
{
    header(out, doc, "warpscope replay");
    fputs("<section id=\"replay\">\n<h2>Cache replay</h2>\n<p class=\"how\">The trace replayed "
          "through per-SM L1s and a shared L2 (docs/metrics.md \xc2\xa7" "7), L1 ",
          out);
    xml_escape(out, report_str(doc, "summary.l1_policy") ? report_str(doc, "summary.l1_policy") : "?");
    fputs(", L2 ", out);
    xml_escape(out, report_str(doc, "summary.l2_policy") ? report_str(doc, "summary.l2_policy") : "?");
    fprintf(out, ": the whole trace, then each launch.</p>\n<div class=\"scroll\"><table>\n"
                 "<thead><tr><th></th>%s</tr></thead>\n<tbody>\n<tr><td>whole trace</td>",
            replay_heads);
    replay_cells(out, report_at(doc, "summary"));
    fputs("</tr>\n</tbody></table></div>\n", out);
    const json_t *kernels = report_at(doc, "kernels");
    size_t n = json_array_size(kernels);
    fprintf(out, "<h3>Per launch</h3>\n<div class=\"scroll\"><table>\n<thead><tr><th>launch</th>"
                 "<th>kernel</th>%s</tr></thead>\n<tbody>\n",
            replay_heads);
    for (size_t i = 0; i < n && i < DRAWN_LAUNCHES; i++) {
        const json_t *k = json_array_get(kernels, i);
        char index[24], label[80];
        snprintf(index, sizeof index, "%g", report_num(k, "index"));
        kernel_label(label, sizeof label, report_str(k, "name"), 48);
        fputs("<tr>", out);
        html_cell(out, "n", index);
        html_cell(out, "code", label);
        replay_cells(out, k);
        fputs("</tr>\n", out);
    }
    if (n > DRAWN_LAUNCHES)
        fprintf(out, "<tr><td colspan=\"10\">and %zu more</td></tr>\n", n - DRAWN_LAUNCHES);
    fputs("</tbody></table></div>\n</section>\n", out);
}

static void compare_page(FILE *out, const json_t *doc)
{
    header(out, doc, "warpscope compare");
    /* The comparison section reads a report's "compare.policies". */
    json_t *wrapper = json_pack("{s:{s:O}}", "compare", "policies", report_at(doc, "policies"));
    if (wrapper)
        html_policy_compare(out, wrapper);
    json_decref(wrapper);
}

int run_doc_html_write(const json_t *doc, run_doc_kind kind, const char *out_path, ws_error *err)
{
    if (kind == RUN_DOC_SWEEP)
        return html_sweep_write(doc, out_path, err);
    if (kind != RUN_DOC_REPLAY && kind != RUN_DOC_COMPARE)
        return ws_fail(err, "no page for this document");
    ws_outfile *o = ws_outfile_open(out_path, err);
    if (!o)
        return -1;
    FILE *out = ws_outfile_stream(o);
    char title[512];
    const char *trace = report_str(doc, "trace.path");
    snprintf(title, sizeof title, "warpscope %s: %s", kind == RUN_DOC_REPLAY ? "replay" : "compare",
             trace ? trace : "?");
    html_page_open(out, title);
    if (kind == RUN_DOC_REPLAY)
        replay_page(out, doc);
    else
        compare_page(out, doc);
    fputs("<footer><p>Written by warpscope from a ", out);
    xml_escape(out, run_doc_schema(kind));
    fputs(" document (docs/report-schema.md).</p></footer>\n</main>\n</body>\n</html>\n", out);
    return ws_outfile_commit(o, err);
}
