/* reports/source_lines.c: see source_lines.h. */
#include "reports/source_lines.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/pc_label.h"
#include "reports/report_doc.h"
#include "util/grow.h"
#include "util/hash64.h"

static int is_row(const source_line *r, const char *source, const char *kind)
{
    return strcmp(r->source, source) == 0 && strcmp(r->kind, kind) == 0;
}

/* The row of (source, kind), added when new; NULL when out of memory.
 * Found by the hash of both in by_key (a kernel of 30,000 PCs without
 * source lines has a row for each: a linear search took most of the
 * page's time), all rows searched when another row had the hash first.
 * A kind too long for a row's copy matches no row, as it never did. */
static source_line *row_for(source_lines *rows, const char *source, const char *kind)
{
    uint64_t key = hash64(source, strlen(source), hash64(kind, strlen(kind), 0));
    int fits = strlen(kind) < sizeof rows->items[0].kind;
    uint32_t *at = fits && rows->by_key.slots ? u64map_find(&rows->by_key, key) : NULL;
    if (at && is_row(&rows->items[*at], source, kind))
        return &rows->items[*at];
    for (size_t i = 0; at && i < rows->count; i++)
        if (is_row(&rows->items[i], source, kind))
            return &rows->items[i];
    int inserted;
    if (rows->count >= UINT32_MAX ||
        ws_grow((void **)&rows->items, &rows->capacity, rows->count + 1,
                sizeof *rows->items) != 0 ||
        (fits && !at && ((!rows->by_key.slots && u64map_init(&rows->by_key, 64) != 0) ||
                         !u64map_upsert(&rows->by_key, key, (uint32_t)rows->count, &inserted))))
        return NULL;
    source_line *r = &rows->items[rows->count++];
    *r = (source_line){0};
    snprintf(r->source, sizeof r->source, "%s", source);
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    return r;
}

static void source_of(char *dst, size_t cap, const char *kernel, const pc_place *pc)
{
    double line = pc->line, offset = pc->offset;
    source_label(dst, cap, pc->file, isnan(line) ? 0 : (uint32_t)line);
    if (!*dst)
        pc_label(dst, cap, kernel, isnan(offset) ? 0 : (uint64_t)offset, 0);
}

int source_lines_add_pc(source_lines *rows, const char *kernel, const pc_seen *pc)
{
    if (!pc->memory_kind || !(pc->memory_requests > 0))
        return 0;
    char source[200];
    source_of(source, sizeof source, kernel, &pc->place);
    source_line *r = row_for(rows, source, pc->memory_kind);
    if (!r)
        return -1;
    r->instructions += pc->memory_instructions;
    r->requests += pc->memory_requests;
    r->sectors += pc->memory_sectors;
    r->ideal += pc->memory_ideal;
    r->excess += pc->memory_excess;
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
    u64map_destroy(&lines->by_key); /* the rows move */
    if (lines->count)
        qsort(lines->items, lines->count, sizeof *lines->items, by_excess_desc);
}

void source_lines_free(source_lines *lines)
{
    free(lines->items);
    u64map_destroy(&lines->by_key);
    memset(lines, 0, sizeof *lines);
}
