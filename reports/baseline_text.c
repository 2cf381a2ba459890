/* reports/baseline_text.c: see baseline_text.h. */
#include "reports/baseline_text.h"

#include "reports/pc_label.h"
#include "reports/text_columns.h"

static void figure_rows(FILE *out, const baseline_figure *f, size_t n, const char *indent)
{
    for (size_t i = 0; i < n; i++) {
        fputs(indent, out);
        text_column(out, f[i].label, 30);
        text_column(out, numfmt(f[i].kind, f[i].now).s, 12);
        text_column(out, numfmt(f[i].kind, f[i].then).s, 12);
        text_column(out, baseline_change(&f[i]).s, 12);
        fprintf(out, "%s\n", baseline_relative(&f[i]).s);
    }
}

static void header(FILE *out, const char *first, const char *indent)
{
    fputs(indent, out);
    text_column(out, first, 30);
    text_column(out, "this", 12);
    text_column(out, "baseline", 12);
    text_column(out, "change", 12);
    fputs("relative\n", out);
}

static void name_list(FILE *out, const char *where, char *const *names, size_t n)
{
    if (n == 0)
        return;
    fprintf(out, "\nkernels only in %s (not compared):\n", where);
    for (size_t i = 0; i < n; i++) {
        char label[200];
        kernel_label(label, sizeof label, names[i], 0);
        fprintf(out, "  %s\n", label);
    }
}

void baseline_print(FILE *out, const baseline *b, const char *now_path, const char *then_path)
{
    fprintf(out, "this:     %s\nbaseline: %s\n\n", now_path, then_path);
    header(out, "figure", "");
    figure_rows(out, b->figures, b->figure_count, "");
    if (b->kernel_count)
        fputs("\nkernels in both, matched by name (launches summed):\n", out);
    for (size_t i = 0; i < b->kernel_count; i++) {
        char label[200];
        kernel_label(label, sizeof label, b->kernels[i].name, 60);
        fprintf(out, "\n  %s\n", label);
        header(out, "figure", "  ");
        figure_rows(out, b->kernels[i].figures, BASELINE_KERNEL_FIGURES, "  ");
    }
    if (b->policy_count)
        fputs("\npolicies of the comparison in both, matched by name:\n", out);
    for (size_t i = 0; i < b->policy_count; i++) {
        fprintf(out, "\n  %s\n", b->policies[i].name);
        header(out, "figure", "  ");
        figure_rows(out, b->policies[i].figures, BASELINE_POLICY_FIGURES, "  ");
    }
    name_list(out, now_path, b->only_now, b->only_now_count);
    name_list(out, then_path, b->only_then, b->only_then_count);
}
