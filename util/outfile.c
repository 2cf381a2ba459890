/* util/outfile.c: see outfile.h. */
#include "util/outfile.h"

#include "util/inputs.h"
#include "util/interrupt.h"
#include "util/outset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

struct ws_outfile {
    FILE *stream;
    char *final_path;
    char *temp_path; /* NULL for stdout, a device or a FIFO: written in place */
    int owns_stream; /* a device or FIFO this opened: closed at commit */
    int keep_registered; /* deferred: the temporary stays registered for a signal */
};

/* ".NAME.tmp.PID.XXXXXX": a temporary of process PID. */
static long temp_owner(const char *name)
{
    if (name[0] != '.')
        return -1;
    const char *tag = strstr(name, ".tmp.");
    while (tag && strstr(tag + 1, ".tmp."))
        tag = strstr(tag + 1, ".tmp."); /* the last one: NAME may hold ".tmp." */
    if (!tag)
        return -1;
    char *end;
    long pid = strtol(tag + 5, &end, 10);
    return pid > 0 && end > tag + 5 && *end == '.' && strlen(end + 1) == 6 ? pid : -1;
}

/* A run killed by SIGKILL could not remove its temporaries: the first output
 * a run writes into a directory removes those whose process is gone.  A
 * live process's (another run writing there now) is left alone.  Once per
 * directory per run, so writing many files costs one scan. */
static void remove_stale_temps(const char *dir)
{
    static char scanned[4096];
    if (strcmp(scanned, dir) == 0)
        return;
    snprintf(scanned, sizeof scanned, "%s", dir);
    DIR *d = opendir(dir[0] ? dir : ".");
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d));) {
        long pid = temp_owner(e->d_name);
        if (pid <= 0 || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s%s", dir, e->d_name) < (int)sizeof path)
            unlink(path);
    }
    closedir(d);
}

/* What the output's name holds decides how it is written (README,
 * "Outputs"): nothing or a regular file gets a temporary renamed over it; a
 * character device or a FIFO (/dev/null, a named pipe) is written in place,
 * as other tools do, since a rename would replace the node itself with a
 * regular file; a symbolic link is refused rather than replaced or followed
 * (its target may be anything, an input among them); anything else is
 * refused.  An input of the run is never an output. */
static int output_target(const char *path, int *in_place, ws_error *err)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    if (S_ISLNK(st.st_mode))
        return ws_fail(err, "is a symbolic link; name the file it points to (or - for standard output)");
    if (S_ISDIR(st.st_mode))
        return ws_fail(err, "is a directory");
    if (ws_inputs_refuse_output(path, err) != 0)
        return -1;
    *in_place = S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode);
    if (!*in_place && !S_ISREG(st.st_mode))
        return ws_fail(err, "is not a regular file, a character device or a FIFO");
    return 0;
}

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
    int in_place = 0;
    if (output_target(path, &in_place, err) != 0)
        goto fail;
    if (in_place) {
        int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (fd < 0 || !(out->stream = fdopen(fd, "wb"))) {
            ws_fail(err, "cannot open output: %s", strerror(errno));
            if (fd >= 0)
                close(fd);
            goto fail;
        }
        out->owns_stream = 1;
        return out;
    }
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path + 1) : 0;
    const char *base = path + dir_len;
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)dir_len, path);
    remove_stale_temps(dir);
    size_t n = strlen(path) + 40;
    out->temp_path = malloc(n);
    if (!out->temp_path)
        goto oom;
    snprintf(out->temp_path, n, "%.*s.%s.tmp.%ld.XXXXXX", (int)dir_len, path, base, (long)getpid());
    int fd = mkstemp(out->temp_path);
    if (fd < 0) {
        ws_fail(err, "cannot create output: %s", strerror(errno));
        free(out->temp_path);
        out->temp_path = NULL;
        goto fail;
    }
    interrupt_add_temp(out->temp_path);
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
    if (out->temp_path && !out->keep_registered)
        interrupt_forget_temp(out->temp_path);
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
        if (out->owns_stream && fclose(out->stream) != 0 && rc == 0)
            rc = ws_fail(err, "write failed: %s", strerror(errno));
        outfile_free(out);
        return rc;
    }
    int write_failed = ferror(out->stream);
    if (fclose(out->stream) != 0 || write_failed) {
        rc = ws_fail(err, "write failed: %s", strerror(errno ? errno : EIO));
        unlink(out->temp_path);
        outfile_free(out);
        return rc;
    }
    int deferred = ws_outset_defer(out->temp_path, out->final_path, err);
    if (deferred != 0) { /* the outset renames it with the run's other outputs */
        if (deferred < 0)
            unlink(out->temp_path);
        else
            out->keep_registered = 1;
        outfile_free(out);
        return deferred < 0 ? -1 : 0;
    }
    /* Registered before the rename, so a signal finds it at either name. */
    interrupt_add_committed(out->final_path);
    if (ws_inputs_refuse_output(out->final_path, err) != 0) { /* an input opened after the output */
        rc = -1;
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
    } else if (out->owns_stream) {
        fclose(out->stream);
    }
    outfile_free(out);
}

int ws_make_dir(const char *dir, ws_error *err)
{
    if (ws_outset_add_dir(dir, err) != 0)
        return -1;
    if (mkdir(dir, 0777) == 0)
        interrupt_add_dir(dir); /* ours: an interrupted run takes it back */
    else if (errno != EEXIST)
        return ws_fail(err, "%s: cannot create directory: %s", dir, strerror(errno));
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return ws_fail(err, "%s: not a directory", dir);
    return 0;
}
