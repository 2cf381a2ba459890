/* reports/kernel_spool.c: see kernel_spool.h. */
#include "reports/kernel_spool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Entries are read back as doubles: 17 digits make them exact, so a figure
 * is the same whether it comes from the spool or from memory. */
#define SPOOL_FLAGS (JSON_COMPACT | JSON_REAL_PRECISION(17))

struct kernel_spool {
    FILE *file;
    size_t count;
};

kernel_spool *kernel_spool_new(ws_error *err)
{
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir)
        dir = "/tmp";
    size_t n = strlen(dir) + 32;
    char *path = malloc(n);
    kernel_spool *s = calloc(1, sizeof *s);
    if (!path || !s) {
        free(path);
        free(s);
        return ws_fail(err, "out of memory"), NULL;
    }
    snprintf(path, n, "%s/warpscope-kernels.XXXXXX", dir);
    int fd = mkstemp(path);
    if (fd >= 0)
        unlink(path); /* gone with the process, whatever ends it */
    if (fd < 0 || !(s->file = fdopen(fd, "w+"))) {
        ws_fail(err, "%s: cannot hold the kernels' results: %s", dir, strerror(errno));
        if (fd >= 0)
            close(fd);
        free(path);
        free(s);
        return NULL;
    }
    free(path);
    return s;
}

void kernel_spool_free(kernel_spool *s)
{
    if (!s)
        return;
    fclose(s->file);
    free(s);
}

static int write_failed(ws_error *err)
{
    return ws_fail(err, "cannot hold the kernels' results in the temporary directory: %s",
                   strerror(errno ? errno : EIO));
}

int kernel_spool_add(kernel_spool *s, const json_t *entry, ws_error *err)
{
    errno = 0;
    if (fseek(s->file, 0, SEEK_END) != 0 || json_dumpf(entry, s->file, SPOOL_FLAGS) != 0 ||
        fputc('\n', s->file) == EOF)
        return write_failed(err);
    s->count++;
    return 0;
}

size_t kernel_spool_count(const kernel_spool *s) { return s->count; }

int kernel_spool_each(kernel_spool *s, kernel_spool_fn fn, void *ctx, ws_error *err)
{
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
    if (!(r.into = kernel_spool_new(err)))
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
