/* util/outset.c: see outset.h. */
#include "util/outset.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/grow.h"
#include "util/interrupt.h"
#include "util/path.h"

#define MANIFEST ".warpscope-outputs"

typedef struct pending {
    char *temp, *final;
} pending;

/* Commits may come from worker threads (a CSV written beside a replay). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int deferring;
static pending *outputs;
static size_t output_count, output_cap;
static char **dirs;
static size_t dir_count, dir_cap;

void ws_outset_begin(void)
{
    pthread_mutex_lock(&lock);
    deferring = 1;
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
    for (size_t i = 0; i < dir_count && !known; i++)
        known = strcmp(dirs[i], dir) == 0;
    if (!known) {
        char *copy = strdup(dir);
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

/* Removes what the last run listed in dir and this one did not write, then
 * lists this run's files (written directly: through ws_outfile the list
 * would be deferred into the very outset being published).  A name with a slash or a leading dot was not
 * written by warpscope and is left alone. */
static int tidy_dir(const char *dir, ws_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, MANIFEST);
    FILE *old = fopen(path, "r");
    if (old) {
        char line[1024];
        while (fgets(line, sizeof line, old)) {
            line[strcspn(line, "\n")] = 0;
            if (!*line || *line == '.' || strchr(line, '/') || written_now(dir, line))
                continue;
            char stale[4096];
            snprintf(stale, sizeof stale, "%s/%s", dir, line);
            unlink(stale);
        }
        fclose(old);
    }
    char temp[4096];
    snprintf(temp, sizeof temp, "%s/%s.tmp.%ld", dir, MANIFEST, (long)getpid());
    FILE *list = fopen(temp, "w");
    if (!list)
        return ws_fail(err, "%s: cannot write: %s", path, strerror(errno));
    for (size_t i = 0; i < output_count; i++) {
        const char *name = ws_path_name_in(outputs[i].final, dir);
        if (name)
            fprintf(list, "%s\n", name);
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
        if (rename(outputs[i].temp, outputs[i].final) != 0)
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
