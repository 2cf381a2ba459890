/* util/interrupt.h: what an interrupted run takes back.
 *
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE must leave no temporary or partial file and no
 * directory the run made.  main() calls interrupt_install() first: a
 * handler then takes SIGINT, SIGTERM and SIGHUP in whichever thread they
 * reach, removes every registered temporary, every file committed into a
 * directory the run made, and those directories, says so in one line, and
 * ends the process by the same signal.  It does only what a handler may
 * (unlink, rmdir, write): the registry's lock is held only with those
 * signals blocked, so the thread that runs the handler never holds it.
 * SIGPIPE is ignored: a write to a reader gone fails with EPIPE, and the
 * CLI stops by interrupt_stop(SIGPIPE) once it sees that.
 *
 * util/outfile.c registers its temporaries, commits and directories; the
 * registry holds one entry per output file, so its size follows the run's
 * outputs, not its input. */
#ifndef WS_INTERRUPT_H
#define WS_INTERRUPT_H

/* Installs the handler and ignores SIGPIPE.  Without it (the unit tests),
 * the functions below only keep the registry. */
void interrupt_install(void);

/* A temporary file: removed on a signal until forgotten. */
void interrupt_add_temp(const char *path);
void interrupt_forget_temp(const char *path);
/* A directory this run created; on a signal, the files committed into it
 * are removed, then it. */
void interrupt_add_dir(const char *dir);
/* A file renamed into place: removed on a signal if it lies in a directory
 * this run created. */
void interrupt_add_committed(const char *path);

/* What the handler does on a signal, also called as ordinary code: removes
 * what the run wrote, says so in one line, and ends the process by sig. */
void interrupt_stop(int sig) __attribute__((noreturn));

/* In a child after fork(), before exec: the signals back to their default
 * actions (SIGPIPE too), so the program it runs ends by them as usual. */
void interrupt_child_reset(void);

/* For tests: what a signal would remove, removed now; returns how many
 * paths were removed. */
int interrupt_cleanup_now(void);

#endif
