/* reports/html_pc_cells.h: what the PC tables (html_pc_table.c,
 * html_store_pcs.c) and the kernel table (html_kernels.c) share. */
#ifndef WS_HTML_PC_CELLS_H
#define WS_HTML_PC_CELLS_H

#include <jansson.h>
#include <stdio.h>

#include "reports/pc_groups.h"

/* Characters of "kernel+0xOFF" in a PC cell: a long kernel name is
 * shortened (the offset never is) so the table fits a 1400 px window. */
#define PC_CELL_LABEL_WIDTH 36

/* <code>text</code>, with the full text on hover when text is a
 * shortened form of it. */
void html_code_shortened(FILE *out, const char *text, const char *full);

/* The PC: its demangled "kernel+0xOFF" label, the full name on hover when
 * shortened, and under it "file:line · SASS". */
void html_pc_cell(FILE *out, const pc_group *g);

/* A per-launch figure (NaN when the launch's PC object had none). */
typedef enum launch_figure { LAUNCH_EXECUTIONS, LAUNCH_REQUESTS, LAUNCH_L1_HIT_RATE } launch_figure;
double pc_launch_figure(const pc_launch *l, launch_figure figure);

typedef struct launch_column {
    const char *title;
    launch_figure figure;
    int percent; /* a ratio, else a count */
} launch_column;

/* The number of launches; with more than one, a <details> (no script)
 * that opens on a table of the launches with these columns. */
void html_launches_cell(FILE *out, const pc_group *g, const launch_column *columns, size_t n);

/* A PC table: the PC column, then heads (the other <th>s); row() writes
 * the <tr> of each PC of one kind (loads, or stores and atomics), passed
 * `option`; the first PC_TABLE_ROWS of them, and a note when there are
 * more. */
#define PC_TABLE_ROWS 1000
void html_pc_rows(FILE *out, const pc_groups *pcs, int loads, const char *heads,
                  void (*row)(FILE *out, const pc_group *g, int option), int option);

#endif
