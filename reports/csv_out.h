/* reports/csv_out.h: CSV tables written with libcsv, so every field is
 * quoted correctly (commas and quotes in kernel names, SASS text, paths).
 * Files appear whole or not at all (util/outfile.h).
 *
 *   csv_table *t = csv_table_open("pcs.csv", (const char *[]){"pc", "U"}, 2, &err);
 *   csv_row_u64(t, 3); csv_row_double(t, 0.5); csv_row_end(t);
 *   csv_table_commit(t, &err);
 */
#ifndef WS_CSV_OUT_H
#define WS_CSV_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "util/error.h"

typedef struct csv_table csv_table;

/* path "-" writes to stdout.  Every failure, here or at commit, names the
 * path, so callers report err as it is. */
csv_table *csv_table_open(const char *path, const char *const *header, size_t columns,
                          ws_error *err);
/* Same for dir/name. */
csv_table *csv_table_open_in(const char *dir, const char *name, const char *const *header,
                             size_t columns, ws_error *err);
/* Same, on an already open stream the caller owns (no commit semantics). */
csv_table *csv_table_on_stream(FILE *stream, const char *const *header, size_t columns);

void csv_row_str(csv_table *t, const char *s); /* NULL writes an empty field */
void csv_row_u64(csv_table *t, uint64_t v);
void csv_row_i64(csv_table *t, int64_t v);
void csv_row_hex(csv_table *t, uint64_t v);    /* 0x... */
void csv_row_double(csv_table *t, double v);   /* empty when NaN */
/* num ÷ den, or empty when den is 0: an undefined ratio is NaN to pandas,
 * never a sentinel like -1 or 0. */
void csv_row_ratio(csv_table *t, double num, double den);
void csv_row_end(csv_table *t);

/* Writes and renames into place (or flushes the stream); frees t. */
int csv_table_commit(csv_table *t, ws_error *err);
void csv_table_abort(csv_table *t);

/* A string a table's writer keeps from row to row, freed with the table:
 * csv_row_kernel's last display name (reports/csv_keys.c), so a table of
 * many rows per kernel (dump --csv: one a record) demangles it once. */
typedef struct csv_memo {
    const void *owner; /* what `key` is relative to; NULL: empty */
    uint64_t key;
    char *text;
} csv_memo;
csv_memo *csv_table_memo(csv_table *t);

#endif
