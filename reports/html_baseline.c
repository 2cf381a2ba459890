/* reports/html_baseline.c: the baseline section of the HTML report
 * (reports/baseline.h): every figure of this run beside the baseline's,
 * with its change, absolute and relative; the kernels both runs launched,
 * matched by name; the kernels of one run only. */
#include "reports/html_extra.h"

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
    if (b->kernel_count) {
        fprintf(out, "<h3>Kernels in both</h3>\n<div class=\"scroll\"><table class=\"baseline-kernels\">\n"
                     "<thead><tr><th>kernel</th><th>figure</th>%s</tr></thead>\n<tbody>\n",
                heads);
        for (size_t i = 0; i < b->kernel_count; i++) {
            char label[300];
            kernel_label(label, sizeof label, b->kernels[i].name, 48);
            for (size_t f = 0; f < BASELINE_KERNEL_FIGURES; f++) {
                fputs("<tr>", out);
                if (f == 0) {
                    fprintf(out, "<td rowspan=\"%d\"><code>", BASELINE_KERNEL_FIGURES);
                    xml_escape(out, label);
                    fputs("</code></td>", out);
                }
                html_cell(out, NULL, b->kernels[i].figures[f].label);
                figure_cells(out, &b->kernels[i].figures[f]);
                fputs("</tr>\n", out);
            }
        }
        fputs("</tbody></table></div>\n", out);
    } else {
        html_absent(out, "The two reports launch no kernel of the same name.");
    }
    only_in(out, "this report", b->only_now, b->only_now_count);
    only_in(out, "the baseline", b->only_then, b->only_then_count);
    fputs("</section>\n", out);
}
