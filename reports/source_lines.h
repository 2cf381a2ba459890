/* reports/source_lines.h: the memory section's sectors and excess sectors
 * per source line (docs/metrics.md §7), summed over the report's PCs: a
 * PC's place is its file:line, or kernel+0xOFF without one
 * (reports/pc_label.h), so a kernel's launches fall in one row. */
#ifndef WS_SOURCE_LINES_H
#define WS_SOURCE_LINES_H

#include <jansson.h>
#include <stddef.h>

#include "reports/pc_groups.h"
#include "util/u64map.h"

typedef struct source_line {
    char source[200];
    char kind[16]; /* kernels[].pcs[].memory.kind */
    double instructions, requests, sectors, ideal, excess;
} source_line;

typedef struct source_lines {
    source_line *items;
    size_t count, capacity;
    u64map by_key; /* building: (source, kind) to its row */
} source_lines;

/* Adds one launch's PC of the kernel named `kernel` (reports/pc_groups.h:
 * a report's PCs are read one at a time); start from a zeroed
 * source_lines.  -1 when out of memory. */
int source_lines_add_pc(source_lines *lines, const char *kernel, const pc_seen *pc);
/* Most excess sectors first (then most sectors): the order the page
 * lists.  Ends the building: no PC may be added after. */
void source_lines_sort(source_lines *lines);
void source_lines_free(source_lines *lines);

#endif
