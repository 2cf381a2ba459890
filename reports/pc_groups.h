/* reports/pc_groups.h: the report's PCs, with the launches of one kernel
 * merged.
 *
 * gaussian launches Fan1 and Fan2 63 times each; a row per launch would bury
 * the picture, so the HTML report shows one row per (kernel name, PC
 * offset).  Counts and histograms are summed over the launches and ratios
 * weighted by their denominators, which is exact; the locality class, which
 * the report gives per launch without its generation counts, is the one the
 * launches holding most executions have.  Only what the JSON says is used.
 *
 * A report's PCs are read one at a time (reports/kernel_digest.c: a kernel
 * of 30,000 PCs was 540 MiB as one JSON tree, issue 42), so a group keeps
 * what the page prints of its PCs, not their JSON: each launch's PC is
 * read into a pc_seen (pc_seen_read), then added to its group
 * (pc_groups_add) once its kernel's name is known. */
#ifndef WS_PC_GROUPS_H
#define WS_PC_GROUPS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "reports/pc_kind.h"
#include "util/u64map.h"

#define PC_GROUP_BUCKETS 65 /* log2 reuse-distance buckets (schema HIST) */
#define PC_GROUP_CLASSES 8  /* distinct locality class names tracked */

enum { PC_SCOPE_PER_SM, PC_SCOPE_GLOBAL, PC_SCOPES };

/* A PC's log2 reuse buckets in both scopes: held only by a PC with reuse
 * (a PC whose lines were all cold has none). */
typedef double pc_reuse_buckets[PC_SCOPES][PC_GROUP_BUCKETS];

/* What names and labels a PC: its first launch's, in a group. */
typedef struct pc_place {
    char *sass, *file;  /* owned; NULL when the report has none */
    double offset;      /* NaN when absent: each launch is then a group of its own */
    int offset_known;   /* the offset is an integer >= 0: offset_value */
    uint64_t offset_value;
    double line;        /* NaN when absent */
    int line_is_integer;
    double traffic_change; /* bypass.traffic_change_bytes, NaN when absent */
    pc_kind kind;          /* from the SASS (reports/pc_kind.h) */
} pc_place;

/* The figures of one launch of a group's PC that a reader opens. */
typedef struct pc_launch {
    size_t kernel; /* its index in the report's kernels[] */
    double executions, requests, l1_hit_rate;
} pc_launch;

/* One launch's PC, as the page reads it. */
typedef struct pc_seen {
    pc_place place;
    pc_launch launch; /* its figures as a launch row shows them (its kernel set when added) */
    double executions, requests; /* 0 when absent, as sums take them */
    double u_line, l1_hit_rate; /* utilization.line, replay.hit_rate: NaN when absent */
    int have_replay;
    double l1_hits, l1_misses;
    double bypass_share; /* NaN when absent */
    int recommend;       /* bypass.recommend: 1, 0, or -1 when absent */
    const char *class_name; /* locality.class, owned by the groups; NULL when absent */
    double cold[PC_SCOPES], accesses[PC_SCOPES];
    pc_reuse_buckets *reuse; /* NULL while every bucket is 0 */
    /* The PC's `memory` (reports/source_lines.h): kind owned by the groups,
     * NULL when absent; the figures NaN when absent. */
    const char *memory_kind;
    double memory_instructions, memory_requests, memory_sectors, memory_ideal, memory_excess;
} pc_seen;

/* Launches kept per group for the rows a reader opens (the count goes on). */
#define PC_GROUP_LAUNCHES_KEPT 200

typedef struct pc_group {
    const char *kernel;  /* kernel name ("?" when null), owned by the groups */
    pc_place place;      /* the first launch's */
    unsigned launches;   /* launches with this PC */
    pc_launch *launch_list; /* the first PC_GROUP_LAUNCHES_KEPT, in launch order */
    size_t launch_capacity;
    double executions, requests;
    double u_line_sum, u_line_weight; /* Σ U·requests, Σ requests over launches with U */
    double l1_hits, l1_misses;        /* from the PC's `replay`, when present */
    int have_replay;
    double bypass_share_sum, bypass_weight; /* share weighted by requests */
    unsigned bypass_yes, bypass_seen;       /* launches recommending bypass, with a verdict */
    double cold[PC_SCOPES];
    pc_reuse_buckets *reuse; /* NULL while every bucket is 0: pc_group_reuse reads it */
    double accesses[PC_SCOPES];
    const char *class_names[PC_GROUP_CLASSES];
    double class_executions[PC_GROUP_CLASSES];
} pc_group;

typedef struct pc_groups {
    pc_group *items;
    size_t count, capacity;
    /* Building: the names (owned), each with its first group; groups of a
     * name are chained through next, and found by (name, offset) in
     * by_place. */
    struct pc_group_name *names;
    size_t name_count, name_capacity;
    size_t *next;
    size_t next_capacity;
    u64map by_place;
    /* Locality classes and memory kinds, each held once. */
    char **words;
    size_t word_count, word_capacity;
} pc_groups;

/* One launch's PC object into *seen (strings it names are held by g);
 * -1 when out of memory.  pc_seen_free frees what pc_groups_add did not
 * take. */
int pc_seen_read(pc_groups *g, const json_t *pc, pc_seen *seen);
void pc_seen_free(pc_seen *seen);

/* Adds the PC of launch `kernel` (its index in kernels[]) of the kernel
 * named `name` (NULL: "?") to its group, which takes the place and reuse
 * buckets it keeps (*seen is left for pc_seen_free).  Start from a zeroed
 * pc_groups.  -1 when out of memory. */
int pc_groups_add(pc_groups *g, size_t kernel, const char *name, pc_seen *seen);
void pc_groups_free(pc_groups *g);

/* A reuse-distance bucket's requests (PC_GROUP_BUCKETS: the cold ones). */
double pc_group_reuse(const pc_group *g, int scope, unsigned bucket);
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
