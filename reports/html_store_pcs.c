/* reports/html_store_pcs.c: the store and atomic PCs, in a table of their
 * own: the load table's hit rate, locality and bypass verdict are about
 * loads (the per-PC replay counts load requests only), so a store there
 * could only read n/a.  Without --include-stores the analysis counts no
 * store (docs/metrics.md §2): the table then names the PCs, and says how
 * to count them. */
#include "reports/html_page.h"
#include "reports/html_pc_cells.h"
#include "reports/numfmt.h"
#include "reports/report_doc.h"

static const launch_column counted_columns[] = {
    {"executions", LAUNCH_EXECUTIONS, 0},
    {"requests", LAUNCH_REQUESTS, 0},
};

static void store_row(FILE *out, const pc_group *g, int counted)
{
    fputs("<tr>", out);
    html_pc_cell(out, g);
    html_cell(out, NULL, pc_kind_name(g->place.kind));
    html_launches_cell(out, g, counted_columns, counted ? 2 : 0);
    if (counted) {
        html_cell(out, "n", numfmt_count(g->executions).s);
        html_cell(out, "n", numfmt_count(g->requests).s);
        html_cell(out, "n", numfmt_percent(pc_group_u_line(g)).s);
    }
    fputs("</tr>\n", out);
}

void html_store_pcs(FILE *out, const json_t *doc, const pc_groups *pcs)
{
    html_section_begin(out, "store-pcs");
    size_t stores = 0;
    for (size_t i = 0; i < pcs->count; i++)
        stores += pcs->items[i].place.kind != PC_KIND_LOAD;
    if (stores == 0) {
        html_absent(out, "This report lists no store or atomic PCs.");
        html_section_end(out);
        return;
    }
    int counted = json_is_true(report_at(doc, "options.include_stores"));
    html_pc_rows(out, pcs, 0,
                 counted ? "<th>kind</th><th>launches</th><th>executions</th><th>requests</th>"
                           "<th>U (line)</th>"
                         : "<th>kind</th><th>launches</th>",
                 store_row, counted);
    if (!counted)
        fputs("<p class=\"how\">This analysis counted global loads only: "
              "<code>warpscope analyze --include-stores</code> counts these PCs' executions, "
              "requests and U too (docs/metrics.md \xc2\xa7" "2).</p>\n",
              out);
    html_section_end(out);
}
