/* reports/html_baseline.c: the baseline section of the HTML report
 * (reports/baseline.h): every figure of this run beside the baseline's,
 * with its change, absolute and relative; the kernels both runs launched,
 * matched by name; the kernels of one run only. */
#include "reports/html_extra.h"

#include <stdlib.h>

#include "reports/html_page.h"
#include "reports/pc_label.h"
#include "reports/svg.h"

static const char heads[] = "<th>this report</th><th>baseline</th><th>change</th><th>relative</th>";

static void figure_cells(FILE *out, const baseline_figure *f)
{
    html_cell(out, "n", numfmt(f->kind, f->now).s);
    html_cell(out, "n", numfmt(f->kind, f->then).s);
    html_cell(out, "n", baseline_change(f).s);
    html_cell(out, "n", baseline_relative(f).s);
}

/* Rows of named groups of figures (kernels, policies), the name spanning its rows. */
static void grouped_table(FILE *out, const char *what, const char *const *names,
                          const baseline_figure *const *figures, size_t groups, size_t per_group)
{
    fprintf(out, "<div class=\"scroll\"><table class=\"baseline-groups\">\n<thead><tr><th>%s</th>"
                 "<th>figure</th>%s</tr></thead>\n<tbody>\n",
            what, heads);
    for (size_t i = 0; i < groups; i++) {
        char label[300];
        kernel_label(label, sizeof label, names[i], 48);
        for (size_t f = 0; f < per_group; f++) {
            fputs("<tr>", out);
            if (f == 0) {
                fprintf(out, "<td rowspan=\"%zu\"><code>", per_group);
                xml_escape(out, label);
                fputs("</code></td>", out);
            }
            html_cell(out, NULL, figures[i][f].label);
            figure_cells(out, &figures[i][f]);
            fputs("</tr>\n", out);
        }
    }
    fputs("</tbody></table></div>\n", out);
}

static void only_in(FILE *out, const char *where, char *const *names, size_t n)
{
    if (n == 0)
        return;
    fputs("<h3>Kernels only in ", out);
    xml_escape(out, where);
    fputs(" (not compared)</h3>\n<ul class=\"only\">", out);
    for (size_t i = 0; i < n; i++) {
        char label[300];
        kernel_label(label, sizeof label, names[i], 0);
        fputs("<li><code>", out);
        xml_escape(out, label);
        fputs("</code></li>", out);
    }
    fputs("</ul>\n", out);
}

void html_baseline(FILE *out, const baseline *b, const char *baseline_path)
{
    fputs("<section id=\"baseline\">\n<h2>Against the baseline</h2>\n<p class=\"how\">This report "
          "beside the baseline report ",
          out);
    xml_escape(out, baseline_path);
    fputs(", as Nsight Compute's baselines: each figure of both runs, the change (a ratio "
          "changes by percentage points, pp) and the change relative to the baseline. Kernels "
          "are matched by name, their launches summed.</p>\n<div class=\"scroll\"><table>\n"
          "<thead><tr><th>figure</th>",
          out);
    fprintf(out, "%s</tr></thead>\n<tbody>\n", heads);
    for (size_t i = 0; i < b->figure_count; i++) {
        fputs("<tr>", out);
        html_cell(out, NULL, b->figures[i].label);
        figure_cells(out, &b->figures[i]);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    size_t groups = b->kernel_count > b->policy_count ? b->kernel_count : b->policy_count;
    const char **names = calloc(groups + 1, sizeof *names);
    const baseline_figure **figures = calloc(groups + 1, sizeof *figures);
    if (b->kernel_count && names && figures) {
        for (size_t i = 0; i < b->kernel_count; i++) {
            names[i] = b->kernels[i].name;
            figures[i] = b->kernels[i].figures;
        }
        html_subtitle(out, "Kernels in both");
        grouped_table(out, "kernel", names, figures, b->kernel_count, BASELINE_KERNEL_FIGURES);
    } else if (!b->kernel_count) {
        html_absent(out, "The two reports launch no kernel of the same name.");
    }
    if (b->policy_count && names && figures) {
        for (size_t i = 0; i < b->policy_count; i++) {
            names[i] = b->policies[i].name;
            figures[i] = b->policies[i].figures;
        }
        html_subtitle(out, "Policies of the comparison in both");
        grouped_table(out, "policy", names, figures, b->policy_count, BASELINE_POLICY_FIGURES);
    }
    free(names);
    free(figures);
    only_in(out, "this report", b->only_now, b->only_now_count);
    only_in(out, "the baseline", b->only_then, b->only_then_count);
    fputs("</section>\n", out);
}
