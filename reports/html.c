/* reports/html.c: the page around the sections (see html.h). */
#include "util/papers.h"
#include "reports/html.h"

#include "reports/html_extra.h"
#include "reports/html_page.h"
#include "reports/kernel_digest.h"
#include "reports/report_doc.h"
#include "reports/svg.h"
#include "util/outfile.h"

/* No script, no external anything: the policy below makes the browser
 * refuse any fetch, so the file is provably self-contained. */
static const char head[] =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
    "style-src 'unsafe-inline'; img-src data:\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";

static const char style[] =
    "<style>\n"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;"
    "margin:0;background:#fafafa}\n"
    "main{max-width:1240px;margin:0 auto;padding:16px 24px 48px}\n"
    "h1{font-size:22px;margin:8px 0 4px}h2{font-size:18px;margin:0 0 6px}"
    "h3{font-size:14px;margin:14px 0 4px;color:#444}\n"
    "section,header{background:#fff;border:1px solid #e2e2e2;border-radius:6px;"
    "padding:14px 18px;margin:16px 0}\n"
    "p.how{color:#555;margin:0 0 8px;max-width:80ch}p.absent{color:#777;font-style:italic}\n"
    "p.verdict{font-size:16px;margin:8px 0}\n"
    "nav a{margin-right:12px;white-space:nowrap}\n"
    "dl.columns{display:grid;grid-template-columns:max-content minmax(0,80ch);gap:2px 12px;"
    "margin:0 0 10px;color:#555}dl.columns dt{font-weight:600}dl.columns dd{margin:0}\n"
    "dl.context{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:8px 0}"
    "dl.context dt{color:#666}dl.context dd{margin:0;word-break:break-all}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:8px;margin:10px 0}"
    ".card{border:1px solid #e2e2e2;border-radius:6px;padding:6px 12px;min-width:120px;"
    "display:flex;flex-direction:column-reverse}"
    ".card b{display:block;font-size:20px}.card span{color:#666;font-size:12px}\n"
    "svg{max-width:100%;height:auto;display:block;margin:6px 0;shape-rendering:crispEdges}\n"
    "svg text{font:11px system-ui,sans-serif;fill:#333;shape-rendering:auto}"
    "svg text.title{font-size:12px;fill:#222}svg text.note{fill:#555}\n"
    "svg .axis{stroke:#666;stroke-width:1}svg .grid{stroke:#e6e6e6;stroke-width:1}"
    "svg .marker{stroke:#999;stroke-dasharray:4 3}"
    "svg .capacity{stroke:#d62728;stroke-width:1.5;stroke-dasharray:5 3}\n"
    "svg polyline,svg circle{shape-rendering:auto}\n"
    ".scroll{overflow-x:auto}\n"
    "table{border-collapse:collapse;font-size:13px}th,td{padding:3px 8px;"
    "border-bottom:1px solid #eee;text-align:left;vertical-align:top}"
    "th{background:#f4f4f4;position:sticky;top:0}td.n{text-align:right;"
    "font-variant-numeric:tabular-nums}td.code{font-family:ui-monospace,monospace}\n"
    "td.pc{max-width:22em}td.pc code{white-space:nowrap}td .src{display:block;color:#666;font-size:12px;overflow-wrap:anywhere}"
    "td.verdict{min-width:14em;max-width:36em}td.verdict .why{display:block;color:#555;"
    "font-size:12px}\n"
    "summary{cursor:pointer}table.launches{font-size:12px;margin:2px 0 4px auto}"
    "table.launches th,table.launches td{padding:1px 6px}\n"
    "footer{color:#777;font-size:12px}\n"
    "</style>\n</head>\n";

void html_section_begin(FILE *out, const char *id)
{
    const html_section_text *text = html_section_find(id);
    fputs("<section id=\"", out);
    xml_escape(out, id);
    fputs("\">\n<h2>", out);
    xml_escape(out, text ? text->title : id);
    fputs("</h2>\n<p class=\"how\">", out);
    xml_escape(out, text ? text->how : "");
    fputs("</p>\n", out);
    const html_column_text *columns = html_section_columns(id);
    if (!columns)
        return;
    fputs("<dl class=\"columns\">", out);
    for (const html_column_text *c = columns; c->name; c++) {
        fputs("<dt>", out);
        xml_escape(out, c->name);
        fputs("</dt><dd>", out);
        xml_escape(out, c->meaning);
        fputs("</dd>", out);
    }
    fputs("</dl>\n", out);
}

void html_section_end(FILE *out)
{
    fputs("</section>\n", out);
}

void html_absent(FILE *out, const char *what)
{
    fputs("<p class=\"absent\">", out);
    xml_escape(out, what);
    fputs("</p>\n", out);
}

void html_note(FILE *out, const char *text)
{
    fputs("<p class=\"how\">", out);
    xml_escape(out, text);
    fputs("</p>\n", out);
}

void html_subtitle(FILE *out, const char *text)
{
    fputs("<h3>", out);
    xml_escape(out, text);
    fputs("</h3>\n", out);
}

void html_cell(FILE *out, const char *cls, const char *text)
{
    if (cls)
        fprintf(out, "<td class=\"%s\">", cls);
    else
        fputs("<td>", out);
    xml_escape(out, text);
    fputs("</td>", out);
}

void html_page_open(FILE *out, const char *title)
{
    fputs(head, out);
    fputs("<title>", out);
    xml_escape(out, title);
    fputs("</title>\n", out);
    fputs(style, out);
    fputs("<body>\n<main>\n", out);
}

static void page(FILE *out, const json_t *doc, const kernel_digest *d, const html_options *o,
                 const baseline *b)
{
    const pc_groups *pcs = &d->pcs;
    char title[512];
    const char *trace = report_str(doc, "trace.path");
    snprintf(title, sizeof title, "warpscope report: %s", trace ? trace : "?");
    html_page_open(out, title);
    html_summary(out, doc);
    fputs("<nav>", out);
    for (size_t i = 0; i < html_section_count; i++)
        fprintf(out, "<a href=\"#%s\">%s</a>", html_sections[i].id, html_sections[i].nav);
    /* Spaced, so that the line may break between them. */
    fputs(" <a href=\"#top-kernels\">top kernels</a> <a href=\"#source\">source</a>", out);
    if (b)
        fputs(" <a href=\"#baseline\">baseline</a>", out);
    fputs("</nav>\n", out);
    if (b)
        html_baseline(out, b, o->baseline_path ? o->baseline_path : "?");
    html_bypass(out, doc);
    html_pc_reuse(out, doc, pcs);
    html_sm_sharing(out, doc);
    html_cta_distance(out, doc, d->largest_cta_distance);
    html_access_map(out, doc);
    html_mrc(out, doc);
    html_replay(out, doc, &d->kernels);
    html_memory(out, doc, &d->lines);
    html_mpli(out, doc);
    html_remote_holders(out, doc);
    html_policy_compare(out, doc);
    html_pc_table(out, doc, pcs);
    html_store_pcs(out, doc, pcs);
    html_top_kernels(out, d);
    html_source_view(out, d, o ? o->source_dir : NULL);
    fputs("<footer><p>", out);
    xml_escape(out, report_str(doc, "not_claimed"));
    fputs("</p><p>Written by warpscope ", out);
    xml_escape(out, report_str(doc, "warpscope_version"));
    fprintf(out, " from a report of schema version %d (docs/report-schema.md).</p><p>S0-S4 name the papers "
          "warpscope implements (full citations in docs/references.md):", REPORT_VERSION);
    for (size_t i = 0; i < WS_PAPER_COUNT; i++) {
        fprintf(out, "%s %s ", i ? ";" : "", ws_papers[i].tag);
        xml_escape(out, ws_papers[i].about);
    }
    fputs(".</p></footer>\n", out);
    fputs("</main>\n</body>\n</html>\n", out);
}

int html_report_write(const json_t *report, kernel_spool *kernels, const char *out_path,
                      ws_error *err)
{
    return html_report_write_with(report, kernels, out_path, NULL, err);
}

int html_report_write_with(const json_t *report, kernel_spool *kernels, const char *out_path,
                           const html_options *o, ws_error *err)
{
    if (report_doc_check(report, err) != 0)
        return -1;
    baseline b;
    int with_baseline = o && o->baseline;
    if (with_baseline && baseline_build(&b, report, kernels, o->baseline, err) != 0)
        return -1;
    kernel_digest digest;
    if (kernel_digest_build(&digest, report, kernels, err) != 0) {
        if (with_baseline)
            baseline_free(&b);
        return -1;
    }
    ws_outfile *out = ws_outfile_open(out_path, err);
    if (out)
        page(ws_outfile_stream(out), report, &digest, o, with_baseline ? &b : NULL);
    kernel_digest_free(&digest);
    if (with_baseline)
        baseline_free(&b);
    return out ? ws_outfile_commit(out, err) : -1;
}
