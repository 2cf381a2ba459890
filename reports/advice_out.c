/* reports/advice_out.c: see advice_out.h. */
#include "reports/advice_out.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "reports/csv_out.h"
#include "reports/json_out.h"
#include "reports/numfmt.h"
#include "reports/pc_label.h"
#include "reports/replay_text.h"
#include "reports/report_doc.h"
#include "reports/term.h"

static const char *schedule_name(cta_policy p)
{
    return p == CTA_BCS ? "bcs" : p == CTA_QX_ADPT ? "qx_adpt" : "rr";
}

/* What the baseline measured, in words (docs/metrics.md §9, "Advice"). */
static void why_of(char *dst, size_t cap, const advice_item *it, const char *at)
{
    switch (it->finding) {
    case FINDING_BYPASS_WORTHY:
        snprintf(dst, cap, "%s: %.1f%% of its requests go to lines S1 Eq. 1 bypasses", at,
                 100.0 * it->share);
        break;
    case FINDING_STREAMING:
        snprintf(dst, cap, "%s streams: %.1f%% of its L1 fills are never hit, and they evicted %s "
                           "lines that had been hit",
                 at, 100.0 * it->share, numfmt_grouped(it->count).s);
        break;
    case FINDING_REPLAY:
        snprintf(dst, cap, "%s: bypassing it alone lowers the bytes below L1", at);
        break;
    case FINDING_UNCOALESCED:
        snprintf(dst, cap, "%s: %.1f%% of its sectors are excess (%s beyond the fewest for its "
                           "lanes' bytes)",
                 at, 100.0 * it->share, numfmt_grouped(it->count).s);
        break;
    case FINDING_SHARING:
        snprintf(dst, cap, "S0's %s dispatch (--schedule %s) puts CTAs that share lines on one SM",
                 schedule_name(it->schedule), schedule_name(it->schedule));
        break;
    }
}

json_t *advice_json(const bypass_advice *a, const wst_trace *t)
{
    uint64_t before = bypass_traffic(&a->baseline);
    json_t *items = json_array();
    for (uint32_t i = 0; i < a->advice_count; i++) {
        const advice_item *it = &a->advice[i];
        json_t *o = json_object();
        char place[160] = "every kernel", at[160] = "", why[400];
        const wst_pc *pc = NULL;
        const char *kernel = NULL;
        if (it->pc != UINT32_MAX) {
            const bypass_pc_hint *h = &a->pcs[it->pc];
            kernel = t->kernels[h->kernel].name;
            pc = &t->kernels[h->kernel].pcs[h->pc];
            pc_label(at, sizeof at, kernel, pc->offset, 0);
            source_label(place, sizeof place, pc->file, pc->line);
            if (!*place)
                snprintf(place, sizeof place, "%s", at);
        }
        why_of(why, sizeof why, it, at);
        json_object_set_new(o, "rank", json_integer(i + 1));
        json_object_set_new(o, "place", json_string(place));
        json_object_set_new(o, "kind", json_string(advice_kind_key(it->kind)));
        json_object_set_new(o, "change", json_string(advice_kind_words(it->kind)));
        json_object_set_new(o, "finding", json_string(advice_finding_key(it->finding)));
        json_object_set_new(o, "kernel", report_json_string_or_null(kernel));
        json_object_set_new(o, "offset", pc ? report_json_u64(pc->offset) : json_null());
        json_object_set_new(o, "file", report_json_string_or_null(pc ? pc->file : NULL));
        json_object_set_new(o, "line", pc && pc->line ? json_integer(pc->line) : json_null());
        json_object_set_new(o, "schedule", it->kind == ADVICE_CTA_SCHEDULE
                                               ? json_string(schedule_name(it->schedule))
                                               : json_null());
        json_object_set_new(o, "saved_bytes", report_json_u64(it->saved_bytes));
        json_object_set_new(o, "saved_share", report_json_ratio((double)it->saved_bytes, (double)before));
        json_object_set_new(o, "checked", json_string(it->checked ? "replay" : "estimate"));
        json_object_set_new(o, "finding_share", json_real(it->share));
        json_object_set_new(o, "finding_count", report_json_u64(it->count));
        json_object_set_new(o, "why", json_string(why));
        json_array_append_new(items, o);
    }
    return json_pack("{s:s,s:o,s:o}", "measure", ADVICE_MEASURE, "baseline_below_l1_bytes",
                     report_json_u64(before), "items", items);
}

void advice_row_of(const json_t *item, advice_row *row)
{
    const char *s;
    snprintf(row->place, sizeof row->place, "%s", (s = report_str(item, "place")) ? s : "?");
    snprintf(row->change, sizeof row->change, "%s", (s = report_str(item, "change")) ? s : "?");
    snprintf(row->why, sizeof row->why, "%s", (s = report_str(item, "why")) ? s : "");
    double saved = report_num(item, "saved_bytes"), share = report_num(item, "saved_share");
    replay_format_bytes(row->saved, sizeof row->saved, saved > 0 ? (uint64_t)saved : 0);
    snprintf(row->share, sizeof row->share, "%.1f%%", isnan(share) ? 0.0 : -100.0 * share);
    s = report_str(item, "checked");
    row->how = s && strcmp(s, "replay") == 0 ? "replay" : "estimate";
}

int advice_same_place(const json_t *items, size_t i)
{
    const char *a = i ? report_str(json_array_get(items, i - 1), "place") : NULL;
    const char *b = report_str(json_array_get(items, i), "place");
    return a && b && strcmp(a, b) == 0;
}

void advice_print(FILE *out, const json_t *advice)
{
    const json_t *items = report_at(advice, "items");
    if (!json_array_size(items))
        return;
    char base[32];
    double before = report_num(advice, "baseline_below_l1_bytes");
    replay_format_bytes(base, sizeof base, before > 0 ? (uint64_t)before : 0);
    term_printf(out, 2, "Changes to make, by the traffic each saves below L1 (L1 -> L2 and DRAM, of %s):",
                base);
    /* The terminal fits (reports/term.h): the reasons go first, then the
     * check, the share; the place and the change always stay. */
    term_table *t = term_table_new(2);
    term_table_column(t, "source line", TERM_LEFT, 0);
    term_table_column(t, "change", TERM_LEFT, 0);
    term_table_column(t, "saves", TERM_RIGHT, 4);
    term_table_column(t, "of total", TERM_RIGHT, 3);
    term_table_column(t, "checked", TERM_LEFT, 2);
    term_table_column(t, "why", TERM_LEFT, 1);
    size_t i;
    const json_t *item;
    json_array_foreach(items, i, item) {
        advice_row r;
        advice_row_of(item, &r);
        term_table_cell(t, "%s", advice_same_place(items, i) ? "" : r.place);
        term_table_cell(t, "%s", r.change);
        term_table_cell(t, "%s", r.saved);
        term_table_cell(t, "%s", r.share);
        term_table_cell(t, "%s", r.how);
        term_table_cell(t, "%s", r.why);
    }
    term_table_print(t, out, term_width(out));
    term_table_free(t);
    term_printf(out, 3, "  (checked: replay = a replay with the change measured it; estimate = coalescing "
                        "changes addresses, so it scales the PC's bytes by its excess sectors)");
    fprintf(out, "\n");
}

int advice_write_csv(const char *dir, const json_t *advice, ws_error *err)
{
    static const char *const header[] = {"rank", "place", "kind", "change", "finding", "kernel",
                                         "offset", "file", "line", "schedule", "saved_bytes",
                                         "saved_share", "checked", "why"};
    csv_table *c = csv_table_open_in(dir, ADVICE_CSV, header, sizeof header / sizeof *header, err);
    if (!c)
        return -1;
    size_t i;
    const json_t *it;
    json_array_foreach(report_at(advice, "items"), i, it) {
        double offset = report_num(it, "offset"), line = report_num(it, "line");
        csv_row_u64(c, (uint64_t)report_num(it, "rank"));
        csv_row_str(c, report_str(it, "place"));
        csv_row_str(c, report_str(it, "kind"));
        csv_row_str(c, report_str(it, "change"));
        csv_row_str(c, report_str(it, "finding"));
        csv_row_str(c, report_str(it, "kernel"));
        if (isnan(offset))
            csv_row_str(c, NULL);
        else
            csv_row_hex(c, (uint64_t)offset);
        csv_row_str(c, report_str(it, "file"));
        if (isnan(line))
            csv_row_str(c, NULL);
        else
            csv_row_u64(c, (uint64_t)line);
        csv_row_str(c, report_str(it, "schedule"));
        csv_row_u64(c, (uint64_t)report_num(it, "saved_bytes"));
        csv_row_double(c, report_num(it, "saved_share"));
        csv_row_str(c, report_str(it, "checked"));
        csv_row_str(c, report_str(it, "why"));
        csv_row_end(c);
    }
    return csv_table_commit(c, err);
}
