/* util/inputs.h: the files the running command reads.
 *
 * An output must never replace an input of the same run (`analyze t.wst
 * -o t.wst` would turn the trace into its own report), and an output
 * directory's tidying must never remove one (util/outset.h).  Readers
 * register what they open; util/outfile.c and util/outset.c ask before
 * writing or removing.  Files are compared by identity (device and inode),
 * so a second name for the same file, a hard or a symbolic link, is
 * caught too.  The first 1,024 distinct files opened are held in memory,
 * any more in an unlinked temporary file (an import opens one file per
 * launch: issue 42), so memory does not follow the number of inputs.  It
 * keeps nothing until ws_inputs_begin(): a command is one run, but a
 * program using the library (the unit tests) may well write a file it
 * read before. */
#ifndef WS_INPUTS_H
#define WS_INPUTS_H

#include "util/error.h"

/* From now on, inputs are remembered (the CLI's main, as ws_outset_begin). */
void ws_inputs_begin(void);
/* Remembers path as an input of this run (nothing if it cannot be stat'ed:
 * its open fails on its own). */
void ws_inputs_add(const char *path);
/* The input path names the same file as path, or NULL (valid until the
 * next call: an input from the temporary file is read into one buffer). */
const char *ws_inputs_match(const char *path);
/* -1 with "is the input IN; write the output elsewhere" when path names an
 * input (the caller names path), else 0. */
int ws_inputs_refuse_output(const char *path, ws_error *err);
/* Forgets every input (tests). */
void ws_inputs_clear(void);

#endif
