/* reports/html_source.c: the source view: the source lines of the PCs
 * (file:line from the trace's line table), file by file, each with the
 * text of the line where the file is readable and its counters beside it:
 * requests, sectors, the replay's L1 hit rate and the bypass advice.  A
 * line of an emulator port also shows the same access in the port's CUDA
 * program (collectors/workloads/cuda_lines.h), so gaussian.c:22 reads as
 * gaussian.cu:13 too. */
#include "reports/html_extra.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/workloads/cuda_lines.h"
#include "reports/html_page.h"
#include "reports/pc_label.h"
#include "reports/source_text.h"
#include "reports/svg.h"
#include "util/grow.h"

#define MAX_TWINS 4

typedef struct line_row {
    const char *file; /* as the trace gives it (held by the digest) */
    uint32_t line;
    double requests, sectors, l1_hits, l1_requests;
    unsigned bypass_yes, bypass_seen;
    int loads;
} line_row;

typedef struct line_rows {
    line_row *items;
    size_t count, capacity;
} line_rows;

static line_row *row_for(line_rows *rows, const char *file, uint32_t line)
{
    for (size_t i = 0; i < rows->count; i++)
        if (rows->items[i].line == line && strcmp(rows->items[i].file, file) == 0)
            return &rows->items[i];
    if (ws_grow((void **)&rows->items, &rows->capacity, rows->count + 1, sizeof *rows->items) != 0)
        return NULL;
    line_row *r = &rows->items[rows->count++];
    *r = (line_row){.file = file, .line = line};
    return r;
}

static int by_file_line(const void *a, const void *b)
{
    const line_row *x = a, *y = b;
    int c = strcmp(x->file, y->file);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

/* The sectors of a source line over its kinds (the memory section's rows). */
static double sectors_of(const source_lines *lines, const char *file, uint32_t line)
{
    char label[200];
    source_label(label, sizeof label, file, line);
    double sum = 0;
    for (size_t i = 0; i < lines->count; i++)
        if (strcmp(lines->items[i].source, label) == 0)
            sum += lines->items[i].sectors;
    return sum;
}

static int gather(line_rows *rows, const kernel_digest *d)
{
    for (size_t i = 0; i < d->pcs.count; i++) {
        const pc_group *g = &d->pcs.items[i];
        const char *file = g->place.file;
        double line = g->place.line; /* an integer's value, exact below 2^53 */
        if (!file || !*file || !g->place.line_is_integer || line <= 0 || line > UINT32_MAX ||
            !(g->requests > 0))
            continue;
        line_row *r = row_for(rows, file, (uint32_t)line);
        if (!r)
            return -1;
        r->requests += g->requests;
        r->loads |= g->place.kind == PC_KIND_LOAD;
        if (g->have_replay) {
            r->l1_hits += g->l1_hits;
            r->l1_requests += g->l1_hits + g->l1_misses;
        }
        r->bypass_yes += g->bypass_yes;
        r->bypass_seen += g->bypass_seen;
    }
    for (size_t i = 0; i < rows->count; i++)
        rows->items[i].sectors = sectors_of(&d->lines, rows->items[i].file, rows->items[i].line);
    if (rows->count)
        qsort(rows->items, rows->count, sizeof *rows->items, by_file_line);
    return 0;
}

static const char *advice(const line_row *r)
{
    if (!r->loads)
        return "store or atomic: writes through to L2";
    if (r->bypass_seen == 0)
        return "no bypass hints in this report (warpscope profile gives them)";
    if (2 * r->bypass_yes > r->bypass_seen)
        return "bypass L1: use __ldcg(...) for this load";
    return "keep in L1";
}

/* The CUDA program beside the port: DIR/cuda/NAME.cu for a port at
 * DIR/NAME.c. */
static void twin_path(char *dst, size_t cap, const char *port_path, const char *cuda_file)
{
    const char *slash = strrchr(port_path, '/');
    if (slash)
        snprintf(dst, cap, "%.*s/cuda/%s", (int)(slash - port_path), port_path, cuda_file);
    else
        snprintf(dst, cap, "cuda/%s", cuda_file);
}

static void code_cell(FILE *out, const char *text)
{
    fputs("<td class=\"code src-text\"><code>", out);
    if (text) {
        while (*text == ' ' || *text == '\t')
            text++;
        xml_escape(out, text);
    }
    fputs("</code></td>", out);
}

/* The port's CUDA program, read once per file table. */
typedef struct twin_file {
    const char *name; /* the .cu base name, or NULL before the first */
    source_text text;
    int readable;
} twin_file;

static const char *twin_line(twin_file *t, const line_row *r, const cuda_line *twin,
                             const char *source_dir)
{
    if (!t->name || strcmp(t->name, twin->cuda_file) != 0) {
        if (t->readable)
            source_text_free(&t->text);
        char path[1024];
        twin_path(path, sizeof path, r->file, twin->cuda_file);
        t->name = twin->cuda_file;
        t->readable = source_text_load(&t->text, source_dir, path) == 0;
    }
    return t->readable ? source_text_line(&t->text, twin->cuda_line) : NULL;
}

static void twin_cells(FILE *out, const line_row *r, twin_file *t, const char *source_dir)
{
    const cuda_line *twins[MAX_TWINS];
    size_t n = cuda_lines_of(r->file, r->line, twins, MAX_TWINS);
    if (n == 0) {
        fputs("<td></td><td></td>", out);
        return;
    }
    fputs("<td class=\"code\">", out);
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s<code>", i ? "<br>" : "");
        xml_escape(out, twins[i]->cuda_file);
        fprintf(out, ":%u</code>", twins[i]->cuda_line);
    }
    fputs("</td><td class=\"code src-text\">", out);
    for (size_t i = 0; i < n; i++) {
        const char *line = twin_line(t, r, twins[i], source_dir);
        fprintf(out, "%s<code>", i ? "<br>" : "");
        if (line) {
            while (*line == ' ' || *line == '\t')
                line++;
            xml_escape(out, line);
        }
        fputs("</code>", out);
    }
    fputs("</td>", out);
}

static void file_table(FILE *out, const line_row *rows, size_t n, const char *source_dir)
{
    source_text text;
    int readable = source_text_load(&text, source_dir, rows[0].file) == 0;
    int twins = 0;
    for (size_t i = 0; i < n; i++) {
        const cuda_line *t[1];
        twins |= cuda_lines_of(rows[i].file, rows[i].line, t, 1) > 0;
    }
    fputs("<h3><code>", out);
    xml_escape(out, rows[0].file);
    fputs("</code></h3>\n", out);
    if (!readable)
        html_note(out, "The file is not readable here: its lines show their counters without their "
                       "text (--source-dir DIR says where to look).");
    fputs("<div class=\"scroll\"><table class=\"source\">\n<thead><tr><th>line</th><th>source</th>"
          "<th>requests</th><th>sectors</th><th>L1 hit rate</th><th>advice</th>",
          out);
    if (twins)
        fputs("<th>in the CUDA program</th><th>CUDA source</th>", out);
    fputs("</tr></thead>\n<tbody>\n", out);
    twin_file twin = {0};
    for (size_t i = 0; i < n; i++) {
        const line_row *r = &rows[i];
        char number[16];
        snprintf(number, sizeof number, "%u", r->line);
        fprintf(out, "<tr id=\"src-");
        for (const char *c = r->file; *c; c++)
            fputc((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')
                      ? *c : '-', out);
        fprintf(out, "-%u\">", r->line);
        html_cell(out, "n", number);
        code_cell(out, readable ? source_text_line(&text, r->line) : NULL);
        html_cell(out, "n", numfmt_count(r->requests).s);
        html_cell(out, "n", numfmt_count(r->sectors).s);
        html_cell(out, "n", numfmt_percent(r->l1_requests > 0 ? r->l1_hits / r->l1_requests : NAN).s);
        html_cell(out, NULL, advice(r));
        if (twins)
            twin_cells(out, r, &twin, source_dir);
        fputs("</tr>\n", out);
    }
    fputs("</tbody></table></div>\n", out);
    if (twin.readable)
        source_text_free(&twin.text);
    if (readable)
        source_text_free(&text);
}

void html_source_view(FILE *out, const kernel_digest *d, const char *source_dir)
{
    fputs("<section id=\"source\">\n<h2>Source view</h2>\n<p class=\"how\">The source lines of "
          "the memory instructions, from the trace's line table, file by file: the text of each "
          "line where the file is readable, its line requests (launches and PCs of one line "
          "summed), the 32 B sectors they moved in the replay, the replay's L1 hit rate of its "
          "loads and the bypass advice. A line of an emulator port also shows the same access "
          "in the port's CUDA program.</p>\n",
          out);
    line_rows rows = {0};
    if (gather(&rows, d) != 0 || rows.count == 0) {
        html_absent(out, "The trace carries no source lines (file:line) for its memory "
                         "instructions: compile with -lineinfo to get them.");
    } else {
        for (size_t begin = 0; begin < rows.count;) {
            size_t end = begin + 1;
            while (end < rows.count && strcmp(rows.items[end].file, rows.items[begin].file) == 0)
                end++;
            file_table(out, rows.items + begin, end - begin, source_dir);
            begin = end;
        }
    }
    free(rows.items);
    fputs("</section>\n", out);
}
