/* collectors/accelsim/accelsim.h: Accel-Sim trace import and export.
 *
 * Accel-Sim's NVBit tracer writes one text file per kernel (kernel-N.trace,
 * post-processed into kernel-N.traceg grouped by thread block) and a
 * kernelslist(.g) naming them in launch order.  docs/accelsim.md lists what
 * is carried in each direction and how SASS opcodes map onto the trace model
 * of docs/metrics.md §1.
 *
 * Every error message starts with the file it is about and, when it is
 * about one line, that line: "dir/kernel-1.traceg:12: bad hex 'x12'", so
 * the CLI prints it as `warpscope: FILE:LINE: what is wrong`. */
#ifndef WS_ACCELSIM_H
#define WS_ACCELSIM_H

#include "formats/sink.h"
#include "util/error.h"

/* What the traces say beyond the kernels. */
typedef struct accelsim_info {
    unsigned binary_version; /* the first kernel's "-binary version" (61: sm_61); 0 unknown */
} accelsim_info;

/* path: a kernelslist.g (or raw kernelslist), a directory holding one, or a
 * single kernel-N.traceg / kernel-N.trace, optionally .xz-compressed.
 * Streams: memory is bounded by one line plus the PC table of a kernel.
 * Records of a .traceg thread block are followed by end_cta().  A kernel
 * file a list names but that exists only as FILE.xz is read from there.
 * info (may be NULL) receives what the headers say of the GPU. */
int accelsim_import(const char *path, const wst_sink *sink, accelsim_info *info, ws_error *err);

/* Writes out_dir/kernelslist.g and out_dir/kernel-N.traceg (N from 1) for
 * every kernel of the .wst file; creates out_dir if missing.  Every CTA of
 * the grid and every warp of it is written, each warp ending with an EXIT,
 * so that Accel-Sim's simulator runs the result (docs/accelsim.md).  Memory
 * is bounded by the records of one CTA. */
int accelsim_export(const char *wst_path, const char *out_dir, ws_error *err);
/* The same, of the launches filter chooses (NULL: all; formats/kernel_filter.h). */
struct kernel_filter;
int accelsim_export_filtered(const char *wst_path, const struct kernel_filter *filter,
                             const char *out_dir, ws_error *err);

#endif
