/* util/inputs.c: see inputs.h. */
#include "util/inputs.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/grow.h"
#include "util/u64map.h"

typedef struct input {
    dev_t dev;
    ino_t ino;
    char *path;
} input;

/* The first inputs are kept in memory, the rest in a temporary file: an
 * import opens one file per kernel, hundreds of thousands of them, and
 * the registry must not grow with them (issue 42, item 3). */
#define INPUTS_IN_MEMORY 1024

/* A spilled input: its identity and path length, then the path. */
typedef struct spilled {
    uint64_t dev, ino;
    uint32_t path_len;
} spilled;

/* Readers may open inputs from worker threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static input *inputs;
static size_t input_count, input_cap;
/* File identity to index in inputs (those in memory). */
static u64map by_identity;
static FILE *spill;        /* the inputs past INPUTS_IN_MEMORY; NULL before any */
static int spill_read;     /* it was read since the last write (a write must seek its end) */
static int spill_failed;   /* a write to it failed: no output may be trusted to be no input */
static char *spilled_path; /* the last spilled input found (ws_inputs_match) */
static int keeping;        /* ws_inputs_begin() was called */

/* Inode numbers stay below 2^48 on the file systems in use; the exact
 * device and inode are compared after the lookup. */
static uint64_t identity(dev_t dev, ino_t ino) { return (uint64_t)ino ^ ((uint64_t)dev << 48); }

/* An unlinked temporary file in $TMPDIR (or /tmp), or NULL. */
static FILE *temporary(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/warpscope-inputs.XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    unlink(path);
    FILE *f = fdopen(fd, "w+");
    if (!f)
        close(fd);
    return f;
}

/* Appends the input to the spill file; -1 when it cannot (it is then kept
 * in memory: an input is never forgotten). */
static int spill_locked(const struct stat *st, const char *path)
{
    if (spill_failed || (!spill && !(spill = temporary())))
        return -1;
    spilled e = {(uint64_t)st->st_dev, (uint64_t)st->st_ino, (uint32_t)strlen(path)};
    if (spill_read && fseek(spill, 0, SEEK_END) != 0)
        return -1;
    spill_read = 0;
    if (fwrite(&e, sizeof e, 1, spill) != 1 || fwrite(path, 1, e.path_len, spill) != e.path_len) {
        spill_failed = 1; /* part of it may be in the file: no later entry can be trusted */
        return -1;
    }
    return 0;
}

static void remember_locked(const struct stat *st, const char *path)
{
    int inserted = 0;
    uint64_t key = identity(st->st_dev, st->st_ino);
    uint32_t *at = by_identity.slots ? u64map_find(&by_identity, key) : NULL;
    if (at && inputs[*at].dev == st->st_dev && inputs[*at].ino == st->st_ino)
        return; /* the same file again */
    if ((at || input_count >= INPUTS_IN_MEMORY) && spill_locked(st, path) == 0)
        return; /* past the memory's share, or its key is another file's */
    if (by_identity.slots || u64map_init(&by_identity, 16) == 0)
        u64map_upsert(&by_identity, key, (uint32_t)input_count, &inserted);
    char *copy = inserted ? strdup(path) : NULL;
    if (copy && ws_grow((void **)&inputs, &input_cap, input_count + 1, sizeof *inputs) == 0)
        inputs[input_count++] = (input){st->st_dev, st->st_ino, copy};
    else if (inserted) { /* out of memory: forget the half-made entry */
        free(copy);
        u64map_remove(&by_identity, key);
    }
}

void ws_inputs_begin(void) { __atomic_store_n(&keeping, 1, __ATOMIC_RELAXED); }

void ws_inputs_add(const char *path)
{
    struct stat st;
    if (!__atomic_load_n(&keeping, __ATOMIC_RELAXED) || stat(path, &st) != 0)
        return;
    pthread_mutex_lock(&lock);
    remember_locked(&st, path);
    pthread_mutex_unlock(&lock);
}

/* The spilled input that is (dev, ino), read into spilled_path; NULL when
 * none is.  When the file cannot be written or read back, any file may be
 * an input: a placeholder names none. */
static const char *find_spilled_locked(dev_t dev, ino_t ino)
{
    static const char unknown[] = "(one of the inputs: the temporary list of inputs failed)";
    if (!spill)
        return NULL;
    spill_read = 1;
    if (spill_failed || fflush(spill) != 0 || fseek(spill, 0, SEEK_SET) != 0) {
        spill_failed = 1;
        return unknown;
    }
    spilled e;
    while (fread(&e, sizeof e, 1, spill) == 1) {
        if (e.dev != (uint64_t)dev || e.ino != (uint64_t)ino) {
            if (fseek(spill, e.path_len, SEEK_CUR) != 0)
                return unknown;
            continue;
        }
        char *path = realloc(spilled_path, (size_t)e.path_len + 1);
        if (!path || fread(path, 1, e.path_len, spill) != e.path_len) {
            if (path)
                spilled_path = path;
            return unknown;
        }
        spilled_path = path;
        path[e.path_len] = '\0';
        return path;
    }
    return ferror(spill) ? unknown : NULL;
}

static const char *find_locked(dev_t dev, ino_t ino)
{
    uint32_t *at = by_identity.slots ? u64map_find(&by_identity, identity(dev, ino)) : NULL;
    if (at && inputs[*at].dev == dev && inputs[*at].ino == ino)
        return inputs[*at].path;
    return find_spilled_locked(dev, ino);
}

const char *ws_inputs_match(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return NULL;
    pthread_mutex_lock(&lock);
    const char *found = find_locked(st.st_dev, st.st_ino);
    pthread_mutex_unlock(&lock);
    return found;
}

int ws_inputs_refuse_output(const char *path, ws_error *err)
{
    const char *in = ws_inputs_match(path);
    return in ? ws_fail(err, "is the input %s; write the output elsewhere", in) : 0;
}

void ws_inputs_clear(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < input_count; i++)
        free(inputs[i].path);
    free(inputs);
    u64map_destroy(&by_identity);
    inputs = NULL;
    input_count = input_cap = 0;
    if (spill)
        fclose(spill);
    spill = NULL;
    spill_read = spill_failed = 0;
    free(spilled_path);
    spilled_path = NULL;
    pthread_mutex_unlock(&lock);
}
