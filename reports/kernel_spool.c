/* reports/kernel_spool.c: see kernel_spool.h. */
#include "reports/kernel_spool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reports/json_out.h"
#include "util/json_print.h"
#include "util/json_stream.h"

/* Entries are read back as doubles: 17 digits make them exact, so a figure
 * is the same whether it comes from the spool or from memory.  Both files
 * are printed compact by util/json_print.h (json_dumps's bytes). */
#define SPOOL_PRECISION 17

/* Up to two files: `file` holds each entry as one compact line, read back as
 * JSON (the HTML digest, profile's rewrite); `report` holds the same
 * entries already printed as report.json prints them, so writing the
 * report copies bytes instead of parsing every entry and printing it again
 * (that round trip was a third of `analyze` on a trace of 510 kernels). */
struct kernel_spool {
    FILE *file;   /* SPOOL_ENTRIES, else NULL */
    FILE *report; /* SPOOL_PRINTED, else NULL */
    size_t count;
};

/* An unlinked temporary file in dir: gone with the process, whatever ends it. */
static FILE *temporary(const char *dir, ws_error *err)
{
    size_t n = strlen(dir) + 32;
    char *path = malloc(n);
    if (!path)
        return ws_fail(err, "out of memory"), NULL;
    snprintf(path, n, "%s/warpscope-kernels.XXXXXX", dir);
    int fd = mkstemp(path);
    FILE *f = NULL;
    if (fd >= 0)
        unlink(path);
    if (fd < 0 || !(f = fdopen(fd, "w+"))) {
        ws_fail(err, "%s: cannot hold the kernels' results: %s", dir, strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    free(path);
    return f;
}

kernel_spool *kernel_spool_new(unsigned keeps, ws_error *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    kernel_spool *s = calloc(1, sizeof *s);
    if (!s)
        return ws_fail(err, "out of memory"), NULL;
    if (((keeps & SPOOL_ENTRIES) && !(s->file = temporary(dir, err))) ||
        ((keeps & SPOOL_PRINTED) && !(s->report = temporary(dir, err)))) {
        kernel_spool_free(s);
        return NULL;
    }
    return s;
}

void kernel_spool_free(kernel_spool *s)
{
    if (!s)
        return;
    if (s->file)
        fclose(s->file);
    if (s->report)
        fclose(s->report);
    free(s);
}

static int write_failed(ws_error *err)
{
    return ws_fail(err, "cannot hold the kernels' results in the temporary directory: %s",
                   strerror(errno ? errno : EIO));
}

/* The entry printed with precision, and how much of it comes before the
 * elements of its array `key` (up to and with its '['); all of it when key
 * is NULL. */
static int dump_split(const json_t *entry, int precision, const char *key, char **text,
                      size_t *head, ws_error *err)
{
    *text = json_print_compact(entry, precision);
    const char *at = *text && key ? json_empty_array_at(*text, key) : NULL;
    if (!*text || (key && !at))
        return *text ? ws_fail(err, "internal: the entry has no empty \"%s\" array", key)
                     : ws_fail(err, "out of memory");
    *head = at ? (size_t)(at - *text) + 1 : strlen(*text);
    return 0;
}

/* Each file gets the entry as it keeps it: `file` one compact line with
 * every digit, `report` as report.json prints an element of its top-level
 * "kernels" array, after a comma from the entry before, so the spliced
 * report is byte for byte the whole document's dump.  A compact dump of an
 * array is its elements' dumps joined by commas, so an array written one
 * element at a time prints the same bytes as the whole entry. */
int kernel_spool_add_streamed(kernel_spool *s, const json_t *entry, const char *key,
                              kernel_spool_element_fn element, void *ctx, size_t count,
                              ws_error *err)
{
    FILE *files[2] = {s->file, s->report};
    const int precisions[2] = {SPOOL_PRECISION, REPORT_JSON_PRECISION};
    char *text[2] = {NULL, NULL};
    size_t head[2] = {0, 0};
    int rc = 0;
    errno = 0;
    for (int f = 0; rc == 0 && f < 2; f++)
        if (files[f] && (rc = dump_split(entry, precisions[f], key, &text[f], &head[f], err)) == 0 &&
            (fseek(files[f], 0, SEEK_END) != 0 ||
             (files[f] == s->report && s->count && fputc(',', files[f]) == EOF) ||
             fwrite(text[f], 1, head[f], files[f]) != head[f]))
            rc = write_failed(err);
    for (size_t i = 0; rc == 0 && i < count; i++) {
        json_t *e = element(ctx, i);
        if (!e)
            rc = ws_fail(err, "out of memory");
        for (int f = 0; e && rc == 0 && f < 2; f++) {
            char *printed = files[f] ? json_print_compact(e, precisions[f]) : NULL;
            if (files[f] && !printed)
                rc = ws_fail(err, "out of memory");
            else if (files[f] && ((i && fputc(',', files[f]) == EOF) ||
                                  fputs(printed, files[f]) == EOF))
                rc = write_failed(err);
            free(printed);
        }
        json_decref(e);
    }
    for (int f = 0; rc == 0 && f < 2; f++)
        if (files[f] && (fputs(text[f] + head[f], files[f]) == EOF ||
                         (files[f] == s->file && fputc('\n', files[f]) == EOF)))
            rc = write_failed(err);
    free(text[0]);
    free(text[1]);
    if (rc == 0)
        s->count++;
    return rc;
}

int kernel_spool_add(kernel_spool *s, const json_t *entry, ws_error *err)
{
    return kernel_spool_add_streamed(s, entry, NULL, NULL, NULL, 0, err);
}

int kernel_spool_copy_printed(kernel_spool *s, FILE *to, ws_error *err)
{
    if (!s->report)
        return ws_fail(err, "internal: this spool keeps no printed entries");
    errno = 0;
    if (fflush(s->report) != 0 || fseek(s->report, 0, SEEK_SET) != 0)
        return write_failed(err);
    char block[1 << 16];
    size_t n;
    while ((n = fread(block, 1, sizeof block, s->report)) > 0)
        if (fwrite(block, 1, n, to) != n)
            return ws_fail_errno(err, "cannot write JSON");
    if (ferror(s->report))
        return write_failed(err);
    return 0;
}

size_t kernel_spool_count(const kernel_spool *s) { return s->count; }

int kernel_spool_each(kernel_spool *s, kernel_spool_fn fn, void *ctx, ws_error *err)
{
    if (!s->file)
        return ws_fail(err, "internal: this spool keeps no entries to read back");
    errno = 0;
    if (fflush(s->file) != 0 || fseek(s->file, 0, SEEK_SET) != 0)
        return write_failed(err);
    char *line = NULL;
    size_t capacity = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->count; i++) {
        ssize_t n = getline(&line, &capacity, s->file);
        json_error_t jerr;
        json_t *entry = n > 0 ? json_loadb(line, (size_t)n, 0, &jerr) : NULL;
        if (!entry) {
            rc = ws_fail(err, "the kernels' results in the temporary directory were cut short");
            break;
        }
        rc = fn(ctx, i, entry, err);
        json_decref(entry);
    }
    free(line);
    return rc;
}

typedef struct rewrite {
    kernel_spool *into;
    kernel_spool_fn fn;
    void *ctx;
} rewrite;

static int rewrite_one(void *ctx, size_t index, json_t *entry, ws_error *err)
{
    rewrite *r = ctx;
    if (r->fn(r->ctx, index, entry, err) != 0)
        return -1;
    return kernel_spool_add(r->into, entry, err);
}

int kernel_spool_rewrite(kernel_spool **s, kernel_spool_fn fn, void *ctx, ws_error *err)
{
    rewrite r = {.fn = fn, .ctx = ctx};
    unsigned keeps = ((*s)->file ? SPOOL_ENTRIES : 0) | ((*s)->report ? SPOOL_PRINTED : 0);
    if (!(r.into = kernel_spool_new(keeps, err)))
        return -1;
    if (kernel_spool_each(*s, rewrite_one, &r, err) != 0) {
        kernel_spool_free(r.into);
        return -1;
    }
    kernel_spool_free(*s);
    *s = r.into;
    return 0;
}

int report_kernels_each(const json_t *doc, kernel_spool *spool, kernel_spool_fn fn, void *ctx,
                        ws_error *err)
{
    if (spool)
        return kernel_spool_each(spool, fn, ctx, err);
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(doc, "kernels"), i, entry) {
        int rc = fn(ctx, i, entry, err);
        if (rc != 0)
            return rc;
    }
    return 0;
}

static int append(void *ctx, size_t index, json_t *entry, ws_error *err)
{
    (void)index;
    return json_array_append(ctx, entry) == 0 ? 0 : ws_fail(err, "out of memory");
}

int kernel_spool_attach(json_t *doc, kernel_spool *s, ws_error *err)
{
    json_t *kernels = json_array();
    if (!kernels || kernel_spool_each(s, append, kernels, err) != 0) {
        json_decref(kernels);
        return -1;
    }
    return json_object_set_new(doc, "kernels", kernels) == 0 ? 0 : ws_fail(err, "out of memory");
}
