/* util/progress.h: a progress bar on stderr for long runs.
 *
 * Drawn only when stderr is a terminal, not --quiet, and the run has lasted
 * more than a second: short runs and pipelines stay silent.  Updates are
 * cheap (a counter check) so the analyzer's hot loop can call it per item. */
#ifndef WS_PROGRESS_H
#define WS_PROGRESS_H

#include <stdint.h>

typedef struct progress progress;

/* total 0 = unknown (a spinner with the count).  quiet forces silence. */
progress *progress_new(const char *label, uint64_t total, int quiet);
void progress_update(progress *p, uint64_t done);
/* Erases the bar.  NULL is a no-op. */
void progress_free(progress *p);

/* For tests: draw even when stderr is not a terminal, with no delay. */
progress *progress_new_forced(const char *label, uint64_t total);

#endif
