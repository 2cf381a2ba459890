/* reports/bypass_out.c: see bypass_out.h. */
#include "reports/bypass_out.h"

#include <stdlib.h>
#include <string.h>

#include "reports/advice_out.h"
#include "reports/bypass_view.h"
#include "reports/csv_keys.h"
#include "reports/json_out.h"
#include "reports/numfmt.h"
#include "reports/term.h"
#include "reports/replay_text.h"
#include "reports/report_doc.h"
#include "util/version.h"

static const wst_pc *pc_of(const wst_trace *t, const bypass_pc_hint *h)
{
    return &t->kernels[h->kernel].pcs[h->pc];
}

/* hints_pcs.csv: one row per global-load PC, (kernel name, offset) over all
 * launches; kernel_id and pc_index name its first launch. */
static int write_pc_hints(const char *dir, const bypass_advice *a, const wst_trace *t,
                          ws_error *err)
{
    static const char *const header[] = {CSV_PC_COLUMNS, "requests", "worthy_requests",
                                         "bypass_share", "tested", "recommend",
                                         "traffic_change_bytes"};
    csv_table *c = csv_table_open_in(dir, BYPASS_PCS_CSV, header, sizeof header / sizeof *header,
                                     err);
    if (!c)
        return -1;
    for (uint32_t i = 0; i < a->pc_count; i++) {
        const bypass_pc_hint *h = &a->pcs[i];
        csv_row_pc(c, t, h->kernel, h->pc);
        csv_row_u64(c, h->accesses);
        csv_row_u64(c, h->worthy);
        csv_row_double(c, bypass_share(h));
        csv_row_u64(c, (uint64_t)h->tested);
        csv_row_u64(c, (uint64_t)h->recommend);
        if (h->tested)
            csv_row_i64(c, h->traffic_change);
        else
            csv_row_str(c, NULL);
        csv_row_end(c);
    }
    return csv_table_commit(c, err);
}

/* hints_lines.csv: one row per line global loads touched (S1 Eq. 1's
 * inputs and verdict), by the byte address of its first byte. */
static int write_line_hints(const char *dir, const bypass_advice *a, uint32_t line_bytes,
                            ws_error *err)
{
    static const char *const header[] = {"line_address", "line_bytes", "requests", "fills",
                                         "l1_hits", "utilization", "hits_per_fill",
                                         "bypass_worthy"};
    csv_table *c = csv_table_open_in(dir, BYPASS_LINES_CSV, header,
                                     sizeof header / sizeof *header, err);
    if (!c)
        return -1;
    for (uint64_t i = 0; i < bypass_table_count(a->table); i++) {
        const bypass_line *l;
        uint64_t line = bypass_table_line_at(a->table, i, &l);
        csv_row_hex(c, line * line_bytes);
        csv_row_u64(c, line_bytes);
        csv_row_u64(c, l->requests);
        csv_row_u64(c, l->fills);
        csv_row_u64(c, l->hits);
        csv_row_double(c, bypass_line_utilization(a->table, l));
        csv_row_double(c, bypass_line_reuse_times(l));
        csv_row_u64(c, (uint64_t)bypass_table_verdict(a->table, line));
        csv_row_end(c);
    }
    return csv_table_commit(c, err);
}

int bypass_write_tables(const char *dir, const bypass_advice *a, const wst_trace *t,
                        uint32_t line_bytes, ws_error *err)
{
    json_t *advice = advice_json(a, t);
    int rc = write_pc_hints(dir, a, t, err) || write_line_hints(dir, a, line_bytes, err) ||
                     advice_write_csv(dir, advice, err)
                 ? -1
                 : 0;
    json_decref(advice);
    return rc;
}

static json_t *outcome(const replay_counts *c)
{
    return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "below_l1_bytes", report_json_u64(bypass_traffic(c)),
                     "global_load_traffic_bytes",
                     report_json_u64(c->traffic.l1_to_l2_read_bytes), "l1_to_l2_bytes",
                     report_json_u64(c->traffic.l1_to_l2_read_bytes + c->traffic.l1_to_l2_write_bytes),
                     "dram_bytes",
                     report_json_u64(c->traffic.dram_read_bytes + c->traffic.dram_write_bytes),
                     "l1_miss_rate", report_json_ratio((double)(c->l1.misses - c->l1.bypasses),
                                                       (double)(c->l1.accesses - c->l1.bypasses)),
                     "l1_requests", report_json_u64(c->l1.accesses));
}

json_t *bypass_json(const bypass_advice *a, const wst_trace *t, size_t max_lines)
{
    json_t *pcs = json_array();
    for (uint32_t i = 0; i < a->pc_count; i++) {
        const bypass_pc_hint *h = &a->pcs[i];
        const wst_pc *pc = pc_of(t, h);
        json_t *o = json_object();
        json_object_set_new(o, "kernel", report_json_string_or_null(t->kernels[h->kernel].name));
        json_object_set_new(o, "kernel_demangled", report_json_kernel_label(t->kernels[h->kernel].name));
        json_object_set_new(o, "kernel_index", json_integer(h->kernel));
        json_object_set_new(o, "pc", json_integer(h->pc));
        json_object_set_new(o, "offset", report_json_u64(pc->offset));
        json_object_set_new(o, "pc_offset", report_json_pc_offset(pc->offset));
        json_object_set_new(o, "sass", report_json_string_or_null(pc->sass));
        json_object_set_new(o, "file", report_json_string_or_null(pc->file));
        json_object_set_new(o, "line", pc->line ? json_integer(pc->line) : json_null());
        json_object_set_new(o, "requests", report_json_u64(h->accesses));
        json_object_set_new(o, "share", report_json_ratio((double)h->worthy, (double)h->accesses));
        json_object_set_new(o, "recommend", json_boolean(h->recommend));
        json_object_set_new(o, "traffic_change_bytes",
                            h->tested ? json_integer(h->traffic_change) : json_null());
        if (a->timed) /* --timed: the trial's cycles too (docs/metrics.md §12) */
            json_object_set_new(o, "cycles_change",
                                h->tested ? json_integer(h->cycles_change) : json_null());
        json_array_append_new(pcs, o);
    }
    json_t *lines = json_array();
    uint64_t worthy = bypass_table_worthy_count(a->table);
    for (uint64_t i = 0; i < bypass_table_count(a->table) && json_array_size(lines) < max_lines; i++) {
        const bypass_line *l;
        uint64_t line = bypass_table_line_at(a->table, i, &l);
        if (bypass_table_verdict(a->table, line))
            json_array_append_new(lines, json_pack("{s:o,s:o,s:f,s:f}", "line",
                                                   report_json_u64(line), "requests",
                                                   report_json_u64(l->requests), "u",
                                                   bypass_line_utilization(a->table, l), "r",
                                                   bypass_line_reuse_times(l)));
    }
    json_t *doc = json_object();
    json_object_set_new(doc, "schema", json_string("warpscope-bypass"));
    json_object_set_new(doc, "version", json_integer(REPORT_VERSION));
    json_object_set_new(doc, "warpscope_version", json_string(WARPSCOPE_VERSION));
    json_object_set_new(doc, "baseline_l1_policy", json_string(a->l1_policy));
    json_object_set_new(doc, "utilization", json_string(bypass_u_name(a->utilization)));
    json_object_set_new(doc, "before_after",
                        json_pack("{s:o,s:o,s:o}", "baseline", outcome(&a->baseline),
                                  "bypass_table", outcome(&a->with_table), "bypass_pc",
                                  outcome(&a->with_pcs)));
    if (a->timed) { /* each replay's cycles: the model's, not a GPU's (docs/metrics.md §11) */
        json_t *ba = json_object_get(doc, "before_after");
        json_object_set_new(json_object_get(ba, "baseline"), "cycles",
                            report_json_u64(a->baseline_cycles));
        json_object_set_new(json_object_get(ba, "bypass_table"), "cycles",
                            report_json_u64(a->table_cycles));
        json_object_set_new(json_object_get(ba, "bypass_pc"), "cycles",
                            report_json_u64(a->pcs_cycles));
    }
    json_object_set_new(doc, "lines_touched", report_json_u64(bypass_table_count(a->table)));
    json_object_set_new(doc, "lines_bypass_worthy", report_json_u64(worthy));
    json_object_set_new(doc, "lines", lines);
    json_object_set_new(doc, "lines_truncated", json_boolean(worthy > max_lines));
    json_object_set_new(doc, "pcs", pcs);
    json_object_set_new(doc, "advice", advice_json(a, t));
    return doc;
}

/* The terminal's view of the advice (reports/bypass_view.h), as the HTML
 * report's is of report.json's `bypass`. */
static bypass_view_outcome outcome_view(const replay_counts *c)
{
    /* S1 counts the miss rate over the requests that reach L1 (bypassed ones do not). */
    uint64_t cached = c->l1.accesses - c->l1.bypasses;
    return (bypass_view_outcome){
        .below_l1_bytes = bypass_traffic(c),
        .cached_miss_pct = cached ? 100.0 * (double)(c->l1.misses - c->l1.bypasses) / (double)cached
                                  : 0.0};
}

static bypass_view_pc *view_of(bypass_view *v, const bypass_advice *a, const wst_trace *t)
{
    bypass_view_pc *pcs = calloc(a->pc_count + 1, sizeof *pcs);
    if (!pcs)
        return NULL;
    for (uint32_t i = 0; i < a->pc_count; i++) {
        const bypass_pc_hint *h = &a->pcs[i];
        const wst_pc *pc = pc_of(t, h);
        pcs[i] = (bypass_view_pc){.kernel = t->kernels[h->kernel].name, .file = pc->file,
                                  .sass = pc->sass, .offset = pc->offset, .line = pc->line,
                                  .requests = h->accesses, .share = bypass_share(h),
                                  .recommend = h->recommend, .tested = h->tested,
                                  .traffic_change = h->traffic_change};
    }
    *v = (bypass_view){.pcs = pcs, .pc_count = a->pc_count,
                       .outcomes = {outcome_view(&a->baseline), outcome_view(&a->with_table),
                                    outcome_view(&a->with_pcs)},
                       .all_bypassed = a->baseline.l1.accesses &&
                                       a->baseline.l1.bypasses == a->baseline.l1.accesses};
    return pcs;
}

/* Bytes below L1 first (the verdict's and the advice's measure), then S1's
 * miss rate. */
static void print_before_after(FILE *out, const bypass_view *v)
{
    term_table *t = term_table_new(2);
    term_table_column(t, "replay", TERM_LEFT, 0);
    term_table_column(t, "bytes below L1\n(L1 -> L2, DRAM)", TERM_RIGHT, 4);
    term_table_column(t, "change", TERM_RIGHT, 3);
    term_table_column(t, "L1 miss rate of\nthe cached loads*", TERM_RIGHT, 2);
    term_table_column(t, "change*", TERM_RIGHT, 1);
    const bypass_view_outcome *base = &v->outcomes[BYPASS_BASELINE];
    for (int i = 0; i < BYPASS_OUTCOMES; i++) {
        const bypass_view_outcome *o = &v->outcomes[i];
        char b[32];
        replay_format_bytes(b, sizeof b, o->below_l1_bytes);
        term_table_cell(t, "%s", bypass_outcome_names[i]);
        term_table_cell(t, "%s", b);
        term_table_cell(t, "%+.1f%%", bypass_view_pct_change(o->below_l1_bytes, base->below_l1_bytes));
        term_table_cell(t, "%.1f%%", o->cached_miss_pct);
        term_table_cell(t, "%+.1f", o->cached_miss_pct - base->cached_miss_pct);
    }
    term_table_print(t, out, term_width(out));
    term_table_free(t);
    term_printf(out, 4, "  * %s", BYPASS_MISS_RATE_NOTE);
}

/* A file whose every load PC is recommended: one compiler flag. */
static void print_whole_files(FILE *out, const bypass_view *v)
{
    int any = 0;
    for (uint32_t i = 0; i < v->pc_count; i++) {
        const char *base;
        char saved[32];
        if (bypass_view_whole_file(v, i, &base, saved, sizeof saved))
            fprintf(out, "  %-24s " BYPASS_WHOLE_FILE "  saves up to %s\n", base, saved), any = 1;
    }
    if (any)
        fprintf(out, "\n");
}

void bypass_print_summary(FILE *out, const bypass_advice *a, const wst_trace *t)
{
    bypass_view v;
    bypass_view_pc *pcs = view_of(&v, a, t);
    if (!pcs)
        return;
    uint64_t worthy = bypass_table_worthy_count(a->table);
    char verdict[256];
    bypass_view_verdict(verdict, sizeof verdict, &v);
    term_printf(out, 2,
                "L1 bypass hints (S1 Eq. 1: bypass a line when U x (1 + R) < 1, U %s; "
                "baseline L1 %s)",
                bypass_view_u_words(a->utilization == BYPASS_U_RAW_BYTES), a->l1_policy);
    term_printf(out, 4, "  verdict: %s", verdict);
    if (v.all_bypassed)
        term_printf(out, 4, "  %s", BYPASS_ALL_BYPASSED);
    term_printf(out, 4, "  lines touched by cached global loads %s, bypass-worthy %s (%s)\n",
                numfmt_grouped(bypass_table_count(a->table)).s, numfmt_grouped(worthy).s,
                numfmt_share((double)worthy, (double)bypass_table_count(a->table)).s);
    fprintf(out, "\n");
    if (v.pc_count) {
        term_table *table = term_table_new(2);
        term_table_column(table, "load PC", TERM_LEFT, 0);
        term_table_column(table, "source", TERM_LEFT, 3);
        term_table_column(table, "SASS", TERM_LEFT, 1);
        term_table_column(table, "requests", TERM_RIGHT, 2);
        term_table_column(table, "worthy", TERM_RIGHT, 4);
        term_table_column(table, "verdict", TERM_LEFT, 6);
        term_table_column(table, "traffic change", TERM_RIGHT, 5);
        for (uint32_t i = 0; i < v.pc_count; i++) {
            const bypass_view_pc *pc = &v.pcs[i];
            bypass_where w;
            char change[32];
            bypass_view_where(&w, pc, 30);
            bypass_view_change(change, sizeof change, &v, pc);
            term_table_cell(table, "%s", w.at);
            term_table_cell(table, "%.18s", *w.source ? w.source : "-");
            term_table_cell(table, "%.18s", pc->sass ? pc->sass : "-");
            term_table_cell(table, "%s", numfmt_grouped(pc->requests).s);
            term_table_cell(table, "%.1f%%", 100.0 * pc->share);
            term_table_cell(table, "%s", pc->recommend ? "bypass" : "keep");
            term_table_cell(table, "%s", change);
        }
        term_table_print(table, out, term_width(out));
        term_table_free(table);
        term_printf(out, 3, "  " BYPASS_TABLE_NOTE "\n");
        fprintf(out, "\n");
    }
    json_t *advice = advice_json(a, t);
    advice_print(out, advice);
    json_decref(advice);
    print_whole_files(out, &v);
    print_before_after(out, &v);
    if (a->timed && a->table_cycles && a->pcs_cycles) /* S1 Fig. 4: cycles, with and without */
        term_printf(out, 4, "  timed replay (the model's cycles, not a GPU's): baseline %s, bypass-table %s "
                            "(speedup %.3fx), bypass-pc %s (%.3fx)\n",
                numfmt_grouped(a->baseline_cycles).s, numfmt_grouped(a->table_cycles).s,
                (double)a->baseline_cycles / (double)a->table_cycles,
                numfmt_grouped(a->pcs_cycles).s, (double)a->baseline_cycles / (double)a->pcs_cycles);
    free(pcs);
}

typedef struct annotation {
    const bypass_advice *advice;
    const wst_trace *trace;
} annotation;

/* One kernel entry's PCs: each gets its hint, matched by kernel name and
 * PC offset (a hint is of the first launch that ran the PC). */
static int annotate_kernel(void *ctx, size_t k, json_t *kernel, ws_error *err)
{
    (void)err;
    const annotation *an = ctx;
    const bypass_advice *a = an->advice;
    const wst_trace *t = an->trace;
    if (k >= t->kernel_count)
        return 0;
    json_t *pcs = json_object_get(kernel, "pcs");
    const char *name = t->kernels[k].name ? t->kernels[k].name : "";
    for (uint32_t i = 0; i < t->kernels[k].pc_count && i < json_array_size(pcs); i++) {
        uint64_t offset = t->kernels[k].pcs[i].offset;
        for (uint32_t h = 0; h < a->pc_count; h++) {
            const bypass_pc_hint *hint = &a->pcs[h];
            const char *hname = t->kernels[hint->kernel].name ? t->kernels[hint->kernel].name : "";
            if (strcmp(hname, name) != 0 || pc_of(t, hint)->offset != offset)
                continue;
            json_object_set_new(json_array_get(pcs, i), "bypass",
                                json_pack("{s:o,s:b,s:o}", "share",
                                          report_json_ratio((double)hint->worthy, (double)hint->accesses),
                                          "recommend", hint->recommend, "traffic_change_bytes",
                                          hint->tested ? json_integer(hint->traffic_change) : json_null()));
            break;
        }
    }
    return 0;
}

int bypass_annotate_kernels(kernel_spool **kernels, const bypass_advice *a, const wst_trace *t,
                            ws_error *err)
{
    annotation an = {a, t};
    return kernel_spool_rewrite(kernels, annotate_kernel, &an, err);
}
