/* reports/html_memory.c: the memory section, after Nsight Compute's memory
 * workload analysis (docs/metrics.md §7, "Memory workload"): the chart of
 * what each kind of request moves through L1, L2 and DRAM, the sectors per
 * request and the excess sectors per source line, and the balance of the
 * requests over the L2 slices.  From summary.memory and the PCs' memory. */
#include <math.h>

#include "analyzer/memory_workload.h"
#include "reports/chart_memory.h"
#include "reports/html_page.h"
#include "reports/numfmt.h"
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

static void source_table(FILE *out, const source_lines *rows)
{
    html_subtitle(out, "Sectors per request and excess sectors, by source line");
    if (rows->count == 0) {
        html_note(out, "No PC of this report carries its sectors (kernels[].pcs[].memory).");
        return;
    }
    fputs("<div class=\"scroll\"><table>\n<thead><tr><th>source line</th><th>kind</th>"
          "<th>instructions</th><th>requests</th><th>sectors</th><th>sectors / request</th>"
          "<th>ideal sectors</th><th>excess sectors</th><th>excess share</th></tr></thead>\n"
          "<tbody>\n",
          out);
    size_t shown = rows->count < SOURCE_ROWS ? rows->count : SOURCE_ROWS;
    for (size_t i = 0; i < shown; i++) {
        const source_line *r = &rows->items[i];
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
    if (shown < rows->count)
        fprintf(out, "<p class=\"how\">The %zu of %zu source lines with the most excess sectors "
                     "are listed.</p>\n",
                shown, rows->count);
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

void html_memory(FILE *out, const json_t *doc, const source_lines *lines)
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
    source_table(out, lines);
    slice_balance(out, memory);
    html_section_end(out);
}
