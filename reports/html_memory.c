/* reports/html_memory.c: the memory section, after Nsight Compute's memory
 * workload analysis (docs/metrics.md §7, "Memory workload"): the chart of
 * what each kind of request moves through L1, L2 and DRAM, the sectors per
 * request and the excess sectors per source line, and the balance of the
 * requests over the L2 slices.  From summary.memory and the PCs' memory. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/memory_workload.h"
#include "reports/chart_memory.h"
#include "reports/html_page.h"
#include "reports/numfmt.h"
#include "reports/pc_label.h"
#include "reports/report_doc.h"
#include "reports/svg.h"

#define SOURCE_ROWS 25
#define MAX_SLICES 512

/* The kinds as the page names them; report.json's keys are memory_kind_key's. */
static const char *const kind_names[MEMORY_KINDS] = {"loads", "stores", "atomics", "write-backs"};

static memory_chart_flow flow_at(const json_t *kind, const char *link)
{
    const json_t *f = report_at(kind, link);
    return (memory_chart_flow){report_num(f, "requests"), report_num(f, "sectors"),
                               report_num(f, "bytes")};
}

static void chart(FILE *out, const json_t *memory, const json_t *doc)
{
    memory_chart_row rows[MEMORY_KINDS];
    for (int k = 0; k < MEMORY_KINDS; k++) {
        const json_t *kind = report_at(memory, memory_kind_key((memory_kind)k));
        rows[k] = (memory_chart_row){
            .name = kind_names[k], .flows_as = k == 0 ? "read" : "written",
            .links = {flow_at(kind, "l1"), flow_at(kind, "l1_to_l2"), flow_at(kind, "l2_to_dram")},
            .l1_hit_rate = report_num(kind, "l1.hit_rate"),
            .l2_hit_rate = report_num(kind, "l2.hit_rate")};
    }
    char slices[32] = "";
    double n = report_num(doc, "gpu.l2.slices");
    if (n > 0)
        snprintf(slices, sizeof slices, "%.0f slice%s", n, n == 1 ? "" : "s");
    memory_chart c = {.label = "requests, sectors and bytes of each kind between L1, L2 and DRAM",
                      .rows = MEMORY_KINDS, .row = rows, .l2_note = *slices ? slices : NULL};
    chart_memory(out, &c);
}

/* "loads: 1.14 sectors per request, 40.6k of 65.5k sectors in excess
 * (62.0%)", for each kind with requests. */
static void sectors_per_request(FILE *out, const json_t *memory)
{
    fputs("<p class=\"how\">", out);
    int any = 0;
    for (int k = 0; k < MEMORY_WRITE_BACKS; k++) { /* the instructions' own kinds */
        const json_t *l1 = report_at(report_at(memory, memory_kind_key((memory_kind)k)), "l1");
        double sectors = report_num(l1, "sectors"), excess = report_num(l1, "excess_sectors");
        if (!(report_num(l1, "requests") > 0))
            continue;
        fprintf(out, "%s%s: %s sectors per request, %s of %s sectors in excess (%s)",
                any ? "; " : "", kind_names[k],
                numfmt(NUMFMT_PLAIN, report_num(l1, "sectors_per_request")).s,
                numfmt_count(excess).s, numfmt_count(sectors).s, numfmt_share(excess, sectors).s);
        any = 1;
    }
    fputs(any ? ". The excess is what the requests ask beyond the fewest 32 B sectors that could "
                "carry the bytes their lanes asked for (docs/metrics.md \xc2\xa7" "7).</p>\n"
              : "No instruction made a request.</p>\n",
          out);
}

/* ---- sectors and excess per source line ---- */

typedef struct line_row {
    char source[200];
    const char *kind;
    double instructions, requests, sectors, ideal, excess;
} line_row;

typedef struct line_rows {
    line_row *items;
    size_t count, cap;
} line_rows;

/* The row of (source, kind), added when new; NULL when out of memory. */
static line_row *row_for(line_rows *rows, const char *source, const char *kind)
{
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->items[i].source, source) == 0 && strcmp(rows->items[i].kind, kind) == 0)
            return &rows->items[i];
    if (rows->count == rows->cap) {
        size_t cap = rows->cap ? 2 * rows->cap : 64;
        line_row *grown = realloc(rows->items, cap * sizeof *grown);
        if (!grown)
            return NULL;
        rows->items = grown;
        rows->cap = cap;
    }
    line_row *r = &rows->items[rows->count++];
    *r = (line_row){.kind = kind};
    snprintf(r->source, sizeof r->source, "%s", source);
    return r;
}

/* A PC's place for a reader: its source line, or kernel+0xOFF without one
 * (reports/pc_label.h), so a kernel's launches fall in one row. */
static void source_of(char *dst, size_t cap, const char *kernel, const json_t *pc)
{
    double line = report_num(pc, "line"), offset = report_num(pc, "offset");
    source_label(dst, cap, report_str(pc, "file"), isnan(line) ? 0 : (uint32_t)line);
    if (!*dst)
        pc_label(dst, cap, kernel, isnan(offset) ? 0 : (uint64_t)offset, 0);
}

static int collect(const json_t *doc, line_rows *rows)
{
    size_t k, i;
    json_t *kernel, *pc;
    json_array_foreach(report_at(doc, "kernels"), k, kernel) {
        const char *name = report_str(kernel, "name");
        json_array_foreach(report_at(kernel, "pcs"), i, pc) {
            const json_t *m = report_at(pc, "memory");
            const char *kind = report_str(m, "kind");
            if (!kind || !(report_num(m, "requests") > 0))
                continue;
            char source[200];
            source_of(source, sizeof source, name, pc);
            line_row *r = row_for(rows, source, kind);
            if (!r)
                return -1;
            r->instructions += report_num(m, "instructions");
            r->requests += report_num(m, "requests");
            r->sectors += report_num(m, "sectors");
            r->ideal += report_num(m, "ideal_sectors");
            r->excess += report_num(m, "excess_sectors");
        }
    }
    return 0;
}

static int by_excess_desc(const void *a, const void *b)
{
    const line_row *x = a, *y = b;
    if (x->excess != y->excess)
        return (x->excess < y->excess) - (x->excess > y->excess);
    return (x->sectors < y->sectors) - (x->sectors > y->sectors);
}

static void source_table(FILE *out, const json_t *doc)
{
    html_subtitle(out, "Sectors per request and excess sectors, by source line");
    line_rows rows = {0};
    if (collect(doc, &rows) != 0 || rows.count == 0) {
        html_note(out, "No PC of this report carries its sectors (kernels[].pcs[].memory).");
        free(rows.items);
        return;
    }
    qsort(rows.items, rows.count, sizeof *rows.items, by_excess_desc);
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>source line</th><th>kind</th>"
          "<th>instructions</th><th>requests</th><th>sectors</th><th>sectors / request</th>"
          "<th>ideal sectors</th><th>excess sectors</th><th>excess share</th></tr></thead>\n"
          "<tbody>\n",
          out);
    size_t shown = rows.count < SOURCE_ROWS ? rows.count : SOURCE_ROWS;
    for (size_t i = 0; i < shown; i++) {
        const line_row *r = &rows.items[i];
        fputs("<tr>", out);
        html_cell(out, "code", r->source);
        html_cell(out, NULL, r->kind);
        html_cell(out, "n", numfmt_count(r->instructions).s);
        html_cell(out, "n", numfmt_count(r->requests).s);
        html_cell(out, "n", numfmt_count(r->sectors).s);
        html_cell(out, "n", numfmt(NUMFMT_PLAIN, r->sectors / r->requests).s);
        html_cell(out, "n", numfmt_count(r->ideal).s);
        html_cell(out, "n", numfmt_count(r->excess).s);
        html_cell(out, "n", numfmt_share(r->excess, r->sectors).s);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    if (shown < rows.count)
        fprintf(out, "<p class=\"how\">The %zu of %zu source lines with the most excess sectors "
                     "are listed.</p>\n",
                shown, rows.count);
    free(rows.items);
}

/* ---- L2 slice balance ---- */

static void slice_balance(FILE *out, const json_t *memory)
{
    html_subtitle(out, "Requests per L2 slice");
    const json_t *slices = report_at(memory, "l2_slices");
    double counts[MAX_SLICES];
    size_t n = report_nums(slices, "requests", counts, MAX_SLICES);
    if (n == 0) {
        html_note(out, "The report has no requests per L2 slice (summary.memory.l2_slices).");
        return;
    }
    chart_slices(out, counts, (unsigned)n);
    double mean = report_num(slices, "mean"), max = report_num(slices, "max");
    fprintf(out, "<p class=\"how\">Min %s, mean %s (dashed), max %s requests (the busiest "
                 "slice, in orange, takes %s the mean).</p>\n",
            numfmt_count(report_num(slices, "min")).s, numfmt_count(mean).s, numfmt_count(max).s,
            numfmt(NUMFMT_TIMES, mean > 0 ? max / mean : NAN).s);
}

void html_memory(FILE *out, const json_t *doc)
{
    html_section_begin(out, "memory");
    const json_t *memory = report_at(doc, "summary.memory");
    if (!json_is_object(memory)) {
        html_absent(out, "Not in this report: it has no memory workload (summary.memory), which "
                         "analyze and profile write with their cache replay.");
        html_section_end(out);
        return;
    }
    chart(out, memory, doc);
    sectors_per_request(out, memory);
    source_table(out, doc);
    slice_balance(out, memory);
    html_section_end(out);
}
