/* reports/source_lines.c: see source_lines.h. */
#include "reports/source_lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/pc_label.h"
#include "reports/report_doc.h"
#include "util/grow.h"

/* The row of (source, kind), added when new; NULL when out of memory. */
static source_line *row_for(source_lines *rows, const char *source, const char *kind)
{
    for (size_t i = 0; i < rows->count; i++)
        if (strcmp(rows->items[i].source, source) == 0 && strcmp(rows->items[i].kind, kind) == 0)
            return &rows->items[i];
    if (ws_grow((void **)&rows->items, &rows->capacity, rows->count + 1, sizeof *rows->items) != 0)
        return NULL;
    source_line *r = &rows->items[rows->count++];
    *r = (source_line){0};
    snprintf(r->source, sizeof r->source, "%s", source);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    return r;
}

static void source_of(char *dst, size_t cap, const char *kernel, const json_t *pc)
{
    double line = report_num(pc, "line"), offset = report_num(pc, "offset");
    source_label(dst, cap, report_str(pc, "file"), isnan(line) ? 0 : (uint32_t)line);
    if (!*dst)
        pc_label(dst, cap, kernel, isnan(offset) ? 0 : (uint64_t)offset, 0);
}

int source_lines_add_kernel(source_lines *rows, const json_t *kernel)
{
    const char *name = report_str(kernel, "name");
    size_t i;
    json_t *pc;
    json_array_foreach(report_at(kernel, "pcs"), i, pc) {
        const json_t *m = report_at(pc, "memory");
        const char *kind = report_str(m, "kind");
        if (!kind || !(report_num(m, "requests") > 0))
            continue;
        char source[200];
        source_of(source, sizeof source, name, pc);
        source_line *r = row_for(rows, source, kind);
        if (!r)
            return -1;
        r->instructions += report_num(m, "instructions");
        r->requests += report_num(m, "requests");
        r->sectors += report_num(m, "sectors");
        r->ideal += report_num(m, "ideal_sectors");
        r->excess += report_num(m, "excess_sectors");
    }
    return 0;
}

static int by_excess_desc(const void *a, const void *b)
{
    const source_line *x = a, *y = b;
    if (x->excess != y->excess)
        return (x->excess < y->excess) - (x->excess > y->excess);
    return (x->sectors < y->sectors) - (x->sectors > y->sectors);
}

void source_lines_sort(source_lines *lines)
{
    if (lines->count)
        qsort(lines->items, lines->count, sizeof *lines->items, by_excess_desc);
}

void source_lines_free(source_lines *lines)
{
    free(lines->items);
    memset(lines, 0, sizeof *lines);
}
