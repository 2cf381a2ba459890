/* tests/test_csv_tables.c: the CSV tables of `analyze --csv` are tidy (one
 * table per entity, shared keys, numeric columns numeric) and agree with
 * report.json; report.json's histograms carry their bucket bounds. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tests/helpers.h"

/* A table read whole: cells[row * cols + col], row 0 the header.  The
 * tables tested here have no quoted fields (asserted). */
typedef struct table {
    char *text, *header; /* header: the first line, as written */
    char **cells;
    size_t rows, cols;
} table;

static table load(const char *dir, const char *name)
{
    table t = {.text = test_read_output(dir, name)};
    t.header = strndup(t.text, strcspn(t.text, "\n"));
    cr_assert_null(strchr(t.text, '"'), "%s: no quoted fields expected", name);
    size_t fields = 1;
    for (const char *c = t.text; *c; c++)
        fields += *c == ',' || *c == '\n';
    t.cells = calloc(fields, sizeof *t.cells);
    size_t n = 0;
    char *line = t.text;
    for (char *end; (end = strchr(line, '\n')) != NULL; line = end + 1) {
        *end = '\0';
        size_t cols = 0;
        for (char *f = line;; cols++) {
            t.cells[n++] = f;
            char *comma = strchr(f, ',');
            if (!comma)
                break;
            *comma = '\0';
            f = comma + 1;
        }
        cols++;
        if (t.rows++ == 0)
            t.cols = cols;
        cr_assert_eq(cols, t.cols, "%s: row %zu has %zu fields, not %zu", name, t.rows - 1, cols,
                     t.cols);
    }
    return t;
}

static void table_free(table *t)
{
    free(t->cells);
    free(t->header);
    free(t->text);
}

static size_t column(const table *t, const char *name)
{
    for (size_t c = 0; c < t->cols; c++)
        if (strcmp(t->cells[c], name) == 0)
            return c;
    cr_assert_fail("no column %s", name);
    return 0;
}

static const char *cell(const table *t, size_t row, const char *name)
{
    return t->cells[row * t->cols + column(t, name)];
}

/* A whole number, as a numeric column must hold. */
static unsigned long long whole(const table *t, size_t row, const char *name)
{
    const char *s = cell(t, row, name);
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    cr_assert(*s && !*end, "row %zu, %s: '%s' is not a number", row, name, s);
    return v;
}

static json_int_t integer(json_t *o, const char *key)
{
    json_t *v = json_object_get(o, key);
    cr_assert(json_is_integer(v), "%s", key);
    return json_integer_value(v);
}

static void analyze(const char *dir, const char *trace, const char *policy)
{
    char *out = test_path(dir, "report.json"), *tables = test_path(dir, "tables");
    cli_result r = policy ? cli_run("analyze", trace, "--l1-policy", policy, "-o", out, "--csv",
                                    tables, "--quiet", NULL)
                          : cli_run("analyze", trace, "-o", out, "--csv", tables, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    free(out);
    free(tables);
}

/* pcs.csv: one row per (launch, PC), keyed as report.json keys it, with
 * the replay's per-PC L1 counts. */
static void check_pcs(const char *tables, json_t *doc)
{
    table t = load(tables, "pcs.csv");
    cr_assert_str_eq(t.header,
                     "kernel_id,kernel,kernel_demangled,pc_index,pc_offset,sass,source_file,"
                     "source_line,executions,"
                     "requests,u_line,u_sector,coherent,divergent,cold_requests,generations,"
                     "locality_class,streaming_fraction,intra_fraction,inter_fraction,"
                     "both_fraction,l1_requests,l1_hits,l1_misses,l1_hit_rate,l1_bypasses,"
                     "l1_to_l2_read_bytes");
    size_t row = 1;
    json_t *k;
    size_t ki;
    json_array_foreach(json_object_get(doc, "kernels"), ki, k) {
        json_t *pc;
        size_t pi;
        json_array_foreach(json_object_get(k, "pcs"), pi, pc) {
            cr_assert_lt(row, t.rows);
            cr_expect_eq(whole(&t, row, "kernel_id"), ki);
            cr_expect_str_eq(cell(&t, row, "kernel"), json_string_value(json_object_get(k, "name")));
            /* Identifiers agree with report.json's (reports/pc_label.h). */
            cr_expect_str_eq(cell(&t, row, "kernel_demangled"),
                             json_string_value(json_object_get(k, "name_demangled")));
            cr_expect_str_eq(cell(&t, row, "pc_offset"),
                             json_string_value(json_object_get(pc, "pc_offset")));
            cr_expect_eq(whole(&t, row, "pc_index"), pi);
            char offset[32];
            snprintf(offset, sizeof offset, "0x%llx", (unsigned long long)integer(pc, "offset"));
            cr_expect_str_eq(cell(&t, row, "pc_offset"), offset);
            json_t *replay = json_object_get(pc, "replay");
            cr_expect_eq(whole(&t, row, "l1_hits"), integer(replay, "l1_hits"));
            cr_expect_eq(whole(&t, row, "l1_misses"), integer(replay, "l1_misses"));
            cr_expect_eq(whole(&t, row, "l1_to_l2_read_bytes"), integer(replay, "l1_to_l2_read_bytes"));
            row++;
        }
    }
    cr_expect_eq(row, t.rows, "a row per PC, no more");
    table_free(&t);
}

/* reuse.csv: cold is a 0/1 flag, the bounds stay numbers, and the kernels'
 * rows sum to the whole trace's histograms. */
static void check_reuse(const char *tables, json_t *doc)
{
    table t = load(tables, "reuse.csv");
    cr_assert_str_eq(t.header, "kernel_id,kernel,kernel_demangled,granularity,scope,measure,cold,low,"
                               "high,count");
    json_t *reuse = json_object_get(json_object_get(doc, "summary"), "reuse");
    static const char *const grans[] = {"line", "sector"};
    static const char *const scopes[] = {"global", "per_sm", "per_warp"};
    for (size_t g = 0; g < 2; g++)
        for (size_t s = 0; s < 3; s++) {
            unsigned long long distances = 0, times = 0;
            for (size_t row = 1; row < t.rows; row++) {
                if (strcmp(cell(&t, row, "granularity"), grans[g]) ||
                    strcmp(cell(&t, row, "scope"), scopes[s]))
                    continue;
                unsigned long long cold = whole(&t, row, "cold"), count = whole(&t, row, "count");
                cr_assert(cold <= 1);
                if (cold) {
                    cr_expect_str_eq(cell(&t, row, "low"), "");
                    cr_expect_str_eq(cell(&t, row, "high"), "");
                } else {
                    cr_expect_leq(whole(&t, row, "low"), whole(&t, row, "high"));
                }
                if (strcmp(cell(&t, row, "measure"), "reuse_distance") == 0)
                    distances += count;
                else if (!cold)
                    times += count;
            }
            json_t *hist = json_object_get(json_object_get(reuse, grans[g]), scopes[s]);
            cr_expect_eq(distances, (unsigned long long)integer(hist, "requests"), "%s %s",
                         grans[g], scopes[s]);
            unsigned long long summed = 0;
            json_t *v;
            size_t i;
            json_array_foreach(json_object_get(hist, "reuse_time_log2"), i, v)
                summed += (unsigned long long)json_integer_value(json_array_get(v, 1)); /* sparse */
            cr_expect_eq(times, summed, "%s %s", grans[g], scopes[s]);
        }
    table_free(&t);
}

static void check_sharing(const char *tables, json_t *doc)
{
    json_t *sharing = json_object_get(json_object_get(doc, "summary"), "sharing");
    json_int_t sms = integer(json_object_get(doc, "gpu"), "sms");
    table t = load(tables, "sharing_sharer_counts.csv");
    cr_assert_str_eq(t.header, "sms,blocks,block_bytes");
    cr_expect_eq(t.rows, 1 + (size_t)sms + 1, "0 .. SMs");
    unsigned long long blocks = 0;
    for (size_t row = 1; row < t.rows; row++) {
        cr_expect_eq(whole(&t, row, "sms"), row - 1);
        blocks += whole(&t, row, "blocks");
    }
    cr_expect_eq(blocks, (unsigned long long)integer(sharing, "blocks"));
    table_free(&t);
    t = load(tables, "sharing_sm_pairs.csv");
    cr_assert_str_eq(t.header, "sm_x,sm_y,blocks,block_bytes");
    cr_expect_eq(t.rows, 1 + (size_t)(sms * sms));
    json_t *matrix = json_object_get(sharing, "sm_matrix");
    for (size_t row = 1; row < t.rows; row++)
        cr_expect_eq(whole(&t, row, "blocks"),
                     json_integer_value(json_array_get(
                         json_array_get(matrix, whole(&t, row, "sm_x")), whole(&t, row, "sm_y"))));
    table_free(&t);
    t = load(tables, "sharing_cta_distances.csv");
    cr_assert_str_eq(t.header, "distance_low,distance_high,cta_pairs,block_bytes");
    unsigned long long pairs = 0;
    for (size_t row = 1; row < t.rows; row++) {
        cr_expect_leq(whole(&t, row, "distance_low"), whole(&t, row, "distance_high"));
        pairs += whole(&t, row, "cta_pairs");
    }
    cr_expect_eq(pairs, (unsigned long long)integer(sharing, "cta_pairs"));
    table_free(&t);
}

Test(csv_tables, analyze_writes_one_table_per_entity)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    analyze(dir, trace, NULL);
    char *json = test_path(dir, "report.json"), *tables = test_path(dir, "tables");
    json_t *doc = test_load_json(json);
    check_pcs(tables, doc);
    check_reuse(tables, doc);
    check_sharing(tables, doc);
    json_decref(doc);
    free(tables);
    free(json);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Without a replay (opt needs `warpscope replay`) the L1 columns are empty,
 * which pandas reads as NaN, not 0. */
Test(csv_tables, pcs_without_a_replay_leave_the_l1_columns_empty)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    analyze(dir, trace, "opt");
    char *tables = test_path(dir, "tables");
    table t = load(tables, "pcs.csv");
    for (size_t row = 1; row < t.rows; row++) {
        cr_expect_str_eq(cell(&t, row, "l1_hits"), "");
        cr_expect_str_eq(cell(&t, row, "l1_hit_rate"), "");
    }
    table_free(&t);
    free(tables);
    free(trace);
    test_tmpdir_cleanup(dir);
}

static json_int_t at(json_t *array, size_t i) { return json_integer_value(json_array_get(array, i)); }

Test(csv_tables, json_histograms_carry_their_bounds)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    analyze(dir, trace, NULL);
    char *json = test_path(dir, "report.json");
    json_t *doc = test_load_json(json), *summary = json_object_get(doc, "summary");
    /* Report version 3: one set of reuse bounds, every histogram sparse. */
    json_t *buckets = json_object_get(doc, "reuse_buckets");
    json_t *low = json_object_get(buckets, "log2_low"), *high = json_object_get(buckets, "log2_high");
    cr_assert_eq(json_array_size(low), 65);
    cr_assert_eq(json_array_size(high), 65);
    cr_expect(at(low, 0) == 0 && at(high, 0) == 0 && at(low, 1) == 1 && at(high, 1) == 1);
    cr_expect(at(low, 3) == 4 && at(high, 3) == 7);
    cr_expect(json_is_null(json_array_get(low, 64)) && json_is_null(json_array_get(high, 64)),
              "2^63 and up do not fit a JSON integer");
    json_t *pcs = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "pcs"), *pc;
    size_t p, sparse = 0;
    json_array_foreach(pcs, p, pc) {
        json_t *first = json_array_get(
            json_object_get(json_object_get(json_object_get(pc, "reuse"), "per_sm"), "log2"), 0);
        sparse += json_array_size(first) == 2 && json_integer_value(json_array_get(first, 1)) > 0;
    }
    cr_expect_gt(sparse, 0, "per-PC histograms are sparse: [[bucket, count], ...]");
    json_t *u = json_object_get(summary, "utilization");
    cr_expect_float_eq(json_real_value(json_array_get(json_object_get(u, "instruction_hist_low"), 9)),
                       0.9, 1e-12);
    cr_expect_float_eq(json_real_value(json_array_get(json_object_get(u, "line_hist_high"), 9)), 1.0,
                       1e-12);
    cr_expect_eq(at(json_object_get(summary, "req_hist_high"), 64), 64);
    json_t *sharing = json_object_get(summary, "sharing");
    cr_expect_eq(at(json_object_get(sharing, "cta_distance_log2_low"), 4), 16);
    cr_expect_eq(at(json_object_get(sharing, "cta_distance_log2_high"), 4), 31);
    cr_expect_eq(at(json_object_get(sharing, "cta_distance_exact_high"), 15), 15);
    cr_expect_eq(json_array_size(json_object_get(sharing, "sharers_hist_low")),
                 json_array_size(json_object_get(sharing, "sharers_hist")));
    json_t *mpli = json_object_get(json_object_get(summary, "replay"), "mpli");
    cr_expect(at(json_object_get(mpli, "bucket_low"), 3) == 3 &&
              at(json_object_get(mpli, "bucket_high"), 3) == 31);
    cr_expect_eq(at(json_object_get(mpli, "bucket_low"), 4), 32);
    json_decref(doc);
    free(json);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* A table that cannot be written is one line naming it. */
Test(csv_tables, a_failure_names_the_file)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gemm");
    char *tables = test_path(dir, "tables"), *blocker = test_path(dir, "tables/reuse.csv");
    cr_assert_eq(mkdir(tables, 0777), 0);
    cr_assert_eq(mkdir(blocker, 0777), 0);
    cli_result r = cli_run("analyze", trace, "--csv", tables, "--quiet", NULL);
    cr_expect_eq(r.status, 1);
    cr_expect(test_is_one_line(r.err) && strstr(r.err, blocker) != NULL, "%s", r.err);
    cli_result_free(&r);
    free(blocker);
    free(tables);
    free(trace);
    test_tmpdir_cleanup(dir);
}
