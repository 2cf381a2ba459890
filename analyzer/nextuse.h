/* analyzer/nextuse.h: next-use positions for Belady's OPT (docs/metrics.md §7).
 *
 * OPT needs, for every access, when the same key is used next.  That is a
 * backward pass over the access stream, and the stream can be far larger
 * than memory.  So the keys are appended to an unlinked temporary file
 * (8 bytes per access), the backward pass reads it block by block keeping
 * only a map of distinct keys, and writes the next-use positions to a
 * second temporary file that the replay then reads forward.  Memory is
 * O(distinct keys); disk is 16 bytes per access while the replay runs.
 *
 * Keys are whatever identifies a cache line to one cache: (SM, line) for a
 * private L1, the line for a shared L2 (63 bits: the top bit is the
 * stream's own).  Positions count accesses from 0.
 *
 * A next use is one the cache could still serve (docs/metrics.md §7): a kill (a store
 * that invalidates the line) or a fence (a kernel end that flushes the
 * cache) between two accesses of a key means the first has none. */
#ifndef WS_NEXTUSE_H
#define WS_NEXTUSE_H

#include <stdint.h>
#include "util/error.h"

#define NEXTUSE_NEVER UINT64_MAX

typedef struct nextuse nextuse;

nextuse *nextuse_new(ws_error *err);
void nextuse_free(nextuse *n);

/* Recording phase: one call per access, in replay order. */
int nextuse_record(nextuse *n, uint64_t key, ws_error *err);

/* Recording phase: the key is invalidated here.  A kill takes a position,
 * like an access (the replay reads its entry and ignores it), so callers
 * make the same calls in both phases. */
int nextuse_record_kill(nextuse *n, uint64_t key, ws_error *err);
/* Recording phase: every key is dropped here.  A fence takes no position. */
int nextuse_fence(nextuse *n, ws_error *err);

/* Ends recording and runs the backward pass. */
int nextuse_finish(nextuse *n, ws_error *err);

/* Replay phase: the next-use position of access number `position` (which
 * must be read in order 0, 1, 2, ...), NEXTUSE_NEVER if never used again. */
int nextuse_read(nextuse *n, uint64_t *next_position, ws_error *err);

uint64_t nextuse_count(const nextuse *n);

#endif
