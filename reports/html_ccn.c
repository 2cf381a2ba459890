/* reports/html_ccn.c: the CCN ring of each compared policy that has one
 * (S3 ch. 4, docs/metrics.md §9): a hop histogram of its remote hits and, per SM, its
 * remote hit rate and the share of L1 load misses it kept from L2.  Drawn
 * inside the policy comparison from `compare.policies[i].ccn`. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reports/chart.h"
#include "reports/html_page.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define MAX_SMS 1024

static void hop_histogram(FILE *out, const char *name, const json_t *hist)
{
    size_t n = json_array_size(hist);
    double *hits = malloc((n ? n : 1) * sizeof *hits);
    char (*labels)[24] = malloc((n ? n : 1) * sizeof *labels);
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (hits && labels && names) {
        for (size_t i = 0; i < n; i++) {
            const json_t *bin = json_array_get(hist, i);
            snprintf(labels[i], sizeof labels[i], "%.0f", report_num(bin, "hops"));
            names[i] = labels[i];
            hits[i] = report_num(bin, "remote_hits");
        }
        bar_series s = {"remote hits", hits};
        bar_chart c = {.label = name, .categories = (unsigned)n, .category_labels = names,
                       .series_count = 1, .series = &s, .x_title = "ring hops (out and back)",
                       .y_title = "remote hits", .format = NUMFMT_COUNT};
        chart_bars(out, &c);
    }
    free(hits);
    free(labels);
    free(names);
}

static void per_sm(FILE *out, const char *name, const json_t *sms)
{
    size_t n = json_array_size(sms);
    if (n > MAX_SMS)
        n = MAX_SMS;
    double *v = malloc((n ? 2 * n : 1) * sizeof *v);
    char (*labels)[24] = malloc((n ? n : 1) * sizeof *labels);
    const char **names = malloc((n ? n : 1) * sizeof *names);
    if (v && labels && names) {
        for (size_t i = 0; i < n; i++) {
            const json_t *sm = json_array_get(sms, i);
            snprintf(labels[i], sizeof labels[i], "%zu", i);
            names[i] = labels[i];
            v[i] = report_num(sm, "remote_hit_rate");
            v[n + i] = report_num(sm, "l1_to_l2_request_reduction");
        }
        bar_series s[2] = {{"remote hit rate", v}, {"L1 load misses kept from L2", v + n}};
        bar_chart c = {.label = name, .categories = (unsigned)n, .category_labels = names,
                       .series_count = 2, .series = s, .x_title = "SM (ring position)",
                       .y_title = "share", .format = NUMFMT_PERCENT, .y_max = 1};
        chart_bars(out, &c);
    }
    free(v);
    free(labels);
    free(names);
}

void html_ccn(FILE *out, const json_t *policies, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const json_t *p = json_array_get(policies, i);
        const json_t *ring = report_at(p, "ccn");
        if (!json_is_object(ring))
            continue;
        const char *name = report_str(p, "name") ? report_str(p, "name") : "?";
        char title[160];
        snprintf(title, sizeof title, "CCN ring of %s", name);
        html_subtitle(out, title);
        fprintf(out, "<p class=\"how\">%s of %s requests sent round the ring found the line in "
                     "another L1 (remote hit rate %s); they kept %s of the L1 load misses from "
                     "L2.",
                numfmt(NUMFMT_COUNT, report_num(ring, "remote_hits")).s,
                numfmt(NUMFMT_COUNT, report_num(ring, "requests")).s,
                numfmt_percent(report_num(ring, "remote_hit_rate")).s,
                numfmt_percent(report_num(ring, "l1_to_l2_request_reduction")).s);
        if (json_is_true(report_at(ring, "options.throttle")))
            fprintf(out, " The throttler turned the ring off in %s of %s SM epochs.",
                    numfmt(NUMFMT_COUNT, report_num(ring, "throttler.ring_off_epochs")).s,
                    numfmt(NUMFMT_COUNT, report_num(ring, "throttler.epochs")).s);
        else
            fputs(" No throttler: every candidate miss used the ring.", out);
        fputs("</p>\n", out);
        snprintf(title, sizeof title, "remote hits by ring hops, %s", name);
        hop_histogram(out, title, report_at(ring, "hop_histogram"));
        snprintf(title, sizeof title, "CCN per SM, %s", name);
        per_sm(out, title, report_at(ring, "per_sm"));
    }
}
