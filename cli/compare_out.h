/* cli/compare_out.h: a policy comparison: the set of hierarchies (parsed
 * from "lru,srrip,opt/opt") and its outputs; shared by compare and profile. */
#ifndef WS_COMPARE_OUT_H
#define WS_COMPARE_OUT_H

#include <jansson.h>
#include <stdio.h>

#include "analyzer/hierarchy.h"
#include "cli/replay_args.h"
#include "formats/wst.h"
#include "reports/csv_out.h"
#include "util/json_print.h"

enum { COMPARE_MAX = 32 };

typedef struct compare_set {
    uint32_t count;
    char names[COMPARE_MAX][52];
    hierarchy_options options[COMPARE_MAX];
} compare_set;

int compare_set_parse(compare_set *set, const char *list, const hierarchy_options *base,
                      ws_error *err);
/* A compare that writes no file (no -o, no --csv) prints the text table
 * alone, which reads none of the built-in collectors' figures: its
 * hierarchies run without them (COLLECT_NONE, docs/replay.md). */
void compare_set_collect(compare_set *set, int writes_files);
/* {"policies": [{"name", REPLAY...}, ...]} */
json_t *compare_json(const compare_set *set, hierarchy *const *hs);
/* -o and --csv of a; t names the kernels.  0 or an exit status. */
int compare_write(const compare_set *set, hierarchy *const *hs, const replay_args *a,
                  const wst_trace *t);
/* compare.csv at path; err names it. */
int compare_write_csv(const compare_set *set, hierarchy *const *hs, const char *path, ws_error *err);
/* The CCN tables in dir when any entry has a ring (reports/ccn_csv.h);
 * nothing otherwise. */
int compare_write_ccn_csv(const compare_set *set, hierarchy *const *hs, const wst_trace *t,
                          const char *dir, ws_error *err);
void compare_print(FILE *out, const compare_set *set, hierarchy *const *hs);

/* The same on results alone (replay_results of set->count entries, in the
 * set's order), which may come from other ranks (analyzer/results_pack.h).
 * With `later`, each timed run is a deferred value of it, for printing only
 * (reports/timed_json.h); NULL gives the whole tree. */
json_t *compare_json_results(const compare_set *set, const replay_results *const *rs,
                             json_deferred_set *later);
int compare_write_results(const compare_set *set, const replay_results *const *rs,
                          const replay_args *a, const wst_trace *t);
int compare_write_csv_results(const compare_set *set, const replay_results *const *rs, const char *path,
                              ws_error *err);
int compare_write_ccn_csv_results(const compare_set *set, const replay_results *const *rs,
                                  const wst_trace *t, const char *dir, ws_error *err);
/* compare.csv's columns (the timed replay's with timed), and one entry's
 * cells, its ratios relative to `first` (batch's table shares them). */
const char *const *compare_csv_header(int timed, size_t *columns);
void compare_csv_row(csv_table *t, const char *name, const replay_results *r,
                     const replay_results *first);
void compare_print_results(FILE *out, const compare_set *set, const replay_results *const *rs);

#endif
