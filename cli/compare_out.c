/* cli/compare_out.c: see compare_out.h. */
#include "cli/compare_out.h"

#include <math.h>
#include <string.h>

#include "analyzer/systems.h"
#include "cli/cli.h"
#include "reports/ccn_csv.h"
#include "reports/csv_out.h"
#include "reports/json_out.h"
#include "reports/replay_json.h"
#include "reports/replay_text.h"
#include "reports/timed_csv.h"
#include "reports/timed_json.h"
#include "reports/timed_text.h"
#include "util/outfile.h"
#include "util/version.h"

/* One level's policy: its name for the reports, resolved once. */
static int set_policy(cache_config *c, policy_spec *spec, const char *name, size_t len,
                      ws_error *err)
{
    if (len == 0 || len >= sizeof c->policy)
        return ws_fail(err, "expected POLICY or L1POLICY/L2POLICY entries");
    memcpy(c->policy, name, len);
    c->policy[len] = '\0';
    return policy_spec_parse(c->policy, spec, err);
}

/* An entry runs to the next comma, except that an order taking p keeps its
 * own: "lru@pcal:6,2,srrip" is lru@pcal:6,2 then srrip. */
static size_t entry_length(const char *p)
{
    size_t len = strcspn(p, ",");
    const char *at = memchr(p, '@', len);
    if (!at || p[len] != ',' || p[len + 1] < '0' || p[len + 1] > '9')
        return len;
    char name[32];
    size_t name_len = strcspn(at + 1, ":,");
    if (name_len >= sizeof name)
        return len;
    memcpy(name, at + 1, name_len);
    name[name_len] = '\0';
    const warp_order_ops *order = warp_order_find(name);
    return order && order->takes_p ? len + 1 + strspn(p + len + 1, "0123456789") : len;
}

int compare_set_parse(compare_set *set, const char *list, const hierarchy_options *base,
                      ws_error *err)
{
    /* Entries below count are written whole as they are parsed and none
     * above it is read: clearing all COMPARE_MAX of them wrote 52 KB of
     * stack, 13 page faults of a run's start (bench/RESULTS.md, "Branch kern41"). */
    set->count = 0;
    const char *p = list;
    while (*p) {
        size_t len = entry_length(p);
        if (set->count == COMPARE_MAX)
            return ws_fail(err, "at most %d policies", COMPARE_MAX);
        if (len == 0 || len >= sizeof set->names[0])
            return ws_fail(err, "empty or overlong entry in '%s'", list);
        hierarchy_options *o = &set->options[set->count];
        *o = *base;
        o->collect = COLLECT_TOTALS; /* a comparison reads totals only */
        memcpy(set->names[set->count], p, len);
        set->names[set->count][len] = '\0';
        /* POLICY@ORDER: this hierarchy gets its own issue stream under that
         * warp order (docs/metrics.md §6); the trace is still decoded once. */
        const char *at = memchr(p, '@', len);
        size_t policy_len = at ? (size_t)(at - p) : len;
        if (at) {
            char order[48];
            size_t order_len = len - (size_t)(at - p) - 1;
            if (order_len == 0 || order_len >= sizeof order)
                return ws_fail(err, "'%s': expected POLICY@ORDER", set->names[set->count]);
            memcpy(order, at + 1, order_len);
            order[order_len] = '\0';
            if (warp_order_spec_parse(order, &o->warp_order, err) != 0) {
                char why[sizeof err->msg], orders[256];
                snprintf(why, sizeof why, "%s", err->msg);
                warp_order_names(orders, sizeof orders);
                return ws_fail(err, "'%s': %s (warp orders: %s)", set->names[set->count], why,
                               orders);
            }
            if (o->warp_order.ops->recorded)
                return ws_fail(err, "'%s': the recorded order is the trace's own, not one to "
                               "compare", set->names[set->count]);
        }
        /* POLICY+SYSTEM: the trailing systems apply to this hierarchy
         * (`srrip+ccn`); what is left names the policies or a system. */
        long kept = system_apply_suffixes(p, policy_len, o, err);
        if (kept < 0)
            return -1;
        if (kept == 0)
            return ws_fail(err, "'%s': expected a policy before '+'", set->names[set->count]);
        policy_len = (size_t)kept;
        char system[52];
        memcpy(system, p, policy_len);
        system[policy_len] = '\0';
        int applied = system_apply(system, o, err); /* a whole system, e.g. sharing-aware */
        if (applied < 0)
            return -1;
        const char *slash = memchr(p, '/', policy_len);
        if (!applied && slash) {
            if (set_policy(&o->config.l1, &o->l1_spec, p, (size_t)(slash - p), err) != 0 ||
                set_policy(&o->config.l2, &o->l2_spec, slash + 1,
                           policy_len - (size_t)(slash - p) - 1, err) != 0)
                return -1;
        } else if (!applied && set_policy(&o->config.l1, &o->l1_spec, p, policy_len, err) != 0) {
            return -1;
        }
        set->count++;
        p += len;
        if (*p == ',')
            p++;
    }
    return set->count ? 0 : ws_fail(err, "no policies given");
}

json_t *compare_json_results(const compare_set *set, const replay_results *const *rs,
                             json_deferred_set *later)
{
    json_t *list = json_array();
    for (uint32_t i = 0; i < set->count; i++) {
        const replay_results *r = rs[i];
        json_t *o = replay_totals_json(r);
        json_object_set_new(o, "name", json_string(set->names[i]));
        if (r->timed)
            json_object_set_new(o, "timed", timed_run_json(r, later));
        if (set->options[i].warp_order.ops) {
            char order[48];
            warp_order_spec_format(&set->options[i].warp_order, order, sizeof order);
            json_object_set_new(o, "warp_order", json_string(order));
        }
        json_array_append_new(list, o);
    }
    return json_pack("{s:o}", "policies", list);
}

/* A level's sector requests, hits and hit rate (docs/metrics.md §7), empty
 * on an unsectored level. */
static void csv_sector_cells(csv_table *t, const level_counts *l, int sectored)
{
    csv_row_double(t, sectored ? (double)l->sector_requests : NAN);
    csv_row_double(t, sectored ? (double)l->sector_hits : NAN);
    if (sectored)
        csv_row_ratio(t, (double)l->sector_hits, (double)l->sector_requests);
    else
        csv_row_str(t, NULL);
}

/* The timed replay's columns (docs/metrics.md §12) follow, in a timed run only. */
static const char *const compare_header[] = {
    "policy", "l1_policy", "l2_policy", "l1_requests", "l1_hits", "l1_hit_rate", "l2_requests",
    "l2_hits", "l2_hit_rate", "mpli", "l1_to_l2_bytes", "dram_read_bytes", "dram_write_bytes",
    "l1_to_l2_vs_first", "dram_vs_first", "l1_to_l2_requests", "ccn_remote_hits",
    "ccn_remote_hit_rate", "lcm_bypassed_requests", "lcm_merged_requests",
    "l1_pending_hits", "l1_hit_rate_with_pending", "l1_sector_requests", "l1_sector_hits",
    "l1_sector_hit_rate", "l2_sector_requests", "l2_sector_hits", "l2_sector_hit_rate",
    TIMED_CSV_COLUMNS};

const char *const *compare_csv_header(int timed, size_t *columns)
{
    *columns = sizeof compare_header / sizeof compare_header[0] - (timed ? 0 : TIMED_CSV_COUNT);
    return compare_header;
}

void compare_csv_row(csv_table *t, const char *name, const replay_results *r,
                     const replay_results *first)
{
    uint64_t base_cycles = timed_cycles(first);
    const replay_counts *base = &first->total;
    double base_l2 = (double)(base->traffic.l1_to_l2_read_bytes + base->traffic.l1_to_l2_write_bytes);
    double base_dram = (double)(base->traffic.dram_read_bytes + base->traffic.dram_write_bytes);
    const replay_counts *c = &r->total;
    uint64_t l2 = c->traffic.l1_to_l2_read_bytes + c->traffic.l1_to_l2_write_bytes;
    uint64_t dram = c->traffic.dram_read_bytes + c->traffic.dram_write_bytes;
    csv_row_str(t, name);
    csv_row_str(t, r->l1_policy);
    csv_row_str(t, r->l2_policy);
    /* Undefined ratios (nothing reached the level, no loads, a first
     * entry without traffic) are empty fields, not -1 or 0. */
    csv_row_u64(t, c->l1.accesses);
    csv_row_u64(t, c->l1.hits);
    csv_row_ratio(t, (double)c->l1.hits, (double)c->l1.accesses);
    csv_row_u64(t, c->l2.accesses);
    csv_row_u64(t, c->l2.hits);
    csv_row_ratio(t, (double)c->l2.hits, (double)c->l2.accesses);
    csv_row_ratio(t, (double)c->mpli.misses, (double)c->mpli.loads);
    csv_row_u64(t, l2);
    csv_row_u64(t, c->traffic.dram_read_bytes);
    csv_row_u64(t, c->traffic.dram_write_bytes);
    csv_row_ratio(t, (double)l2, base_l2);
    csv_row_ratio(t, (double)dram, base_dram);
    csv_row_u64(t, c->traffic.l1_to_l2_requests);
    const ccn_counts *ring = r->ccn ? &r->ccn->total : NULL; /* empty without a ring */
    csv_row_double(t, ring ? (double)ring->remote_hits : NAN);
    if (ring)
        csv_row_ratio(t, (double)ring->remote_hits, (double)ring->requests);
    else
        csv_row_str(t, NULL);
    const lcm_counts *managed = r->lcm ? &r->lcm->total : NULL; /* empty without LCM */
    csv_row_double(t, managed ? (double)managed->bypassed_requests : NAN);
    csv_row_double(t, managed ? (double)managed->merged_requests : NAN);
    csv_row_u64(t, c->l1.pending_hits);
    csv_row_ratio(t, (double)(c->l1.hits + c->l1.pending_hits), (double)c->l1.accesses);
    csv_sector_cells(t, &c->l1, r->l1_sectored);
    csv_sector_cells(t, &c->l2, r->l2_sectored);
    if (first->timed)
        timed_csv_cells(t, r, base_cycles);
}

int compare_write_csv_results(const compare_set *set, const replay_results *const *rs, const char *path,
                              ws_error *err)
{
    size_t columns;
    const char *const *header = compare_csv_header(rs[0]->timed, &columns);
    csv_table *t = csv_table_open(path, header, columns, err);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < set->count; i++) {
        compare_csv_row(t, set->names[i], rs[i], rs[0]);
        csv_row_end(t);
    }
    return csv_table_commit(t, err);
}

void compare_set_collect(compare_set *set, int writes_files)
{
    /* The table (reports/replay_text.c, compare_text_table) reads hits,
     * pending hits, sector hits, MPLI, traffic, the timed figures and the
     * stages' (CCN, LCM) own: none of miss classes, 3C, locality, μRC or
     * replication, the collectors' figures. */
    if (!writes_files)
        for (uint32_t i = 0; i < set->count; i++)
            set->options[i].collect = COLLECT_NONE;
}

int compare_write_results(const compare_set *set, const replay_results *const *rs,
                          const replay_args *a, const wst_trace *t)
{
    ws_error err;
    if (a->json) {
        /* Printed only: the timed runs are written as the text is made
         * (without the set, out of memory, they are built as a tree). */
        json_deferred_set *later = json_deferred_new();
        json_t *doc = compare_json_results(set, rs, later);
        replay_args_document(doc, a, "warpscope-compare");
        int rc = report_json_write_deferred(a->json, doc, later, &err);
        json_decref(doc);
        json_deferred_free(later);
        if (rc != 0)
            return cli_fail(a->json, &err);
    }
    if (a->csv) {
        if (ws_make_dir(a->csv, &err) != 0)
            return cli_fail(NULL, &err);
        char path[4096];
        snprintf(path, sizeof path, "%s/compare.csv", a->csv);
        if (compare_write_csv_results(set, rs, path, &err) != 0 ||
            compare_write_ccn_csv_results(set, rs, t, a->csv, &err) != 0)
            return cli_fail(NULL, &err);
    }
    return 0;
}

int compare_write_ccn_csv_results(const compare_set *set, const replay_results *const *rs,
                                  const wst_trace *t, const char *dir, ws_error *err)
{
    const char *names[COMPARE_MAX];
    const replay_results *results[COMPARE_MAX];
    for (uint32_t i = 0; i < set->count; i++) {
        names[i] = set->names[i];
        results[i] = rs[i];
    }
    if (results[0]->timed && timed_csv_kernels(dir, names, results, set->count, t, err) != 0)
        return -1;
    return ccn_write_csv(dir, names, results, set->count, t, err);
}

void compare_print_results(FILE *out, const compare_set *set, const replay_results *const *rs)
{
    const char *names[COMPARE_MAX];
    const replay_results *results[COMPARE_MAX];
    for (uint32_t i = 0; i < set->count; i++) {
        names[i] = set->names[i];
        results[i] = rs[i];
    }
    compare_text_table(out, names, results, set->count);
}

/* ---- the same, on hierarchies ---------------------------------------------- */

/* Their results, in a set's order. */
static void results_of(const compare_set *set, hierarchy *const *hs, const replay_results **rs)
{
    for (uint32_t i = 0; i < set->count; i++)
        rs[i] = hierarchy_results(hs[i]);
}

json_t *compare_json(const compare_set *set, hierarchy *const *hs)
{
    const replay_results *rs[COMPARE_MAX];
    results_of(set, hs, rs);
    return compare_json_results(set, rs, NULL);
}

int compare_write(const compare_set *set, hierarchy *const *hs, const replay_args *a,
                  const wst_trace *t)
{
    const replay_results *rs[COMPARE_MAX];
    results_of(set, hs, rs);
    return compare_write_results(set, rs, a, t);
}

int compare_write_csv(const compare_set *set, hierarchy *const *hs, const char *path, ws_error *err)
{
    const replay_results *rs[COMPARE_MAX];
    results_of(set, hs, rs);
    return compare_write_csv_results(set, rs, path, err);
}

int compare_write_ccn_csv(const compare_set *set, hierarchy *const *hs, const wst_trace *t,
                          const char *dir, ws_error *err)
{
    const replay_results *rs[COMPARE_MAX];
    results_of(set, hs, rs);
    return compare_write_ccn_csv_results(set, rs, t, dir, err);
}

void compare_print(FILE *out, const compare_set *set, hierarchy *const *hs)
{
    const replay_results *rs[COMPARE_MAX];
    results_of(set, hs, rs);
    compare_print_results(out, set, rs);
}
