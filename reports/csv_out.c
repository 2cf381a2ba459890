/* reports/csv_out.c: see csv_out.h. */
#include "reports/csv_out.h"

#include <csv.h>
#include <inttypes.h>
#include <math.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/outfile.h"

struct csv_table {
    ws_outfile *out; /* NULL when writing to a caller's stream */
    char *path;      /* for errors; NULL on a caller's stream */
    FILE *stream;
    size_t columns;
    size_t field; /* fields written in the current row */
    int failed; /* the errno of the first failed write, or 0 */
    csv_memo memo;
};

/* The first failure is the one to report (a full disk, a size limit). */
static void mark_failed(csv_table *t)
{
    if (!t->failed)
        t->failed = errno ? errno : EIO;
}

/* Fields that need it are quoted by libcsv; plain ones (numbers, names)
 * stay bare so the files read well in a terminal too. */
static int needs_quotes(const char *s)
{
    return strpbrk(s, ",\"\r\n") != NULL || s[0] == ' ' || s[strlen(s) - 1] == ' ';
}

static void put_field(csv_table *t, const char *s)
{
    if (t->field++ > 0 && fputc(',', t->stream) == EOF)
        mark_failed(t);
    if (!s || !*s)
        return;
    size_t len = strlen(s);
    int rc = needs_quotes(s) ? csv_fwrite(t->stream, s, len)
                             : (fwrite(s, 1, len, t->stream) == len ? 0 : -1);
    if (rc != 0)
        mark_failed(t);
}

static void write_header(csv_table *t, const char *const *header)
{
    for (size_t i = 0; i < t->columns; i++)
        put_field(t, header[i]);
    csv_row_end(t);
}

csv_memo *csv_table_memo(csv_table *t) { return &t->memo; }

csv_table *csv_table_on_stream(FILE *stream, const char *const *header, size_t columns)
{
    csv_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->stream = stream;
    t->columns = columns;
    write_header(t, header);
    return t;
}

csv_table *csv_table_open(const char *path, const char *const *header, size_t columns,
                          ws_error *err)
{
    ws_outfile *out = ws_outfile_open(path, err);
    if (!out) {
        ws_fail_prefix(err, "%s: ", path);
        return NULL;
    }
    csv_table *t = csv_table_on_stream(ws_outfile_stream(out), header, columns);
    char *copy = strdup(path);
    if (!t || !copy) {
        ws_outfile_abort(out);
        free(t);
        free(copy);
        ws_fail(err, "%s: out of memory", path);
        return NULL;
    }
    t->out = out;
    t->path = copy;
    return t;
}

csv_table *csv_table_open_in(const char *dir, const char *name, const char *const *header,
                             size_t columns, ws_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return csv_table_open(path, header, columns, err);
}

/* Text from the trace (kernel and file names, SASS) could start a formula
 * in a spreadsheet: a field beginning with =, +, -, @, a tab or a CR gets a
 * leading apostrophe, which spreadsheets show as text (docs/report-schema.md,
 * "CSV conventions").  Numbers go through the other writers, untouched. */
void csv_row_str(csv_table *t, const char *s)
{
    if (!s || !*s || !strchr("=+-@\t\r", s[0])) {
        put_field(t, s);
        return;
    }
    size_t len = strlen(s);
    char *text = malloc(len + 2);
    if (!text) {
        mark_failed(t);
        return;
    }
    text[0] = '\'';
    memcpy(text + 1, s, len + 1);
    put_field(t, text);
    free(text);
}

void csv_row_u64(csv_table *t, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    put_field(t, buf);
}

void csv_row_i64(csv_table *t, int64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%" PRId64, v);
    put_field(t, buf);
}

void csv_row_hex(csv_table *t, uint64_t v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "0x%" PRIx64, v);
    put_field(t, buf);
}

void csv_row_double(csv_table *t, double v)
{
    char buf[32] = "";
    if (!isnan(v))
        snprintf(buf, sizeof buf, "%.6g", v);
    put_field(t, buf);
}

void csv_row_ratio(csv_table *t, double num, double den)
{
    csv_row_double(t, den > 0 ? num / den : NAN);
}

void csv_row_end(csv_table *t)
{
    if (fputc('\n', t->stream) == EOF)
        mark_failed(t);
    t->field = 0;
}

int csv_table_commit(csv_table *t, ws_error *err)
{
    int rc = 0;
    if (t->out) {
        if (t->failed) {
            ws_outfile_abort(t->out);
            errno = t->failed;
            rc = ws_fail_errno(err, "cannot write CSV");
        } else {
            rc = ws_outfile_commit(t->out, err);
        }
        if (rc != 0)
            ws_fail_prefix(err, "%s: ", t->path);
    } else if (t->failed || fflush(t->stream) != 0) {
        errno = t->failed ? t->failed : errno;
        rc = ws_fail_errno(err, "cannot write CSV");
    }
    free(t->path);
    free(t->memo.text);
    free(t);
    return rc;
}

void csv_table_abort(csv_table *t)
{
    if (!t)
        return;
    ws_outfile_abort(t->out);
    free(t->path);
    free(t->memo.text);
    free(t);
}
