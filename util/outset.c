/* util/outset.c: see outset.h. */
#include "util/outset.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "util/grow.h"
#include "util/inputs.h"
#include "util/interrupt.h"
#include "util/path.h"

#define MANIFEST ".warpscope-outputs"

typedef struct pending {
    char *temp, *final;
} pending;

/* Commits may come from worker threads (a CSV written beside a replay). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int deferring;
static char run_command[64] = "warpscope"; /* the subcommand, as the lists name it */
static pending *outputs;
static size_t output_count, output_cap;
static char **dirs;
static size_t dir_count, dir_cap;

void ws_outset_begin(const char *command)
{
    pthread_mutex_lock(&lock);
    deferring = 1;
    /* One word: it is a field of the list's lines. */
    snprintf(run_command, sizeof run_command, "%.*s", (int)strcspn(command, " \t\n"), command);
    pthread_mutex_unlock(&lock);
}

int ws_outset_defer(const char *temp, const char *final, ws_error *err)
{
    pthread_mutex_lock(&lock);
    int rc = 0;
    if (deferring) {
        char *t = strdup(temp), *f = strdup(final);
        if (!t || !f || ws_grow((void **)&outputs, &output_cap, output_count + 1, sizeof *outputs) != 0) {
            free(t);
            free(f);
            rc = ws_fail(err, "out of memory");
        } else {
            outputs[output_count++] = (pending){t, f};
            rc = 1;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

const char *ws_outset_path(const char *final)
{
    const char *path = final;
    pthread_mutex_lock(&lock);
    for (size_t i = output_count; i-- > 0;)
        if (strcmp(outputs[i].final, final) == 0) {
            path = outputs[i].temp;
            break;
        }
    pthread_mutex_unlock(&lock);
    return path;
}

int ws_outset_add_dir(const char *dir, ws_error *err)
{
    pthread_mutex_lock(&lock);
    int rc = 0, known = !deferring; /* immediate commits leave directories as they are */
    size_t len = strlen(dir);
    while (len > 1 && dir[len - 1] == '/') /* "tables/" is "tables" */
        len--;
    for (size_t i = 0; i < dir_count && !known; i++)
        known = strlen(dirs[i]) == len && strncmp(dirs[i], dir, len) == 0;
    if (!known) {
        char *copy = strndup(dir, len);
        if (!copy || ws_grow((void **)&dirs, &dir_cap, dir_count + 1, sizeof *dirs) != 0) {
            free(copy);
            rc = ws_fail(err, "out of memory");
        } else {
            dirs[dir_count++] = copy;
        }
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

static int written_now(const char *dir, const char *name)
{
    for (size_t i = 0; i < output_count; i++) {
        const char *in = ws_path_name_in(outputs[i].final, dir);
        if (in && strcmp(in, name) == 0)
            return 1;
    }
    return 0;
}

/* A listed file is warpscope's only while it is exactly as the run that
 * listed it left it: the same file (device, inode), size and modification
 * time.  One the user edited, replaced or wrote under that name, or a name
 * a hand-made list holds, no longer matches and is never removed. */
typedef struct signature {
    unsigned long long dev, ino, size, sec, nsec;
} signature;

static int signature_of(const char *path, signature *sig)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return -1;
    *sig = (signature){(unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
                       (unsigned long long)st.st_size, (unsigned long long)st.st_mtim.tv_sec,
                       (unsigned long long)st.st_mtim.tv_nsec};
    return 0;
}

static void list_entry(FILE *list, const signature *sig, const char *command, const char *name)
{
    fprintf(list, "%llu %llu %llu %llu %llu %s %s\n", sig->dev, sig->ino, sig->size, sig->sec,
            sig->nsec, command, name);
}

/* One line of an earlier list: what it says of the file the line names
 * (kept: listed again), or nothing if the file is removed or no longer
 * warpscope's.  Only a file the same command wrote is removed: a trace
 * `profile` wrote stays when `analyze --csv` writes its tables beside it;
 * and never an input of this run.  A name with a slash or a leading dot
 * was not written by warpscope and is left alone. */
static void tidy_entry(const char *dir, const char *line, FILE *list)
{
    signature listed, now;
    char command[64];
    int name_at = 0;
    if (sscanf(line, "%llu %llu %llu %llu %llu %63s %n", &listed.dev, &listed.ino, &listed.size,
               &listed.sec, &listed.nsec, command, &name_at) != 6 || !name_at)
        return; /* a list from before signatures, or hand-made: nothing to trust */
    const char *name = line + name_at;
    char path[4096];
    if (!*name || *name == '.' || strchr(name, '/') || written_now(dir, name) ||
        snprintf(path, sizeof path, "%s/%s", dir, name) >= (int)sizeof path ||
        signature_of(path, &now) != 0 || memcmp(&now, &listed, sizeof now) != 0)
        return;
    if (strcmp(command, run_command) == 0 && !ws_inputs_match(path))
        unlink(path);
    else
        list_entry(list, &now, command, name);
}

/* Removes what the last run of this command listed in dir and this one did
 * not write, then lists this run's files beside what stays (written
 * directly: through ws_outfile the list would be deferred into the very
 * outset being published). */
static int tidy_dir(const char *dir, ws_error *err)
{
    char path[4096], temp[4096];
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST);
    snprintf(temp, sizeof temp, "%s/%s.tmp.%ld", dir, MANIFEST, (long)getpid());
    FILE *list = fopen(temp, "w");
    if (!list)
        return ws_fail(err, "%s: cannot write: %s", path, strerror(errno));
    FILE *old = fopen(path, "r");
    if (old) {
        char line[4096 + 128];
        while (fgets(line, sizeof line, old)) {
            line[strcspn(line, "\n")] = 0;
            tidy_entry(dir, line, list);
        }
        fclose(old);
    }
    for (size_t i = 0; i < output_count; i++) {
        const char *name = ws_path_name_in(outputs[i].final, dir);
        signature sig;
        if (name && signature_of(outputs[i].final, &sig) == 0)
            list_entry(list, &sig, run_command, name);
    }
    if (fclose(list) != 0 || rename(temp, path) != 0) {
        unlink(temp);
        return ws_fail(err, "%s: cannot write: %s", path, strerror(errno));
    }
    return 0;
}

static void forget_all(void)
{
    for (size_t i = 0; i < output_count; i++) {
        free(outputs[i].temp);
        free(outputs[i].final);
    }
    for (size_t i = 0; i < dir_count; i++)
        free(dirs[i]);
    free(outputs);
    free(dirs);
    outputs = NULL;
    dirs = NULL;
    output_count = output_cap = dir_count = dir_cap = 0;
    deferring = 0;
}

int ws_outset_publish(ws_error *err)
{
    pthread_mutex_lock(&lock);
    int rc = 0;
    for (size_t i = 0; i < output_count && rc == 0; i++) {
        /* Registered before the rename, so a signal finds it at either name. */
        interrupt_add_committed(outputs[i].final);
        if (ws_inputs_refuse_output(outputs[i].final, err) != 0) /* an input opened after the output */
            rc = ws_fail_prefix(err, "%s: ", outputs[i].final);
        else if (rename(outputs[i].temp, outputs[i].final) != 0)
            rc = ws_fail(err, "%s: cannot rename output into place: %s", outputs[i].final,
                         strerror(errno));
        else
            interrupt_forget_temp(outputs[i].temp);
    }
    for (size_t i = 0; i < dir_count && rc == 0; i++)
        rc = tidy_dir(dirs[i], err);
    forget_all();
    pthread_mutex_unlock(&lock);
    return rc;
}

void ws_outset_discard(void)
{
    pthread_mutex_lock(&lock);
    forget_all();
    pthread_mutex_unlock(&lock);
}
