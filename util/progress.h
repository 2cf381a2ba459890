/* util/progress.h: a progress bar on stderr for long runs.
 *
 * Drawn only when stderr is a terminal, not --quiet, and the run has lasted
 * more than a second: short runs and pipelines stay silent.  Updates are
 * cheap (a counter check) so the analyzer's hot loop can call it per item.
 *
 * A command of several phases (profile: record, analyze, bypass hints,
 * policies) plans them first; each bar then says which phase it is,
 * "[2/4] analyze", and every bar with a known total estimates the time its
 * phase has left from its pace so far. */
#ifndef WS_PROGRESS_H
#define WS_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

typedef struct progress progress;

/* total 0 = unknown (a spinner with the count of `unit`s, e.g. "records";
 * unit may be NULL).  quiet forces silence. */
progress *progress_new(const char *label, uint64_t total, int quiet);
progress *progress_new_counting(const char *label, const char *unit, int quiet);
void progress_update(progress *p, uint64_t done);
/* Erases the bar.  NULL is a no-op. */
void progress_free(progress *p);

/* The command has `phases` phases (0 or 1: no numbering); the next bars
 * belong to phase 1 until progress_next_phase().  A bar made before the
 * plan or after the last phase is not numbered.  Process-wide, as the
 * terminal it draws on. */
void progress_plan(unsigned phases);
void progress_next_phase(void);

/* The bar's text for `done` of `total` after `elapsed` seconds (no \r):
 * "[2/4] analyze [#####-----] 50% 12s, about 12s left".  For tests. */
void progress_format(char *buf, size_t cap, const char *label, const char *unit, uint64_t done,
                     uint64_t total, double elapsed);

/* For tests: draw even when stderr is not a terminal, with no delay. */
progress *progress_new_forced(const char *label, uint64_t total);

#endif
