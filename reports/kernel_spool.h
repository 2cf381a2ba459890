/* reports/kernel_spool.h: the report's kernel entries, set aside as each
 * kernel ends (docs/report-schema.md, Kernels).
 *
 * analyze and profile report a kernel when the pass has ended it and keep
 * nothing of it in memory: its JSON entry goes to unlinked temporary
 * files, as one compact line with every digit (read back one entry at a
 * time when the HTML is drawn or profile rewrites the entries) and printed
 * as report.json prints it (copied in where the document's empty "kernels"
 * array is), each when wanted.  Memory follows the largest kernel, not the
 * number of kernels; the disk holds about what report.json will, twice
 * when both are kept. */
#ifndef WS_KERNEL_SPOOL_H
#define WS_KERNEL_SPOOL_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "util/error.h"
#include "util/json_stream.h"

typedef struct kernel_spool kernel_spool;

/* What a spool keeps of each entry: the entries to read back
 * (kernel_spool_each, _rewrite, _attach: the HTML page, profile's
 * verdicts), the entries as report.json prints them
 * (kernel_spool_copy_printed), or both.  Each is a file of its own. */
enum { SPOOL_ENTRIES = 1, SPOOL_PRINTED = 2, SPOOL_BOTH = 3 };

/* A new, empty spool in $TMPDIR (or /tmp) keeping `keeps` (SPOOL_*). */
kernel_spool *kernel_spool_new(unsigned keeps, ws_error *err);
void kernel_spool_free(kernel_spool *s);

int kernel_spool_add(kernel_spool *s, const json_t *entry, ws_error *err);
/* The same entry, with its array `key` (a member of the entry, given as an
 * empty array) filled one element at a time: element(ctx, i), a new
 * reference, for i < count, each written and freed before the next is
 * made.  Memory holds one element, not the array (a kernel's PCs: 10,000
 * of them were 160 MB of JSON objects); the spool's bytes are those of
 * kernel_spool_add with the array filled. */
typedef json_t *(*kernel_spool_element_fn)(void *ctx, size_t i);
int kernel_spool_add_streamed(kernel_spool *s, const json_t *entry, const char *key,
                              kernel_spool_element_fn element, void *ctx, size_t count,
                              ws_error *err);
/* The same bytes again, for an entry whose array `key` comes before the
 * rest of it (a report read from text gives a kernel's PCs first:
 * reports/run_docs.c): each element is held in a temporary file as it
 * comes, and kernel_spool_add_held adds the entry (its `key` an empty
 * array, or absent when nothing was held) with them.  Memory holds one
 * element. */
int kernel_spool_hold_element(kernel_spool *s, const json_t *element, ws_error *err);
int kernel_spool_add_held(kernel_spool *s, const json_t *entry, const char *key, ws_error *err);
size_t kernel_spool_count(const kernel_spool *s);
/* Writes every entry as it goes inside report.json's "kernels" array
 * (each on its own lines, after ",\n  " or, the first, "\n  "), copied
 * as printed when it was added: reals to ten digits (REPORT_JSON_FLAGS). */
int kernel_spool_copy_printed(kernel_spool *s, FILE *to, ws_error *err);

/* Calls fn on every entry in order; fn may change the entry, which is
 * freed after.  A non-zero return from fn stops the walk and is returned
 * (fn sets err). */
typedef int (*kernel_spool_fn)(void *ctx, size_t index, json_t *entry, ws_error *err);
int kernel_spool_each(kernel_spool *s, kernel_spool_fn fn, void *ctx, ws_error *err);

/* The same walk with each entry's array `key` read an element at a time:
 * element(ctx, j, e) on its elements as they are read (e freed after; a
 * NULL element skips them),
 * then fn on the entry, whose `key` it must not read (an empty array
 * here, the whole array from report_kernels_each_streamed without a
 * spool).  Memory holds one element, not the entry's array (a kernel of
 * 30,000 PCs was 540 MiB as one tree: issue 42). */
int kernel_spool_each_streamed(kernel_spool *s, const char *key, json_stream_element_fn element,
                               kernel_spool_fn fn, void *ctx, ws_error *err);

/* Rewrites every entry through fn (e.g. profile's bypass verdicts). */
int kernel_spool_rewrite(kernel_spool **s, kernel_spool_fn fn, void *ctx, ws_error *err);

/* The kernels of a report: the spool when there is one, else the
 * document's own "kernels" array (`warpscope report` on a saved file). */
int report_kernels_each(const json_t *doc, kernel_spool *spool, kernel_spool_fn fn, void *ctx,
                        ws_error *err);

/* report_kernels_each with each entry's array `key` given an element at
 * a time (kernel_spool_each_streamed). */
int report_kernels_each_streamed(const json_t *doc, kernel_spool *spool, const char *key,
                                 json_stream_element_fn element, kernel_spool_fn fn, void *ctx,
                                 ws_error *err);

/* Moves every entry into doc's "kernels" array (tests and small runs: the
 * document then holds them all in memory). */
int kernel_spool_attach(json_t *doc, kernel_spool *s, ws_error *err);

#endif
