/* reports/source_lines.h: the memory section's sectors and excess sectors
 * per source line (docs/metrics.md §7), summed over the report's PCs: a
 * PC's place is its file:line, or kernel+0xOFF without one
 * (reports/pc_label.h), so a kernel's launches fall in one row. */
#ifndef WS_SOURCE_LINES_H
#define WS_SOURCE_LINES_H

#include <jansson.h>
#include <stddef.h>

typedef struct source_line {
    char source[200];
    char kind[16]; /* kernels[].pcs[].memory.kind */
    double instructions, requests, sectors, ideal, excess;
} source_line;

typedef struct source_lines {
    source_line *items;
    size_t count, capacity;
} source_lines;

/* Adds one kernel entry's PCs; start from a zeroed source_lines.  -1 when
 * out of memory. */
int source_lines_add_kernel(source_lines *lines, const json_t *kernel);
/* Most excess sectors first (then most sectors): the order the page lists. */
void source_lines_sort(source_lines *lines);
void source_lines_free(source_lines *lines);

#endif
