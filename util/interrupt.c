/* util/interrupt.c: see interrupt.h. */
#include "util/interrupt.h"
#include "util/ranks.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/path.h"

typedef enum { ENTRY_TEMP, ENTRY_DIR, ENTRY_COMMITTED } entry_kind;

typedef struct entry {
    entry_kind kind;
    char *path;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static entry *entries;
static size_t count, cap;

static void add(entry_kind kind, const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return; /* out of memory: this path is merely not cleaned on a signal */
    pthread_mutex_lock(&lock);
    if (count == cap) {
        size_t grown = cap ? 2 * cap : 16;
        entry *e = realloc(entries, grown * sizeof *e);
        if (!e) {
            pthread_mutex_unlock(&lock);
            free(copy);
            return;
        }
        entries = e;
        cap = grown;
    }
    entries[count++] = (entry){kind, copy};
    pthread_mutex_unlock(&lock);
}

void interrupt_add_temp(const char *path) { add(ENTRY_TEMP, path); }
void interrupt_add_dir(const char *dir) { add(ENTRY_DIR, dir); }

void interrupt_forget_temp(const char *path)
{
    pthread_mutex_lock(&lock);
    for (size_t i = count; i-- > 0;) {
        if (entries[i].kind == ENTRY_TEMP && strcmp(entries[i].path, path) == 0) {
            free(entries[i].path);
            entries[i] = entries[--count];
            break;
        }
    }
    pthread_mutex_unlock(&lock);
}

void interrupt_add_committed(const char *path)
{
    int ours = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < count && !ours; i++)
        ours = entries[i].kind == ENTRY_DIR && ws_path_name_in(path, entries[i].path);
    pthread_mutex_unlock(&lock);
    if (ours)
        add(ENTRY_COMMITTED, path);
}

/* Files first, then directories, the most recent first (a directory made
 * inside another goes before it). */
static int cleanup_locked(void)
{
    int removed = 0;
    for (size_t i = count; i-- > 0;)
        if (entries[i].kind != ENTRY_DIR && unlink(entries[i].path) == 0)
            removed++;
    for (size_t i = count; i-- > 0;)
        if (entries[i].kind == ENTRY_DIR && rmdir(entries[i].path) == 0)
            removed++;
    return removed;
}

int interrupt_cleanup_now(void)
{
    pthread_mutex_lock(&lock);
    int removed = cleanup_locked();
    for (size_t i = 0; i < count; i++)
        free(entries[i].path);
    count = 0;
    pthread_mutex_unlock(&lock);
    return removed;
}

static sigset_t watched;

/* SIGINT, SIGTERM and SIGHUP: the signals that end a run asking it to stop;
 * and SIGPIPE, a reader gone (`profile ... | head -1`): blocked, a write to
 * the closed pipe fails with EPIPE instead of killing the run before it
 * can take its outputs back, and the CLI then stops by interrupt_stop(). */
static void stop_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
    sigaddset(set, SIGPIPE);
}

static void *watch(void *unused)
{
    (void)unused;
    int sig = 0;
    if (sigwait(&watched, &sig) != 0)
        return NULL;
    interrupt_stop(sig);
    return NULL;
}

void interrupt_stop(int sig)
{
    /* The lock stays held: no output may be registered or committed now. */
    pthread_mutex_lock(&lock);
    int removed = cleanup_locked();
    /* Rank 0 speaks for the job (util/ranks.h): the other ranks write no
     * output, and mpirun stops them when rank 0 has ended a failed job. */
    if (ranks_rank() == 0) {
        if (isatty(STDERR_FILENO))
            fprintf(stderr, "\r%100s\r", ""); /* over a progress bar */
        fprintf(stderr, "warpscope: interrupted (%s); %s\n", strsignal(sig),
                removed ? "its partial outputs are removed" : "nothing was written");
    }
    fflush(stderr);
    signal(sig, SIG_DFL);
    sigset_t just_sig;
    sigemptyset(&just_sig);
    sigaddset(&just_sig, sig);
    pthread_sigmask(SIG_UNBLOCK, &just_sig, NULL);
    raise(sig); /* the exit status says which signal ended the run */
    _exit(128 + sig);
}

void interrupt_install(void)
{
    stop_signals(&watched);
    if (pthread_sigmask(SIG_BLOCK, &watched, NULL) != 0)
        return;
    pthread_t thread;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attr, watch, NULL) != 0)
        pthread_sigmask(SIG_UNBLOCK, &watched, NULL); /* no watcher: plain default signals */
    pthread_attr_destroy(&attr);
}

void interrupt_child_reset(void)
{
    sigset_t stops;
    stop_signals(&stops);
    pthread_sigmask(SIG_UNBLOCK, &stops, NULL);
}
