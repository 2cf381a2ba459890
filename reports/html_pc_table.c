/* reports/html_pc_table.c: the load PC table, one row per (kernel name,
 * PC) with the launches of a kernel merged (reports/pc_groups.h) and each
 * launch's figures on demand; the bypass verdict with its reason
 * (reports/pc_verdict.h).  Store and atomic PCs have their own table
 * (html_store_pcs.c). */
#include "reports/html_page.h"
#include "reports/html_pc_cells.h"
#include "reports/numfmt.h"
#include "reports/pc_verdict.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

static const launch_column launch_columns[] = {
    {"requests", LAUNCH_REQUESTS, 0},
    {"L1 hit rate", LAUNCH_L1_HIT_RATE, 1},
};

static void verdict_cells(FILE *out, const pc_group *g)
{
    html_cell(out, "n", numfmt_percent(pc_group_bypass_share(g)).s);
    pc_verdict v = pc_verdict_of(g);
    fputs("<td class=\"verdict\">", out);
    if (v.word) {
        fputs("<b>", out);
        xml_escape(out, v.word);
        fputs("</b><span class=\"why\">", out);
        xml_escape(out, v.reason);
        fputs("</span>", out);
    } else {
        fputs("n/a", out);
    }
    fputs("</td>", out);
}

static void table_row(FILE *out, const pc_group *g, int hints)
{
    fputs("<tr>", out);
    html_pc_cell(out, g);
    html_launches_cell(out, g, launch_columns, sizeof launch_columns / sizeof launch_columns[0]);
    html_cell(out, "n", numfmt_count(g->executions).s);
    html_cell(out, "n", numfmt_count(g->requests).s);
    html_cell(out, "n", numfmt_percent(pc_group_u_line(g)).s);
    const char *cls = pc_group_class(g);
    html_cell(out, NULL, cls ? cls : "n/a");
    html_cell(out, "n", numfmt_percent(pc_group_l1_hit_rate(g)).s);
    if (hints)
        verdict_cells(out, g);
    fputs("</tr>\n", out);
}

void html_pc_table(FILE *out, const json_t *doc, const pc_groups *pcs)
{
    html_section_begin(out, "pc-table");
    size_t loads = 0;
    int hints = 0;
    for (size_t i = 0; i < pcs->count; i++)
        if (pcs->items[i].place.kind == PC_KIND_LOAD) {
            loads++;
            hints |= pcs->items[i].bypass_seen > 0;
        }
    if (loads == 0) {
        html_absent(out, "This report lists no load PCs.");
        html_section_end(out);
        return;
    }
    char heads[256];
    snprintf(heads, sizeof heads, "<th>launches</th><th>executions</th><th>requests</th>"
                                  "<th>U (line)</th><th>locality</th><th>L1 hit rate</th>%s",
             hints ? "<th>bypass-worthy</th><th>verdict, and why</th>" : "");
    html_pc_rows(out, pcs, 1, heads, table_row, hints);
    if (!hints)
        fputs("<p class=\"how\">No bypass verdicts: this report has no bypass hints "
              "(warpscope profile writes them; docs/metrics.md \xc2\xa7" "9).</p>\n",
              out);
    html_section_end(out);
}
