/* reports/html_kernels.c: the cache replay per kernel, inside the replay
 * section: one row per kernel name, its launches summed
 * (reports/kernel_groups.h), and under the table each name's launches in a
 * <details> that opens on their own rows (no script: the page has none). */
#include "reports/html_page.h"
#include "reports/html_pc_cells.h"
#include "reports/kernel_groups.h"
#include "reports/numfmt.h"
#include "reports/pc_label.h"
#include "reports/svg.h"


#define KERNEL_NAME_WIDTH 48

static const char figure_heads[] =
    "<th>L1 requests</th><th>L1 hit rate</th><th>L2 hit rate</th>"
    "<th>L1\xe2\x86\x92L2 bytes</th><th>DRAM read bytes</th><th>MPLI mean</th>";

static void figure_cells(FILE *out, const replay_sums *s)
{
    html_cell(out, "n", numfmt_count(s->l1_requests).s);
    html_cell(out, "n", numfmt_percent(replay_sums_l1_hit_rate(s)).s);
    html_cell(out, "n", numfmt_percent(replay_sums_l2_hit_rate(s)).s);
    html_cell(out, "n", numfmt_bytes(s->l1_to_l2_bytes).s);
    html_cell(out, "n", numfmt_bytes(s->dram_read_bytes).s);
    html_cell(out, "n", numfmt(NUMFMT_PLAIN, replay_sums_mpli(s)).s);
}

/* The demangled name, shortened to fit; the whole of it, and the mangled
 * name the trace holds, on hover. */
static void name_cell(FILE *out, const char *name)
{
    char label[KERNEL_NAME_WIDTH + 8], full[KERNEL_LABEL_MAX], hover[2 * KERNEL_LABEL_MAX];
    kernel_label(label, sizeof label, name, KERNEL_NAME_WIDTH);
    kernel_label(full, sizeof full, name, 0);
    mangled_hover(hover, sizeof hover, full, name);
    fputs("<td>", out);
    html_code_shortened(out, label, hover);
    fputs("</td>", out);
}

static void launches(FILE *out, const kernel_group *g)
{
    char label[KERNEL_NAME_WIDTH + 8];
    kernel_label(label, sizeof label, g->name, KERNEL_NAME_WIDTH);
    fputs("<details><summary>", out);
    xml_escape(out, label);
    fprintf(out, ": its %zu launches</summary>\n<div class=\"scroll\"><table>\n<thead><tr>"
                 "<th>launch</th>%s</tr></thead>\n<tbody>\n",
            g->count, figure_heads);
    size_t shown = g->count < KERNEL_GROUP_LAUNCHES_KEPT ? g->count : KERNEL_GROUP_LAUNCHES_KEPT;
    for (size_t i = 0; i < shown; i++) {
        char index[24];
        snprintf(index, sizeof index, "%zu", g->launches[i].index);
        fputs("<tr>", out);
        html_cell(out, "n", index);
        figure_cells(out, &g->launches[i].sums);
        fputs("</tr>\n", out);
    }
    if (shown < g->count)
        fprintf(out, "<tr><td colspan=\"7\">and %zu more</td></tr>\n", g->count - shown);
    fputs("</tbody></table></div>\n</details>\n", out);
}

void html_kernel_table(FILE *out, const kernel_groups *groups)
{
    if (groups->count == 0)
        return;
    fprintf(out, "<h3>Per kernel</h3>\n<div class=\"scroll\"><table>\n<thead><tr><th>kernel</th>"
                 "<th>launches</th>%s</tr></thead>\n<tbody>\n",
            figure_heads);
    for (size_t i = 0; i < groups->count; i++) {
        const kernel_group *g = &groups->items[i];
        fputs("<tr>", out);
        name_cell(out, g->name);
        html_cell(out, "n", numfmt_count((double)g->count).s);
        figure_cells(out, &g->sums);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    for (size_t i = 0; i < groups->count; i++)
        if (groups->items[i].count > 1)
            launches(out, &groups->items[i]);
}
