/* reports/html_top_kernels.c: a section per kernel for the kernels with
 * most line requests (launches of one name merged), with an index of
 * anchors: its launches, requests, replay figures and its busiest load
 * PCs, so one kernel's picture is one link away. */
#include "reports/html_extra.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/html_page.h"
#include "reports/pc_label.h"
#include "reports/svg.h"

#define TOP_PCS 10

typedef struct kernel_total {
    const char *name;
    double requests;
} kernel_total;

static int by_requests_desc(const void *a, const void *b)
{
    const kernel_total *x = a, *y = b;
    return (x->requests < y->requests) - (x->requests > y->requests);
}

/* Distinct kernel names with their PCs' requests summed; NULL out of memory. */
static kernel_total *totals(const pc_groups *pcs, size_t *count)
{
    kernel_total *t = calloc(pcs->count + 1, sizeof *t);
    size_t n = 0;
    for (size_t i = 0; t && i < pcs->count; i++) {
        size_t k = 0;
        while (k < n && strcmp(t[k].name, pcs->items[i].kernel) != 0)
            k++;
        if (k == n)
            t[n++] = (kernel_total){pcs->items[i].kernel, 0};
        t[k].requests += pcs->items[i].requests;
    }
    *count = n;
    if (t)
        qsort(t, n, sizeof *t, by_requests_desc);
    return t;
}

static const kernel_group *group_of(const kernel_groups *g, const char *name)
{
    for (size_t i = 0; i < g->count; i++)
        if (strcmp(g->items[i].name, name) == 0)
            return &g->items[i];
    return NULL;
}

static void card(FILE *out, const char *label, const char *value)
{
    fputs("<div class=\"card\"><b>", out);
    xml_escape(out, value);
    fputs("</b><span>", out);
    xml_escape(out, label);
    fputs("</span></div>", out);
}

static int pc_by_requests_desc(const void *a, const void *b)
{
    const pc_group *x = *(const pc_group *const *)a, *y = *(const pc_group *const *)b;
    return (x->requests < y->requests) - (x->requests > y->requests);
}

static void pc_rows(FILE *out, const pc_groups *pcs, const char *name)
{
    const pc_group **mine = calloc(pcs->count + 1, sizeof *mine);
    size_t n = 0;
    for (size_t i = 0; mine && i < pcs->count; i++)
        if (strcmp(pcs->items[i].kernel, name) == 0 && pcs->items[i].place.kind == PC_KIND_LOAD &&
            pcs->items[i].requests > 0)
            mine[n++] = &pcs->items[i];
    if (n == 0) {
        html_absent(out, "No load of this kernel made a counted request.");
        free(mine);
        return;
    }
    qsort(mine, n, sizeof *mine, pc_by_requests_desc);
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>load PC</th><th>source</th>"
          "<th>requests</th><th>U (line)</th><th>L1 hit rate</th><th>bypass</th></tr></thead>\n"
          "<tbody>\n",
          out);
    for (size_t i = 0; i < n && i < TOP_PCS; i++) {
        char label[120], source[220];
        pc_group_label(mine[i], label, sizeof label, 40);
        pc_group_source(mine[i], source, sizeof source);
        fputs("<tr>", out);
        html_cell(out, "code", label);
        html_cell(out, "code", source);
        html_cell(out, "n", numfmt_count(mine[i]->requests).s);
        html_cell(out, "n", numfmt_percent(pc_group_u_line(mine[i])).s);
        html_cell(out, "n", numfmt_percent(pc_group_l1_hit_rate(mine[i])).s);
        html_cell(out, NULL, mine[i]->bypass_seen == 0           ? "n/a"
                             : 2 * mine[i]->bypass_yes > mine[i]->bypass_seen ? "bypass"
                                                                            : "keep");
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    free(mine);
}

static void kernel_section(FILE *out, const kernel_digest *d, const kernel_total *k, size_t rank)
{
    char label[300];
    kernel_label(label, sizeof label, k->name, 0);
    fprintf(out, "<section id=\"kernel-%zu\" class=\"kernel\">\n<h2>Kernel %zu: <code>", rank + 1,
            rank + 1);
    xml_escape(out, label);
    fputs("</code></h2>\n<div class=\"cards\">", out);
    const kernel_group *g = group_of(&d->kernels, k->name);
    card(out, "line requests", numfmt_count(k->requests).s);
    if (g) {
        card(out, "launches", numfmt_count((double)g->count).s);
        card(out, "replay L1 hit rate", numfmt_percent(replay_sums_l1_hit_rate(&g->sums)).s);
        card(out, "replay L2 hit rate", numfmt_percent(replay_sums_l2_hit_rate(&g->sums)).s);
        card(out, "L1\xe2\x86\x92L2 bytes", numfmt_bytes(g->sums.l1_to_l2_bytes).s);
        card(out, "MPLI mean", numfmt(NUMFMT_PLAIN, replay_sums_mpli(&g->sums)).s);
    }
    fputs("</div>\n", out);
    html_subtitle(out, "Its load PCs with most requests");
    pc_rows(out, &d->pcs, k->name);
    fputs("<p class=\"how\"><a href=\"#top-kernels\">back to the kernel index</a></p>\n</section>\n",
          out);
}

void html_top_kernels(FILE *out, const kernel_digest *d)
{
    size_t n = 0;
    kernel_total *t = totals(&d->pcs, &n);
    fputs("<section id=\"top-kernels\">\n<h2>Top kernels</h2>\n<p class=\"how\">The kernels with "
          "the most line requests, launches of one name merged, each with a section of its own: "
          "its figures and its busiest load PCs.</p>\n",
          out);
    if (!t || n == 0) {
        html_absent(out, "No kernel made a counted request.");
        fputs("</section>\n", out);
        free(t);
        return;
    }
    size_t shown = n < HTML_TOP_KERNELS ? n : HTML_TOP_KERNELS;
    fputs("<ol class=\"kernel-index\">", out);
    for (size_t i = 0; i < shown; i++) {
        char label[300];
        kernel_label(label, sizeof label, t[i].name, 60);
        fprintf(out, "<li><a href=\"#kernel-%zu\"><code>", i + 1);
        xml_escape(out, label);
        fprintf(out, "</code></a> %s requests</li>", numfmt_count(t[i].requests).s);
    }
    fputs("</ol>\n", out);
    if (n > shown)
        fprintf(out, "<p class=\"how\">%zu more kernels are in the tables above.</p>\n", n - shown);
    fputs("</section>\n", out);
    for (size_t i = 0; i < shown; i++)
        kernel_section(out, d, &t[i], i);
    free(t);
}
