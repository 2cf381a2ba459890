/* formats/kernel_filter.h: which kernel launches of a trace a command
 * reads, chosen as Nsight Compute chooses them (`--kernel-name`,
 * `--launch-skip`, `--launch-count`).
 *
 * Applied once, to the reader, before anything reads records
 * (wst_reader_keep_kernels): every command then sees a trace of the chosen
 * launches alone, renumbered from 0, so no command filters on its own. */
#ifndef WS_KERNEL_FILTER_H
#define WS_KERNEL_FILTER_H

#include <stdint.h>

#include "formats/wst.h"
#include "util/error.h"

typedef struct kernel_filter {
    /* NULL: every kernel.  "regex:EXPR": the launches whose name (mangled,
     * or demangled as `warpscope info` shows it) contains a match of the
     * POSIX extended regular expression EXPR.  Otherwise the launches whose
     * name is exactly this: the mangled name, the demangled name, or its
     * function name alone (`Fan1` for `_Z4Fan1PfS_ii`), as ncu's
     * --kernel-name-base function. */
    const char *name;
    uint64_t launch_skip;  /* matching launches left out first */
    uint64_t launch_count; /* then at most this many; 0 = all the rest */
} kernel_filter;

/* True when f leaves some launch out (anything set). */
int kernel_filter_active(const kernel_filter *f);

/* A compiled name pattern: an invalid regex is an error here, once. */
int kernel_filter_check(const kernel_filter *f, ws_error *err);

/* Keeps the launches f chooses; a filter that chooses none is an error
 * ("no kernel launch matches -k X --launch-skip N ..."), as is a bad
 * regex.  0 or -1 with err; a no-op when f chooses everything. */
int kernel_filter_apply(const kernel_filter *f, wst_reader *r, ws_error *err);

/* The options as a user would type them ("-k regex:Fan --launch-skip 2"). */
void kernel_filter_describe(const kernel_filter *f, char *dst, size_t cap);

#endif
