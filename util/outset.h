/* util/outset.h: a run's outputs appear together or not at all.
 *
 * The CLI defers every ws_outfile_commit() of a command: each output stays
 * at its temporary name until the command has succeeded, then all are
 * renamed into place at once (ws_outset_publish).  A command that fails
 * (a full disk at its last file, an HTML report that cannot be written
 * after its JSON) publishes nothing: interrupt_cleanup_now() then removes
 * the temporaries and the directories the run made, as on a signal.
 *
 * An output directory (export's, profile's, --csv's) also keeps a list of
 * the files warpscope wrote there, `.warpscope-outputs`, each with the
 * command that wrote it and the file's signature (device, inode, size,
 * modification time): publishing into a directory removes the files an
 * earlier run of the same command listed that this run did not write, so a
 * directory never mixes two runs' outputs.  A file is removed only while
 * it is exactly as warpscope left it, and never when it is an input of the
 * running command (util/inputs.h): files warpscope did not write, or that
 * were changed since, are never touched. */
#ifndef WS_OUTSET_H
#define WS_OUTSET_H

#include "util/error.h"

/* From now on, commits are deferred until ws_outset_publish(); command (the
 * subcommand) names the run in the output directories' lists. */
void ws_outset_begin(const char *command);
/* Takes over a committed temporary: 1 if deferred (temp is now the
 * outset's), 0 if commits are immediate, -1 out of memory. */
int ws_outset_defer(const char *temp, const char *final, ws_error *err);
/* Where an output committed in this run can be read now: its temporary
 * while deferred, else final itself. */
const char *ws_outset_path(const char *final);
/* Marks dir as an output directory (see above); ignored unless deferring. */
int ws_outset_add_dir(const char *dir, ws_error *err);
/* Renames every deferred output into place, then tidies the output
 * directories.  Deferral ends. */
int ws_outset_publish(ws_error *err);
/* Forgets the deferred outputs without publishing them (their temporaries
 * stay registered for interrupt_cleanup_now()). */
void ws_outset_discard(void);

#endif
