/* reports/kernel_groups.h: the report's kernel launches with a replay,
 * grouped by kernel name.
 *
 * gaussian launches Fan1 and Fan2 63 times each: the HTML report's replay
 * table shows one row per name, its launches on demand.  The group sums
 * the launches' counts (requests, hits, bytes, MPLI misses and loads) and
 * divides the sums, so its rates are exactly those of the merged launches
 * (docs/metrics.md §7-8).  Only what the JSON says is used. */
#ifndef WS_KERNEL_GROUPS_H
#define WS_KERNEL_GROUPS_H

#include <jansson.h>
#include <stddef.h>

/* Replay counts of one launch, or summed over a group's. */
typedef struct replay_sums {
    double l1_requests, l1_hits, l2_requests, l2_hits;
    double l1_to_l2_bytes, dram_read_bytes;
    double mpli_misses, mpli_loads; /* Σ mean × loads, Σ loads */
} replay_sums;

/* Launches kept per group for the rows a reader opens (the count goes on). */
#define KERNEL_GROUP_LAUNCHES_KEPT 200

typedef struct kernel_launch {
    size_t index; /* in kernels[] */
    replay_sums sums;
} kernel_launch;

typedef struct kernel_group {
    char *name;              /* "?" when null; owned */
    kernel_launch *launches; /* the first KERNEL_GROUP_LAUNCHES_KEPT, in launch order */
    size_t count, capacity;  /* count: every launch */
    replay_sums sums;
} kernel_group;

typedef struct kernel_groups {
    kernel_group *items; /* in order of first launch */
    size_t count, capacity;
} kernel_groups;

/* Kernel entries are added one at a time (reports/kernel_spool.h); start
 * from a zeroed kernel_groups.  -1 when out of memory. */
int kernel_groups_add_kernel(kernel_groups *g, size_t index, const json_t *kernel);
void kernel_groups_free(kernel_groups *g);

/* The counts of one launch's replay (kernels[].metrics.replay); 0 for
 * what it lacks. */
replay_sums replay_sums_of(const json_t *replay);
double replay_sums_l1_hit_rate(const replay_sums *s); /* NaN without requests */
double replay_sums_l2_hit_rate(const replay_sums *s);
double replay_sums_mpli(const replay_sums *s);        /* NaN without loads */

#endif
