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
static sigset_t watched; /* the stop signals, once interrupt_install has run */

/* The registry's lock, taken with the stop signals blocked in this thread:
 * a thread that takes one (on_stop_signal) never holds the lock, so the
 * handler's wait for it ends. */
static void hold(sigset_t *before)
{
    pthread_sigmask(SIG_BLOCK, &watched, before);
    pthread_mutex_lock(&lock);
}

static void release(const sigset_t *before)
{
    pthread_mutex_unlock(&lock);
    pthread_sigmask(SIG_SETMASK, before, NULL);
}

static void add(entry_kind kind, const char *path)
{
    char *copy = strdup(path);
    if (!copy)
        return; /* out of memory: this path is merely not cleaned on a signal */
    sigset_t before;
    hold(&before);
    if (count == cap) {
        size_t grown = cap ? 2 * cap : 16;
        entry *e = realloc(entries, grown * sizeof *e);
        if (!e) {
            release(&before);
            free(copy);
            return;
        }
        entries = e;
        cap = grown;
    }
    entries[count++] = (entry){kind, copy};
    release(&before);
}

void interrupt_add_temp(const char *path) { add(ENTRY_TEMP, path); }
void interrupt_add_dir(const char *dir) { add(ENTRY_DIR, dir); }

void interrupt_forget_temp(const char *path)
{
    sigset_t before;
    hold(&before);
    for (size_t i = count; i-- > 0;) {
        if (entries[i].kind == ENTRY_TEMP && strcmp(entries[i].path, path) == 0) {
            free(entries[i].path);
            entries[i] = entries[--count];
            break;
        }
    }
    release(&before);
}

void interrupt_add_committed(const char *path)
{
    int ours = 0;
    sigset_t before;
    hold(&before);
    for (size_t i = 0; i < count && !ours; i++)
        ours = entries[i].kind == ENTRY_DIR && ws_path_name_in(path, entries[i].path);
    release(&before);
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
    sigset_t before;
    hold(&before);
    int removed = cleanup_locked();
    for (size_t i = 0; i < count; i++)
        free(entries[i].path);
    count = 0;
    release(&before);
    return removed;
}

/* SIGINT, SIGTERM and SIGHUP: the signals that end a run asking it to stop.
 * SIGPIPE, a reader gone (`profile ... | head -1`), is ignored instead: a
 * write to the closed pipe fails with EPIPE rather than killing the run
 * before it can take its outputs back, and the CLI then stops by
 * interrupt_stop(). */
static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
enum { STOPS = sizeof stops / sizeof stops[0] };
static pid_t owner; /* the process that installed the handler */

/* strsignal's words for the signals handled, said without it: it is not
 * async-signal-safe. */
static const char *signal_words(int sig)
{
    switch (sig) {
    case SIGINT: return "Interrupt";
    case SIGTERM: return "Terminated";
    case SIGHUP: return "Hangup";
    case SIGPIPE: return "Broken pipe";
    default: return "signal";
    }
}

static void say(const char *text) { (void)!write(STDERR_FILENO, text, strlen(text)); }

/* Runs in whichever thread took the signal.  A child forked by `record`
 * before its exec is not the run: it ends by the signal as it would
 * without the handler. */
static void on_stop_signal(int sig)
{
    if (getpid() != owner) {
        signal(sig, SIG_DFL);
        raise(sig); /* delivered once the handler returns */
        return;
    }
    interrupt_stop(sig);
}

/* Async-signal-safe (on_stop_signal calls it): the registry's lock is
 * never held by a thread that can take a stop signal (each holder blocks
 * them: hold()), the files go by unlink and rmdir, and the line by
 * write(2). */
void interrupt_stop(int sig)
{
    /* The lock stays held: no output may be registered or committed now.
     * The stop signals are blocked first, so that none taken now (a
     * second Ctrl-C) enters this again in this thread. */
    pthread_sigmask(SIG_BLOCK, &watched, NULL);
    pthread_mutex_lock(&lock);
    int removed = cleanup_locked();
    /* Rank 0 speaks for the job (util/ranks.h): the other ranks write no
     * output, and mpirun stops them when rank 0 has ended a failed job. */
    if (ranks_rank() == 0) {
        if (isatty(STDERR_FILENO)) { /* over a progress bar: 100 blanks */
            say("\r");
            for (int i = 0; i < 10; i++)
                say("          ");
            say("\r");
        }
        say("warpscope: interrupted (");
        say(signal_words(sig));
        say(removed ? "); its partial outputs are removed\n" : "); nothing was written\n");
    }
    signal(sig, SIG_DFL);
    sigset_t just_sig;
    sigemptyset(&just_sig);
    sigaddset(&just_sig, sig);
    pthread_sigmask(SIG_UNBLOCK, &just_sig, NULL);
    raise(sig); /* the exit status says which signal ended the run */
    _exit(128 + sig);
}

/* A handler, not a thread that waits for the signals: starting and ending
 * that thread cost a short run (a timed compare of 2dconv) several percent
 * of its CPU time (bench/RESULTS.md, "No watcher thread"). */
void interrupt_install(void)
{
    owner = getpid();
    sigemptyset(&watched);
    for (int i = 0; i < STOPS; i++)
        sigaddset(&watched, stops[i]);
    /* one stop at a time: each blocks the others while it runs */
    struct sigaction stop = {.sa_handler = on_stop_signal, .sa_flags = SA_RESTART,
                             .sa_mask = watched};
    for (int i = 0; i < STOPS; i++)
        sigaction(stops[i], &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
}

void interrupt_child_reset(void)
{
    for (int i = 0; i < STOPS; i++)
        signal(stops[i], SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
}
