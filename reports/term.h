/* reports/term.h: terminal output that fits the window.
 *
 * Every command's text fits $COLUMNS (the window's width on a terminal,
 * else 80 columns).  Tables are never wrapped: a table too wide for the
 * width leaves out its least important columns and says in one line which
 * (term_table).  Prose is wrapped at spaces, continuation lines indented
 * under the text they continue (term_field, term_wrap). */
#ifndef WS_TERM_H
#define WS_TERM_H

#include <stdio.h>

/* The width the output to `out` must fit: $COLUMNS when it is a number
 * from 20 to 1000, else the terminal's width when out is one, else 80. */
unsigned term_width(FILE *out);

/* The columns a UTF-8 string takes (one per character). */
unsigned term_text_width(const char *s);

/* Prints text wrapped to `width` at spaces; the first line starts at the
 * current column `start`, continuation lines are indented by `hang`
 * spaces.  A word longer than a line is printed whole.  Ends with '\n'. */
void term_wrap(FILE *out, unsigned width, unsigned start, unsigned hang, const char *text);

/* "  LABEL                  value ...": a label in a 22-character column
 * after two spaces, then the value, wrapped under the value's column. */
#define TERM_FIELD_LABEL 22
void term_field(FILE *out, const char *label, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* printf, then wrapped to the width of out with continuation lines
 * indented by hang spaces. */
void term_printf(FILE *out, unsigned hang, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- tables ---------------------------------------------------------- */

typedef struct term_table term_table;

typedef enum term_align { TERM_LEFT, TERM_RIGHT } term_align;

/* A table indented by `indent` spaces, its columns two spaces apart. */
term_table *term_table_new(unsigned indent);
void term_table_free(term_table *t);

/* Adds a column.  The heading may have two lines ("global-load bytes\n
 * (L1 -> L2)").  A column of importance 0 is always shown; when the table
 * is too wide, the column of least importance goes first (the rightmost of
 * equals).  Columns are added before the first cell. */
void term_table_column(term_table *t, const char *heading, term_align align, int importance);

/* The next cell of the current row, printf-style; a row ends when every
 * column has its cell. */
void term_table_cell(term_table *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints the table to fit `width`: what does not fit is left out, and a
 * line under it names the columns left out. */
void term_table_print(term_table *t, FILE *out, unsigned width);

#endif
