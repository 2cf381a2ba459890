/* reports/pc_groups.h: the report's PCs, with the launches of one kernel
 * merged.
 *
 * gaussian launches Fan1 and Fan2 63 times each; a row per launch would bury
 * the picture, so the HTML report shows one row per (kernel name, PC
 * offset).  Counts and histograms are summed over the launches and ratios
 * weighted by their denominators, which is exact; the locality class, which
 * the report gives per launch without its generation counts, is the one the
 * launches holding most executions have.  Only what the JSON says is used. */
#ifndef WS_PC_GROUPS_H
#define WS_PC_GROUPS_H

#include <jansson.h>
#include <stddef.h>

#include "reports/pc_kind.h"

#define PC_GROUP_BUCKETS 65 /* log2 reuse-distance buckets (schema HIST) */
#define PC_GROUP_CLASSES 8  /* distinct locality class names tracked */

enum { PC_SCOPE_PER_SM, PC_SCOPE_GLOBAL, PC_SCOPES };

/* One launch of a group's PC, for the per-launch figures a reader opens. */
typedef struct pc_launch {
    size_t kernel;    /* its index in the report's kernels[] */
    const json_t *pc; /* its PC object there */
} pc_launch;

/* Launches kept per group for the rows a reader opens (the count goes on). */
#define PC_GROUP_LAUNCHES_KEPT 200

typedef struct pc_group {
    const char *kernel;  /* kernel name ("?" when null), owned by the groups */
    const json_t *pc;    /* the first launch's PC object (held): offset, sass, file, line */
    pc_kind kind;        /* from the SASS (reports/pc_kind.h) */
    unsigned launches;   /* launches with this PC */
    pc_launch *launch_list; /* the first PC_GROUP_LAUNCHES_KEPT, in launch order (held) */
    size_t launch_capacity;
    double executions, requests;
    double u_line_sum, u_line_weight; /* Σ U·requests, Σ requests over launches with U */
    double l1_hits, l1_misses;        /* from the PC's `replay`, when present */
    int have_replay;
    double bypass_share_sum, bypass_weight; /* share weighted by requests */
    unsigned bypass_yes, bypass_seen;       /* launches recommending bypass, with a verdict */
    /* [scope][bucket]: log2 buckets, then cold at PC_GROUP_BUCKETS. */
    double reuse[PC_SCOPES][PC_GROUP_BUCKETS + 1];
    double accesses[PC_SCOPES];
    const char *class_names[PC_GROUP_CLASSES];
    double class_executions[PC_GROUP_CLASSES];
} pc_group;

typedef struct pc_groups {
    pc_group *items;
    size_t count, capacity;
    /* Building: the names (owned), each with its first group; groups of a
     * name are chained through next. */
    struct pc_group_name *names;
    size_t name_count, name_capacity;
    size_t *next;
    size_t next_capacity;
} pc_groups;

/* Kernel entries are added one at a time (a report's kernels need not be in
 * memory together: reports/kernel_spool.h); the groups hold what they keep
 * of them.  Start from a zeroed pc_groups.  -1 when out of memory. */
int pc_groups_add_kernel(pc_groups *g, size_t index, const json_t *kernel);
void pc_groups_free(pc_groups *g);

/* U (line) over the merged launches; NaN without requests. */
double pc_group_u_line(const pc_group *g);
/* L1 hit rate from replay; NaN without one. */
double pc_group_l1_hit_rate(const pc_group *g);
/* The dominant locality class, or NULL when no launch had one. */
const char *pc_group_class(const pc_group *g);
/* "mult_gpu<float>+0x208" in at most width characters (0: no limit): the
 * kernel name shortened, never the offset (reports/pc_label.h); "+0x?"
 * when the report has no offset. */
void pc_group_label(const pc_group *g, char *dst, size_t size, size_t width);
/* "gemm.cu:42", or "" when the report has no source line. */
void pc_group_source(const pc_group *g, char *dst, size_t size);
/* The bypass-worthy share of its requests (S1 Eq. 1), NaN without hints. */
double pc_group_bypass_share(const pc_group *g);
/* L1->L2 + DRAM bytes with this PC bypassed minus the baseline, NaN when
 * not tried.  `profile` writes the whole kernel name's figure into every
 * launch (the hints are per name and offset), so the first launch's is it. */
double pc_group_traffic_change(const pc_group *g);

#endif
