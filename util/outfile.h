/* util/outfile.h: output files that appear whole or not at all.
 *
 * Every file warpscope writes goes through here: data is written to a hidden
 * temporary name in the same directory and renamed over the target only by
 * ws_outfile_commit(), so a failed or interrupted run never leaves a
 * half-written report or trace behind (README, "Outputs appear whole"). */
#ifndef WS_OUTFILE_H
#define WS_OUTFILE_H

#include <stdio.h>
#include "util/error.h"

typedef struct ws_outfile ws_outfile;

/* Opens "<dir>/.<name>.tmp.<pid>.XXXXXX" for writing.  path "-" means
 * stdout (commit then just flushes).  NULL on failure with err set.  The
 * first open in a directory removes the temporaries there of processes
 * that no longer exist (a run killed by SIGKILL). */
ws_outfile *ws_outfile_open(const char *path, ws_error *err);
FILE *ws_outfile_stream(ws_outfile *out);
const char *ws_outfile_path(const ws_outfile *out);

/* Flushes, fsyncs nothing (speed over durability), closes and renames.
 * Frees out in all cases.  -1 with err set if any write failed. */
int ws_outfile_commit(ws_outfile *out, ws_error *err);

/* Closes and removes the temporary file.  Frees out.  NULL is a no-op. */
void ws_outfile_abort(ws_outfile *out);

/* Creates directory `dir` if it does not exist; fails if it cannot, or if
 * something else has that name. */
int ws_make_dir(const char *dir, ws_error *err);

#endif
