/* collectors/accelsim/accelsim_input.h: Accel-Sim text files, line by line.
 *
 * Reads plain files and, when the name ends in .xz, decompresses them with
 * liblzma as it goes, so a multi-gigabyte kernel-N.traceg.xz never has to
 * be unpacked on disk or held in memory.  Memory is one read block plus
 * the longest line (capped: a tracer line is at most a few hundred bytes). */
#ifndef WS_ACCELSIM_INPUT_H
#define WS_ACCELSIM_INPUT_H

#include "util/error.h"

#define ACCELSIM_LINE_MAX (64u << 10)

typedef struct accelsim_input accelsim_input;

/* err says "PATH: cannot open: reason" on failure. */
accelsim_input *accelsim_input_open(const char *path, ws_error *err);

/* 1 with *line set to the next line (no newline nor the CR of a CRLF
 * line ending, NUL-terminated, valid
 * until the next call), 0 at the end, -1 on a read or decompression error
 * (err starts with "PATH:LINE: "). */
int accelsim_input_line(accelsim_input *in, char **line, ws_error *err);

/* Number of the line last returned, from 1. */
unsigned long accelsim_input_lineno(const accelsim_input *in);
const char *accelsim_input_path(const accelsim_input *in);

void accelsim_input_close(accelsim_input *in);

#endif
