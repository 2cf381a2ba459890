/* analyzer/stages/lcm.h: locality-based cache management (S2 §4, docs/metrics.md §4
 * and §9): streaming PCs bypass L1, and inter-warp PCs' requests are
 * coalesced across warps before L1.
 *
 * The monitor (analyzer/pc_monitor.h).  Each SM watches its L1's line
 * generations (fill to eviction): Tot counts a generation's accesses,
 * Intra those of the warp that filled it, and an observation closes on
 * eviction or once Tot reaches T.  A closed observation decides its filling
 * PC on that SM: streaming (Tot = 1), or the inter-warp bit (Intra < Tot);
 * a PC is decided by its last closed observation, and an undecided PC is
 * cached.  Two monitors run side by side on the same generations: every
 * warp's (the default, docs/metrics.md §4) and S2's single monitored warp's (the warp
 * in slot 0 of the SM, as the locality report's); the `monitor` option
 * picks the one that acts, and the report counts the global loads on which
 * both would have acted alike.  The monitored warp is never bypassed, so a
 * bypassed PC keeps being observed and can turn back (S2's monitored warp
 * keeps caching: it is the sample).
 *
 * Bypass.  A global load that would look L1 up, of a PC decided streaming,
 * goes around L1 as `cg` does (docs/metrics.md §9: it never looks L1 up).  The
 * monitor, whose map holds the lines L1 holds, still counts it as a use of
 * its line if L1 holds it: the data was reused while cached.  Without
 * that, a PC whose reuse is across warps could never turn back once
 * decided streaming, only the monitored warp filling lines that no other
 * warp then touched.
 *
 * Inter-warp coalescing.  A global load of a PC with the inter-warp bit
 * sends its requests (after intra-warp coalescing) through the SM's
 * coalescer: 32 queues of 2 tags, a request's queue being its line mod 32.
 * A request whose line a tag holds merges into it and makes no L1 access
 * (it is served with the tag's first request, which made the only one, and
 * the monitor counts it as a use of the line); a
 * new line takes a free tag, or flushes the queue's oldest (a conflict).
 * A tag is flushed once W more requests have entered the coalescer (the
 * window), and at kernel end.  Functional: the first request's L1 access
 * is made when it arrives, so the merged ones change no hit or miss; they
 * save L1 accesses. */
#ifndef WS_STAGES_LCM_H
#define WS_STAGES_LCM_H

#include <stdint.h>

#include "analyzer/locality.h"
#include "util/error.h"

#define LCM_QUEUES 32
#define LCM_TAGS 2

typedef enum lcm_monitor { LCM_MONITOR_ALL_WARPS, LCM_MONITOR_ONE_WARP } lcm_monitor;

typedef struct lcm_options {
    int bypass;          /* streaming PCs bypass L1 (lcm-bypass) */
    int coalesce;        /* inter-warp coalescing (lcm, lcm-coalesce) */
    lcm_monitor monitor; /* whose decisions act */
    uint32_t threshold;  /* T: an observation closes at Tot >= T */
    uint32_t window;     /* W: a tag lives for the next W requests */
} lcm_options;

/* Off, with S2's parameters: every warp's monitor, T = 8, W = 32. */
lcm_options lcm_options_default(void);
int lcm_options_validate(const lcm_options *o, ws_error *err);
const char *lcm_monitor_name(lcm_monitor m); /* "all-warps", "one-warp" */

typedef struct lcm_counts {
    uint64_t loads;             /* global loads that would look L1 up: LCM's to decide */
    uint64_t bypassed_loads;    /* of them, sent around L1 (a streaming PC) */
    uint64_t bypassed_requests; /* their requests */
    uint64_t monitored_kept;    /* loads of the monitored warp of a streaming PC, cached */
    uint64_t agreed;            /* loads on which both monitors would act alike */
    uint64_t observations;      /* generations closed (every warp's) */
    uint64_t monitored_observations; /* of them, the monitored warp's */
    uint64_t turned_streaming, turned_back; /* the acting monitor's PCs changing sides */
    uint64_t coalescer_requests; /* requests of inter-warp PCs through the coalescer */
    uint64_t merged_requests;    /* of them, merged into a tag: the L1 accesses saved */
    uint64_t flushes_conflict, flushes_window, flushes_kernel_end;
} lcm_counts;

typedef struct lcm_pc {
    uint64_t loads, bypassed_loads, merged_requests;
    uint64_t generations[LOCALITY_CLASSES]; /* the monitor's closed observations */
} lcm_pc;

typedef struct lcm_kernel {
    lcm_counts counts;
    lcm_pc *pcs; /* [pc_count] */
    uint32_t pc_count;
} lcm_kernel;

typedef struct lcm_results {
    lcm_options options;
    lcm_counts total;
    lcm_kernel *kernels; /* [kernel_count] */
    uint32_t kernel_count;
} lcm_results;

typedef struct lcm lcm;
struct hierarchy_stage;
struct l1_observer;

lcm *lcm_new(const lcm_options *o, uint32_t sms, uint32_t line_bytes, uint32_t kernel_count,
             ws_error *err);
void lcm_free(lcm *m);
/* LCM as a hierarchy stage (its front end) and as an L1 collector (its
 * monitor): the hierarchy needs both. */
void lcm_stage(lcm *m, struct hierarchy_stage *out);
void lcm_observer(lcm *m, struct l1_observer *out);
const lcm_results *lcm_results_of(const lcm *m);

#endif
