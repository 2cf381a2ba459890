/* util/outfile.c: see outfile.h. */
#include "util/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

struct ws_outfile {
    FILE *stream;
    char *final_path;
    char *temp_path; /* NULL for stdout */
};

ws_outfile *ws_outfile_open(const char *path, ws_error *err)
{
    ws_outfile *out = calloc(1, sizeof *out);
    if (!out) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    out->final_path = strdup(path);
    if (!out->final_path)
        goto oom;
    if (strcmp(path, "-") == 0) {
        out->stream = stdout;
        return out;
    }
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        ws_fail(err, "is a directory");
        goto fail;
    }
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
    const char *base = path + dir_len;
    size_t n = strlen(path) + 16;
    out->temp_path = malloc(n);
    if (!out->temp_path)
        goto oom;
    snprintf(out->temp_path, n, "%.*s.%s.tmp.XXXXXX", (int)dir_len, path, base);
    int fd = mkstemp(out->temp_path);
    if (fd < 0) {
        ws_fail(err, "cannot create output: %s", strerror(errno));
        free(out->temp_path);
        out->temp_path = NULL;
        goto fail;
    }
    fchmod(fd, 0644);
    out->stream = fdopen(fd, "wb");
    if (!out->stream) {
        close(fd);
        ws_fail(err, "cannot open output: %s", strerror(errno));
        goto fail;
    }
    return out;
oom:
    ws_fail(err, "out of memory");
fail:
    ws_outfile_abort(out);
    return NULL;
}

FILE *ws_outfile_stream(ws_outfile *out) { return out->stream; }
const char *ws_outfile_path(const ws_outfile *out) { return out->final_path; }

static void outfile_free(ws_outfile *out)
{
    free(out->final_path);
    free(out->temp_path);
    free(out);
}

int ws_outfile_commit(ws_outfile *out, ws_error *err)
{
    int rc = 0;
    if (!out->temp_path) {
        if (fflush(out->stream) != 0 || ferror(out->stream))
            rc = ws_fail(err, "write failed: %s", strerror(errno));
        outfile_free(out);
        return rc;
    }
    int write_failed = ferror(out->stream);
    if (fclose(out->stream) != 0 || write_failed) {
        rc = ws_fail(err, "write failed: %s", strerror(errno ? errno : EIO));
        unlink(out->temp_path);
    } else if (rename(out->temp_path, out->final_path) != 0) {
        rc = ws_fail(err, "cannot rename output into place: %s", strerror(errno));
        unlink(out->temp_path);
    }
    outfile_free(out);
    return rc;
}

void ws_outfile_abort(ws_outfile *out)
{
    if (!out)
        return;
    if (out->temp_path) {
        if (out->stream)
            fclose(out->stream);
        unlink(out->temp_path);
    }
    outfile_free(out);
}

int ws_make_dir(const char *dir, ws_error *err)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return ws_fail(err, "%s: cannot create directory: %s", dir, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ws_fail(err, "%s: not a directory", dir);
    return 0;
}
