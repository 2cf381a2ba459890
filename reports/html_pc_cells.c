/* reports/html_pc_cells.c: see html_pc_cells.h. */
#include "reports/html_pc_cells.h"

#include <math.h>
#include <string.h>

#include "reports/html_page.h"
#include "reports/numfmt.h"
#include "reports/pc_label.h"
#include "reports/report_doc.h"
#include "reports/svg.h"


void html_code_shortened(FILE *out, const char *text, const char *full)
{
    fputs("<code", out);
    if (strcmp(text, full) != 0) {
        fputs(" title=\"", out);
        xml_escape(out, full);
        fputc('"', out);
    }
    fputc('>', out);
    xml_escape(out, text);
    fputs("</code>", out);
}

void html_pc_cell(FILE *out, const pc_group *g)
{
    char label[128], full[KERNEL_LABEL_MAX], hover[2 * KERNEL_LABEL_MAX], source[128];
    pc_group_label(g, label, sizeof label, PC_CELL_LABEL_WIDTH);
    pc_group_label(g, full, sizeof full, 0);
    mangled_hover(hover, sizeof hover, full, g->kernel);
    fputs("<td class=\"pc\">", out);
    html_code_shortened(out, label, hover);
    pc_group_source(g, source, sizeof source);
    const char *sass = g->place.sass;
    if (*source || sass) {
        fputs("<span class=\"src\">", out);
        xml_escape(out, source);
        if (*source && sass)
            fputs(" \xc2\xb7 ", out);
        xml_escape(out, sass ? sass : "");
        fputs("</span>", out);
    }
    fputs("</td>", out);
}

double pc_launch_figure(const pc_launch *l, launch_figure figure)
{
    switch (figure) {
    case LAUNCH_EXECUTIONS:
        return l->executions;
    case LAUNCH_REQUESTS:
        return l->requests;
    case LAUNCH_L1_HIT_RATE:
        return l->l1_hit_rate;
    }
    return NAN;
}

static void launch_row(FILE *out, const pc_launch *l, const launch_column *columns, size_t n)
{
    char index[24];
    snprintf(index, sizeof index, "%zu", l->kernel);
    fputs("<tr>", out);
    html_cell(out, "n", index);
    for (size_t c = 0; c < n; c++) {
        double v = pc_launch_figure(l, columns[c].figure);
        html_cell(out, "n", columns[c].percent ? numfmt_percent(v).s : numfmt_count(v).s);
    }
    fputs("</tr>", out);
}

void html_launches_cell(FILE *out, const pc_group *g, const launch_column *columns, size_t n)
{
    if (g->launches < 2) {
        html_cell(out, "n", numfmt_count(g->launches).s);
        return;
    }
    fprintf(out, "<td class=\"n\"><details><summary>%u</summary><table class=\"launches\">"
                 "<thead><tr><th>launch</th>",
            g->launches);
    for (size_t c = 0; c < n; c++) {
        fputs("<th>", out);
        xml_escape(out, columns[c].title);
        fputs("</th>", out);
    }
    fputs("</tr></thead><tbody>", out);
    size_t shown = g->launches < PC_GROUP_LAUNCHES_KEPT ? g->launches : PC_GROUP_LAUNCHES_KEPT;
    for (size_t i = 0; i < shown; i++)
        launch_row(out, &g->launch_list[i], columns, n);
    if (shown < g->launches)
        fprintf(out, "<tr><td colspan=\"%zu\">and %zu more</td></tr>", n + 1, g->launches - shown);
    fputs("</tbody></table></details></td>", out);
}

static int selected(const pc_group *g, int loads)
{
    return (g->place.kind == PC_KIND_LOAD) == (loads != 0);
}

void html_pc_rows(FILE *out, const pc_groups *pcs, int loads, const char *heads,
                  void (*row)(FILE *out, const pc_group *g, int option), int option)
{
    fprintf(out, "<div class=\"scroll\"><table>\n<thead><tr><th>PC (file:line \xc2\xb7 SASS)</th>"
                 "%s</tr></thead>\n<tbody>\n",
            heads);
    size_t shown = 0, all = 0;
    for (size_t i = 0; i < pcs->count; i++) {
        if (!selected(&pcs->items[i], loads))
            continue;
        if (all++ < PC_TABLE_ROWS) {
            row(out, &pcs->items[i], option);
            shown++;
        }
    }
    fputs("</tbody></table></div>\n", out);
    if (shown < all)
        fprintf(out, "<p class=\"how\">The first %zu of %zu %s PCs are listed.</p>\n", shown, all,
                loads ? "load" : "store and atomic");
}
