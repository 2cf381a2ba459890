/* reports/html_bypass.c: the profile's main result, the L1 bypass hints
 * (docs/metrics.md §9): the verdict, the source lines to change, each load
 * PC's verdict and the replays before and after.  Read from report.json's
 * `bypass` into the view the terminal uses (reports/bypass_view.h), so the
 * page and `warpscope profile` say the same in the same words. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "reports/advice_out.h"
#include "reports/bypass_view.h"
#include "reports/html_page.h"
#include "reports/numfmt.h"
#include "reports/replay_text.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define PC_ROWS 500

static uint64_t count_at(const json_t *o, const char *path)
{
    double v = report_num(o, path);
    return v > 0 ? (uint64_t)v : 0;
}

/* One replay of before_after (docs/report-schema.md, BYPASS). */
static bypass_view_outcome outcome_of(const json_t *o)
{
    double rate = report_num(o, "l1_miss_rate");
    return (bypass_view_outcome){
        .below_l1_bytes = count_at(o, "l1_to_l2_bytes") + count_at(o, "dram_bytes"),
        .cached_miss_pct = isnan(rate) ? 0.0 : 100.0 * rate};
}

static bypass_view_pc pc_of(const json_t *p)
{
    const json_t *change = report_at(p, "traffic_change_bytes");
    double share = report_num(p, "share");
    return (bypass_view_pc){.kernel = report_str(p, "kernel"), .file = report_str(p, "file"),
                            .sass = report_str(p, "sass"), .offset = count_at(p, "offset"),
                            .line = (uint32_t)count_at(p, "line"),
                            .requests = count_at(p, "requests"),
                            .share = isnan(share) ? 0.0 : share,
                            .recommend = json_is_true(report_at(p, "recommend")),
                            .tested = json_is_integer(change),
                            .traffic_change = json_integer_value(change)};
}

/* The view of a report's `bypass`: its PCs (to free), NULL when out of memory. */
static bypass_view_pc *view_of(bypass_view *v, const json_t *bypass)
{
    const json_t *pcs = report_at(bypass, "pcs");
    size_t n = json_array_size(pcs);
    bypass_view_pc *items = calloc(n + 1, sizeof *items);
    if (!items)
        return NULL;
    for (size_t i = 0; i < n; i++)
        items[i] = pc_of(json_array_get(pcs, i));
    const json_t *baseline = report_at(bypass, "before_after.baseline");
    *v = (bypass_view){.pcs = items, .pc_count = (uint32_t)n,
                       .outcomes = {outcome_of(baseline),
                                    outcome_of(report_at(bypass, "before_after.bypass_table")),
                                    outcome_of(report_at(bypass, "before_after.bypass_pc"))},
                       .all_bypassed = report_num(baseline, "l1_requests") > 0 &&
                                       json_is_null(report_at(baseline, "l1_miss_rate"))};
    return items;
}

static void headline(FILE *out, const bypass_view *v, const json_t *bypass)
{
    char verdict[256];
    bypass_view_verdict(verdict, sizeof verdict, v);
    fputs("<p class=\"verdict\"><b>verdict:</b> ", out);
    xml_escape(out, verdict);
    fputs("</p>\n", out);
    if (v->all_bypassed)
        html_note(out, BYPASS_ALL_BYPASSED);
    uint64_t touched = count_at(bypass, "lines_touched");
    uint64_t worthy = count_at(bypass, "lines_bypass_worthy");
    const char *u = report_str(bypass, "utilization");
    const char *policy = report_str(bypass, "baseline_l1_policy");
    fprintf(out, "<p class=\"how\">S1 Eq. 1 bypasses a line when U \xc3\x97 (1 + R) &lt; 1 "
                 "(U %s; baseline L1 ",
            bypass_view_u_words(u && strcmp(u, "raw") == 0));
    xml_escape(out, policy ? policy : "?");
    fprintf(out, "): lines touched by cached global loads %s, bypass-worthy %s (%s).</p>\n",
            numfmt_grouped(touched).s, numfmt_grouped(worthy).s,
            numfmt_share((double)worthy, (double)touched).s);
}

/* What to change, ranked by what it saves, as the terminal lists it: both
 * read report.json's bypass.advice (reports/advice_out.h). */
static void changes(FILE *out, const bypass_view *v, const json_t *bypass)
{
    html_subtitle(out, "Changes to make, by the traffic each saves below L1");
    const json_t *advice = report_at(bypass, "advice");
    const json_t *items = report_at(advice, "items");
    if (!json_is_object(advice)) {
        html_note(out, "Not in this report: it was written before warpscope ranked its advice.");
        return;
    }
    if (!json_array_size(items)) {
        html_note(out, "None: no change lowers the traffic below L1.");
        return;
    }
    char base[32];
    double before = report_num(advice, "baseline_below_l1_bytes");
    replay_format_bytes(base, sizeof base, before > 0 ? (uint64_t)before : 0);
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>source line</th><th>change</th>"
          "<th>saves</th><th>of total</th><th>checked</th><th>why</th></tr></thead>\n<tbody>\n",
          out);
    size_t i;
    const json_t *item;
    json_array_foreach(items, i, item) {
        advice_row r;
        advice_row_of(item, &r);
        fputs("<tr>", out);
        html_cell(out, "code", advice_same_place(items, i) ? "" : r.place);
        html_cell(out, NULL, r.change);
        html_cell(out, "n", r.saved);
        html_cell(out, "n", r.share);
        html_cell(out, NULL, r.how);
        html_cell(out, NULL, r.why);
        fputs("</tr>\n", out);
    }
    for (uint32_t k = 0; k < v->pc_count; k++) {
        const char *file;
        char saved[32], up_to[48];
        if (!bypass_view_whole_file(v, k, &file, saved, sizeof saved))
            continue;
        snprintf(up_to, sizeof up_to, "up to %s", saved);
        fputs("<tr>", out);
        html_cell(out, "code", file);
        html_cell(out, NULL, BYPASS_WHOLE_FILE);
        html_cell(out, "n", up_to);
        html_cell(out, NULL, "");
        html_cell(out, NULL, "");
        html_cell(out, NULL, "");
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n<p class=\"how\">Savings are ", out);
    xml_escape(out, ADVICE_MEASURE);
    fprintf(out, "; %s in the baseline. Each change is judged alone; savings do not add up.</p>\n", base);
}

static void pc_table(FILE *out, const bypass_view *v)
{
    html_subtitle(out, "Load PCs");
    if (v->pc_count == 0) {
        html_note(out, "No global load reached L1: there is no load PC to advise on.");
        return;
    }
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>load PC</th><th>source</th><th>SASS</th>"
          "<th>requests</th><th>worthy</th><th>verdict</th><th>traffic change</th></tr></thead>\n"
          "<tbody>\n",
          out);
    uint32_t shown = v->pc_count < PC_ROWS ? v->pc_count : PC_ROWS;
    for (uint32_t i = 0; i < shown; i++) {
        const bypass_view_pc *pc = &v->pcs[i];
        bypass_where w;
        char change[32];
        bypass_view_where(&w, pc, 0);
        bypass_view_change(change, sizeof change, v, pc);
        fputs("<tr>", out);
        html_cell(out, "code", w.at);
        html_cell(out, "code", *w.source ? w.source : "-");
        html_cell(out, "code", pc->sass ? pc->sass : "-");
        html_cell(out, "n", numfmt_grouped(pc->requests).s);
        html_cell(out, "n", numfmt_percent(pc->share).s);
        html_cell(out, NULL, pc->recommend ? "bypass" : "keep");
        html_cell(out, "n", change);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    if (shown < v->pc_count)
        fprintf(out, "<p class=\"how\">The first %u of %u load PCs are listed.</p>\n", shown,
                v->pc_count);
    html_note(out, BYPASS_TABLE_NOTE);
}

/* Bytes below L1 first, the verdict's measure; S1's miss rate last,
 * labelled as S1's. */
static void before_after(FILE *out, const bypass_view *v)
{
    html_subtitle(out, "Before and after");
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>replay</th>"
          "<th>bytes below L1 (L1\xe2\x86\x92L2, DRAM)</th><th>change</th>"
          "<th>L1 miss rate of the cached loads*</th><th>change</th></tr></thead>\n<tbody>\n",
          out);
    const bypass_view_outcome *base = &v->outcomes[BYPASS_BASELINE];
    for (int i = 0; i < BYPASS_OUTCOMES; i++) {
        const bypass_view_outcome *o = &v->outcomes[i];
        char text[32];
        fputs("<tr>", out);
        html_cell(out, "code", bypass_outcome_names[i]);
        replay_format_bytes(text, sizeof text, o->below_l1_bytes);
        html_cell(out, "n", text);
        snprintf(text, sizeof text, "%+.1f%%",
                 bypass_view_pct_change(o->below_l1_bytes, base->below_l1_bytes));
        html_cell(out, "n", text);
        snprintf(text, sizeof text, "%.1f%%", o->cached_miss_pct);
        html_cell(out, "n", text);
        snprintf(text, sizeof text, "%+.1f", o->cached_miss_pct - base->cached_miss_pct);
        html_cell(out, "n", text);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n<p class=\"how\">* ", out);
    xml_escape(out, BYPASS_MISS_RATE_NOTE);
    fputs(".</p>\n", out);
}

void html_bypass(FILE *out, const json_t *doc)
{
    html_section_begin(out, "bypass");
    const json_t *bypass = report_at(doc, "bypass");
    bypass_view v;
    bypass_view_pc *items = json_is_object(bypass) ? view_of(&v, bypass) : NULL;
    if (!items) {
        html_absent(out, "Not in this report: the L1 bypass hints (S1) come from `warpscope "
                         "profile`, which writes them into report.json with the analysis.");
        html_section_end(out);
        return;
    }
    headline(out, &v, bypass);
    changes(out, &v, bypass);
    pc_table(out, &v);
    before_after(out, &v);
    free(items);
    html_section_end(out);
}
