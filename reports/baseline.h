/* reports/baseline.h: a report drawn against a baseline report, as Nsight
 * Compute's baselines draw it: every key figure of both runs with its
 * change, absolute and relative, and the same per kernel.
 *
 * Kernels are matched by name (their launches summed), so two runs of
 * different programs, or of one program with kernels added or removed,
 * still compare what they share; the kernels of one run only are listed.
 * Only the two documents are read (docs/report-schema.md). */
#ifndef WS_BASELINE_H
#define WS_BASELINE_H

#include <jansson.h>
#include <stddef.h>

#include "reports/kernel_spool.h"
#include "reports/numfmt.h"
#include "util/error.h"

typedef struct baseline_figure {
    const char *label;
    numfmt_kind kind;
    double now, then; /* NaN when that report lacks it */
} baseline_figure;

#define BASELINE_FIGURES 24
#define BASELINE_KERNEL_FIGURES 6
#define BASELINE_POLICY_FIGURES 4

typedef struct baseline_kernel {
    char *name; /* owned */
    baseline_figure figures[BASELINE_KERNEL_FIGURES];
} baseline_kernel;

/* A policy of `profile`'s comparison that both reports replayed. */
typedef struct baseline_policy {
    char *name; /* owned */
    baseline_figure figures[BASELINE_POLICY_FIGURES];
} baseline_policy;

typedef struct baseline {
    baseline_figure figures[BASELINE_FIGURES]; /* the whole run */
    size_t figure_count;
    baseline_kernel *kernels; /* names in both, in the new report's launch order */
    size_t kernel_count;
    char **only_now, **only_then; /* names in one report only (owned) */
    size_t only_now_count, only_then_count;
    baseline_policy *policies; /* compare.policies of both (profile), by name */
    size_t policy_count;
} baseline;

/* now: the report drawn, its kernels in now_kernels when they are spooled
 * (NULL: in now); then: its baseline.  -1 with err. */
int baseline_build(baseline *b, const json_t *now, kernel_spool *now_kernels, const json_t *then,
                   ws_error *err);
void baseline_free(baseline *b);

/* now - then in the figure's unit, signed: "+1.2k", "-16 KiB", "+3.2 pp"
 * (a ratio changes by percentage points); "n/a" when either is missing. */
numtext baseline_change(const baseline_figure *f);
/* (now - then) / then, signed: "+12.3%"; "n/a" when then is 0 or missing. */
numtext baseline_relative(const baseline_figure *f);

#endif
