/* util/inputs.c: see inputs.h. */
#include "util/inputs.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/grow.h"
#include "util/u64map.h"

typedef struct input {
    dev_t dev;
    ino_t ino;
    char *path;
} input;

/* Readers may open inputs from worker threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static input *inputs;
static size_t input_count, input_cap;
/* File identity to index in inputs: an import opens one file per kernel,
 * hundreds of thousands of them. */
static u64map by_identity;
static int keeping; /* ws_inputs_begin() was called */

/* Inode numbers stay below 2^48 on the file systems in use; the exact
 * device and inode are compared after the lookup. */
static uint64_t identity(dev_t dev, ino_t ino) { return (uint64_t)ino ^ ((uint64_t)dev << 48); }

static const char *find_locked(dev_t dev, ino_t ino)
{
    uint32_t *at = by_identity.slots ? u64map_find(&by_identity, identity(dev, ino)) : NULL;
    return at && inputs[*at].dev == dev && inputs[*at].ino == ino ? inputs[*at].path : NULL;
}

void ws_inputs_begin(void) { __atomic_store_n(&keeping, 1, __ATOMIC_RELAXED); }

void ws_inputs_add(const char *path)
{
    struct stat st;
    if (!__atomic_load_n(&keeping, __ATOMIC_RELAXED) || stat(path, &st) != 0)
        return;
    pthread_mutex_lock(&lock);
    int inserted = 0;
    if (by_identity.slots || u64map_init(&by_identity, 16) == 0)
        u64map_upsert(&by_identity, identity(st.st_dev, st.st_ino), (uint32_t)input_count, &inserted);
    char *copy = inserted ? strdup(path) : NULL;
    if (copy && ws_grow((void **)&inputs, &input_cap, input_count + 1, sizeof *inputs) == 0)
        inputs[input_count++] = (input){st.st_dev, st.st_ino, copy};
    else if (inserted) { /* out of memory: forget the half-made entry */
        free(copy);
        u64map_remove(&by_identity, identity(st.st_dev, st.st_ino));
    }
    pthread_mutex_unlock(&lock);
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
    pthread_mutex_unlock(&lock);
}
