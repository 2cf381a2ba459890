/* cli/batch_store.c: see batch_store.h. */
#include "cli/batch_store.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/compare_out.h"
#include "reports/csv_out.h"
#include "util/ranks.h"

void batch_store_path(const char *dir, const batch_run *run, char *path)
{
    snprintf(path, 4096, "%s/runs/%016llx.csv", dir, (unsigned long long)run->id);
}

int batch_store_done(const char *dir, const batch_run *run)
{
    char path[4096];
    batch_store_path(dir, run, path);
    return access(path, F_OK) == 0;
}

static int make_dir(const char *dir, ws_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return ws_fail_errno(err, dir);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ws_fail(err, "%s: not a directory", dir);
    return 0;
}

int batch_store_prepare(const char *dir, ws_error *err)
{
    char runs[4096];
    if (snprintf(runs, sizeof runs, "%s/runs", dir) >= (int)sizeof runs)
        return ws_fail(err, "%s: path too long", dir);
    return make_dir(dir, err) != 0 || make_dir(runs, err) != 0 ? -1 : 0;
}

static void key_cells(csv_table *t, const batch_grid *g, const batch_run *run)
{
    csv_row_str(t, g->traces[run->trace]);
    csv_row_str(t, g->gpus[run->gpu]);
    csv_row_str(t, g->sets[run->set]);
    csv_row_str(t, g->systems[run->system]);
    csv_row_str(t, g->orders[run->order]);
}

int batch_store_write(const char *dir, const batch_grid *g, const batch_run *run,
                      const replay_results *r, ws_error *err)
{
    static const char *const keys[] = {BATCH_KEY_COLUMNS};
    size_t columns;
    const char *const *compare = compare_csv_header(r->timed, &columns);
    const char *header[BATCH_KEY_COUNT + 64];
    if (columns > 64)
        return ws_fail(err, "too many columns");
    memcpy(header, keys, sizeof keys);
    memcpy(header + BATCH_KEY_COUNT, compare, columns * sizeof *compare);
    char path[4096], temp[4200];
    batch_store_path(dir, run, path);
    /* Unique to this rank and process: two jobs resuming one directory at
     * once still never share a temporary. */
    snprintf(temp, sizeof temp, "%s.%u.%ld.tmp", path, ranks_rank(), (long)getpid());
    FILE *f = fopen(temp, "w");
    if (!f)
        return ws_fail_errno(err, temp);
    csv_table *t = csv_table_on_stream(f, header, BATCH_KEY_COUNT + columns);
    if (!t) {
        fclose(f);
        unlink(temp);
        return ws_fail(err, "out of memory");
    }
    key_cells(t, g, run);
    compare_csv_row(t, g->policies[run->policy], r, r);
    csv_row_end(t);
    int rc = csv_table_commit(t, err);
    if (rc == 0 && (fflush(f) != 0 || fsync(fileno(f)) != 0))
        rc = ws_fail_errno(err, temp);
    if (fclose(f) != 0 && rc == 0)
        rc = ws_fail_errno(err, temp);
    if (rc == 0 && rename(temp, path) != 0)
        rc = ws_fail_errno(err, path);
    if (rc != 0)
        unlink(temp);
    return rc;
}

/* ---- reading a run file back --------------------------------------------- */

typedef struct parse_state {
    char **fields[2]; /* header, row */
    size_t count[2];
    int row, bad;
} parse_state;

static void on_field(void *text, size_t len, void *ctx)
{
    parse_state *s = ctx;
    if (s->row > 1 || s->count[s->row] >= 256) {
        s->bad = 1;
        return;
    }
    char **grown = realloc(s->fields[s->row], (s->count[s->row] + 1) * sizeof *grown);
    char *copy = malloc(len + 1);
    if (!grown || !copy) {
        if (grown)
            s->fields[s->row] = grown;
        free(copy);
        s->bad = 1;
        return;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    s->fields[s->row] = grown;
    s->fields[s->row][s->count[s->row]++] = copy;
}

static void on_row(int c, void *ctx)
{
    (void)c;
    ((parse_state *)ctx)->row++;
}

void batch_row_free(batch_row *row)
{
    for (size_t i = 0; row->header && i < row->columns; i++)
        free(row->header[i]);
    for (size_t i = 0; row->cells && i < row->columns; i++)
        free(row->cells[i]);
    free(row->header);
    free(row->cells);
    memset(row, 0, sizeof *row);
}

int batch_store_read(const char *dir, const batch_grid *g, const batch_run *run, batch_row *row,
                     ws_error *err)
{
    char path[4096];
    batch_store_path(dir, run, path);
    memset(row, 0, sizeof *row);
    FILE *f = fopen(path, "r");
    if (!f)
        return ws_fail_errno(err, path);
    struct csv_parser p;
    parse_state s = {{NULL, NULL}, {0, 0}, 0, 0};
    csv_init(&p, CSV_STRICT | CSV_APPEND_NULL);
    char buf[8192];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (csv_parse(&p, buf, n, on_field, on_row, &s) != n)
            s.bad = 1;
    csv_fini(&p, on_field, on_row, &s);
    csv_free(&p);
    int read_failed = ferror(f);
    fclose(f);
    row->header = s.fields[0];
    row->cells = s.fields[1];
    row->columns = s.count[0];
    const char *keys[BATCH_KEY_COUNT] = {g->traces[run->trace], g->gpus[run->gpu], g->sets[run->set],
                                         g->systems[run->system], g->orders[run->order]};
    int ok = !read_failed && !s.bad && s.row == 2 && s.count[0] == s.count[1] &&
             s.count[0] > BATCH_KEY_COUNT;
    for (size_t i = 0; ok && i < BATCH_KEY_COUNT; i++)
        ok = strcmp(row->cells[i], keys[i]) == 0;
    if (!ok) {
        /* Keep what was parsed freeable whatever the counts. */
        for (size_t i = 0; i < s.count[1]; i++)
            free(s.fields[1][i]);
        free(s.fields[1]);
        row->cells = NULL;
        batch_row_free(row);
        return ws_fail(err, "%s: not a whole run of this grid (delete it to replay the run)", path);
    }
    return 0;
}
