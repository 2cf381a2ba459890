/* tests/path_cases.h: what the tests of a hierarchy's paths share
 * (analyzer/hierarchy.c; tests/test_direct_path.c, tests/test_timed_path.c):
 * the GPU of a case, the traces every path is run on, and the comparison
 * of the counts of two hierarchies that must agree. */
#ifndef WS_TEST_PATH_CASES_H
#define WS_TEST_PATH_CASES_H

#include "analyzer/config.h"
#include "analyzer/hierarchy.h"
#include "analyzer/replay.h"
#include "formats/memtrace.h"

/* Four SMs of fermi (whole lines, write-evict) or volta (sectored,
 * write-allocate) with an L1 of `l1` (SIZE:WAYS:LINE; sectored adds 32 B
 * sectors) under `policy`. */
void path_case_gpu(gpu_config *c, int sectored, const char *l1, const char *policy);

/* A case of path_case_configs: the GPU, the L1 policy's index in the
 * list and whether the L1 is sectored, whether its trace must hit, with
 * words for messages. */
typedef struct path_case {
    const sched_source *src;
    const replay_options *ro;
    gpu_config config;
    size_t policy;
    int sectored, must_hit;
    char what[112];
} path_case;

/* Calls run on every case of m (named `trace`; must_hit as
 * path_case_traces gave it): each policy of policies[0..n), whole lines and
 * sectored, an L1 of `l1` (path_case_gpu), one source for all; frees m. */
void path_case_configs(wst_memtrace *m, int must_hit, const char *trace,
                       const char *const *policies, size_t n, const char *l1,
                       void (*run)(const path_case *pc));

/* Replays the case through o and through o with a subscriber that has no
 * hook, in one replay_run: it hears nothing and changes nothing, but takes
 * a hierarchy off the direct and the timed paths.  h[0] is o's. */
void path_case_replay_both(const path_case *pc, const hierarchy_options *o, hierarchy *h[2]);

/* Calls each(m, must_hit, name) on every record kind, space and cache
 * operator (a random trace, which has few hits: must_hit 0), loads that
 * reuse their lines, and global and local stores to the lines the loads
 * reuse (write-evicts, write-backs); each frees m. */
void path_case_traces(void (*each)(wst_memtrace *m, int must_hit, const char *name));

/* Every count of a and b that a path could change: the totals, each
 * kernel's counts and per-PC counts, the per-SM counts and the policies'
 * own figures. */
void expect_same_counts(const replay_results *a, const replay_results *b, const char *what);

#endif
