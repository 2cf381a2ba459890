/* analyzer/results_pack.h: a replay's results as bytes and back, for the
 * ranks of one job (docs/analysis.md "Ranks": compare's entries replayed on
 * other ranks reach rank 0 as these).
 *
 * The bytes are the same program's structs, so only ranks of one build may
 * exchange them.  They hold counters per kernel, PC and SM, never per-record
 * data.  An unpacked copy is plain data: every output that reads a
 * hierarchy's results reads it alike. */
#ifndef WS_RESULTS_PACK_H
#define WS_RESULTS_PACK_H

#include <stddef.h>

#include "analyzer/hierarchy.h"
#include "util/pack.h"

typedef pack_bytes results_bytes;

/* Appends r to out.  0, or -1 with err set (out of memory). */
int results_pack(const replay_results *r, results_bytes *out, ws_error *err);

/* Reads one packed results from data[*at..size), advancing *at.  NULL with
 * err set when the bytes are short or inconsistent. */
replay_results *results_unpack(const unsigned char *data, size_t size, size_t *at, ws_error *err);
void results_unpacked_free(replay_results *r);

#endif
