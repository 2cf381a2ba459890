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
    /* Elements held for the next entry (kernel_spool_hold_element), as each
     * file will print them, comma-joined: made when first needed. */
    FILE *held[2];
    size_t held_count;
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

static const char *spool_dir(void)
{
    const char *dir = getenv("TMPDIR");
    return dir && *dir ? dir : "/tmp";
}

kernel_spool *kernel_spool_new(unsigned keeps, ws_error *err)
{
    const char *dir = spool_dir();
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
    for (int f = 0; f < 2; f++)
        if (s->held[f])
            fclose(s->held[f]);
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

/* The two files an entry goes to, and how each prints it. */
#define FILES 2
static const int file_precisions[FILES] = {SPOOL_PRECISION, REPORT_JSON_PRECISION};
static FILE **file_at(kernel_spool *s, int f) { return f == 0 ? &s->file : &s->report; }

/* Writes the elements of the entry's array to every file (each after a
 * comma but the first): the entry's head is written, its tail is next. */
typedef int (*write_elements_fn)(kernel_spool *s, void *ctx, ws_error *err);

/* Each file gets the entry as it keeps it: `file` one compact line with
 * every digit, `report` as report.json prints an element of its top-level
 * "kernels" array, after a comma from the entry before, so the spliced
 * report is byte for byte the whole document's dump.  A compact dump of an
 * array is its elements' dumps joined by commas, so an array written one
 * element at a time prints the same bytes as the whole entry. */
static int add_entry(kernel_spool *s, const json_t *entry, const char *key,
                     write_elements_fn elements, void *ctx, ws_error *err)
{
    char *text[FILES] = {NULL, NULL};
    size_t head[FILES] = {0, 0};
    int rc = 0;
    errno = 0;
    for (int f = 0; rc == 0 && f < FILES; f++) {
        FILE *to = *file_at(s, f);
        if (to && (rc = dump_split(entry, file_precisions[f], key, &text[f], &head[f], err)) == 0 &&
            (fseek(to, 0, SEEK_END) != 0 ||
             (to == s->report && s->count && fputc(',', to) == EOF) ||
             fwrite(text[f], 1, head[f], to) != head[f]))
            rc = write_failed(err);
    }
    if (rc == 0 && elements)
        rc = elements(s, ctx, err);
    for (int f = 0; rc == 0 && f < FILES; f++) {
        FILE *to = *file_at(s, f);
        if (to && (fputs(text[f] + head[f], to) == EOF ||
                   (to == s->file && fputc('\n', to) == EOF)))
            rc = write_failed(err);
    }
    free(text[0]);
    free(text[1]);
    if (rc == 0)
        s->count++;
    return rc;
}

/* Writes one element to every file, after a comma unless it is the first. */
static int write_element(kernel_spool *s, FILE *const *to, const json_t *e, int first,
                         ws_error *err)
{
    for (int f = 0; f < FILES; f++) {
        if (!to[f])
            continue;
        char *printed = json_print_compact(e, file_precisions[f]);
        if (!printed)
            return ws_fail(err, "out of memory");
        int failed = (!first && fputc(',', to[f]) == EOF) || fputs(printed, to[f]) == EOF;
        free(printed);
        if (failed)
            return write_failed(err);
    }
    return 0;
}

typedef struct made_elements {
    kernel_spool_element_fn element;
    void *ctx;
    size_t count;
} made_elements;

static int write_made(kernel_spool *s, void *ctx, ws_error *err)
{
    made_elements *m = ctx;
    FILE *to[FILES] = {s->file, s->report};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < m->count; i++) {
        json_t *e = m->element(m->ctx, i);
        rc = e ? write_element(s, to, e, i == 0, err) : ws_fail(err, "out of memory");
        json_decref(e);
    }
    return rc;
}

int kernel_spool_add_streamed(kernel_spool *s, const json_t *entry, const char *key,
                              kernel_spool_element_fn element, void *ctx, size_t count,
                              ws_error *err)
{
    made_elements m = {element, ctx, count};
    return add_entry(s, entry, key, write_made, &m, err);
}

int kernel_spool_add(kernel_spool *s, const json_t *entry, ws_error *err)
{
    return add_entry(s, entry, NULL, NULL, NULL, err);
}

int kernel_spool_hold_element(kernel_spool *s, const json_t *element, ws_error *err)
{
    for (int f = 0; f < FILES; f++)
        if (*file_at(s, f) && !s->held[f] && !(s->held[f] = temporary(spool_dir(), err)))
            return -1;
    errno = 0;
    if (write_element(s, s->held, element, s->held_count == 0, err) != 0)
        return -1;
    s->held_count++;
    return 0;
}

/* The held elements copied to each file, and forgotten. */
static int write_held(kernel_spool *s, void *ctx, ws_error *err)
{
    (void)ctx;
    char block[1 << 16];
    for (int f = 0; f < FILES; f++) {
        FILE *from = s->held[f], *to = *file_at(s, f);
        if (!to || !from)
            continue;
        if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
            return write_failed(err);
        size_t n;
        while ((n = fread(block, 1, sizeof block, from)) > 0)
            if (fwrite(block, 1, n, to) != n)
                return write_failed(err);
        if (ferror(from) || fseek(from, 0, SEEK_SET) != 0 || ftruncate(fileno(from), 0) != 0)
            return write_failed(err);
    }
    s->held_count = 0;
    return 0;
}

int kernel_spool_add_held(kernel_spool *s, const json_t *entry, const char *key, ws_error *err)
{
    if (!json_is_array(json_object_get(entry, key)))
        return s->held_count ? ws_fail(err, "kernel entry %zu gives \"%s\" twice, an array "
                                            "and not", s->count, key)
                             : kernel_spool_add(s, entry, err);
    return add_entry(s, entry, key, write_held, NULL, err);
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

/* A read_fn (util/json_stream.h) over the spool's next line: one entry. */
typedef struct line_reader {
    FILE *f;
    int ended;
} line_reader;

static ssize_t read_line(void *ctx, char *buf, size_t n, ws_error *err)
{
    line_reader *r = ctx;
    if (r->ended)
        return 0;
    if (!fgets(buf, (int)n, r->f)) /* the spool's compact JSON holds no NUL byte */
        return ferror(r->f) ? ws_fail_errno(err, "cannot read the kernels' results back") : 0;
    size_t got = strlen(buf);
    r->ended = got > 0 && buf[got - 1] == '\n';
    return (ssize_t)got;
}

static int skip_element(void *ctx, size_t index, json_t *element, ws_error *err)
{
    (void)ctx, (void)index, (void)element, (void)err;
    return 0;
}

int kernel_spool_each_streamed(kernel_spool *s, const char *key, json_stream_element_fn element,
                               kernel_spool_fn fn, void *ctx, ws_error *err)
{
    if (!s->file)
        return ws_fail(err, "internal: this spool keeps no entries to read back");
    errno = 0;
    if (fflush(s->file) != 0 || fseek(s->file, 0, SEEK_SET) != 0)
        return write_failed(err);
    static const json_stream_limits limits = {0, 0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s->count; i++) {
        line_reader r = {s->file, 0};
        json_t *entry = json_stream_load(read_line, &r, key, element ? element : skip_element, ctx,
                                         &limits, err);
        if (!entry)
            return -1;
        rc = r.ended ? fn(ctx, i, entry, err)
                     : ws_fail(err, "the kernels' results in the temporary directory were cut "
                                    "short");
        json_decref(entry);
    }
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

int report_kernels_each_streamed(const json_t *doc, kernel_spool *spool, const char *key,
                                 json_stream_element_fn element, kernel_spool_fn fn, void *ctx,
                                 ws_error *err)
{
    if (spool)
        return kernel_spool_each_streamed(spool, key, element, fn, ctx, err);
    size_t i;
    json_t *entry;
    json_array_foreach(json_object_get(doc, "kernels"), i, entry) {
        size_t j;
        json_t *e;
        json_array_foreach(element ? json_object_get(entry, key) : NULL, j, e) {
            if (element(ctx, j, e, err) != 0)
                return -1;
        }
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
