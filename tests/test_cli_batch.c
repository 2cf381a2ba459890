/* tests/test_cli_batch.c: `warpscope batch` on one process (docs/batch.md):
 * its rows are compare's, a bad grid or trace fails in one line with no
 * table, and a resumed batch replays only what is missing.  Many ranks:
 * scripts/mpi-check.sh. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/helpers.h"

static char *write_grid(const char *dir, const char *name, const char *text)
{
    char *path = test_path(dir, name);
    cr_assert_eq(test_write_file(path, text, strlen(text)), 0);
    return path;
}

/* Line n (0-based) of text, from column `skip` (after that many commas). */
static char *line_from(const char *text, int n, int skip)
{
    const char *p = text;
    for (int i = 0; i < n && p; i++)
        p = strchr(p, '\n'), p = p ? p + 1 : NULL;
    cr_assert_not_null(p);
    for (int i = 0; i < skip; i++)
        p = strchr(p, ',') + 1;
    return strndup(p, strcspn(p, "\n"));
}

Test(cli_batch, rows_equal_compare_and_a_resume_finishes_the_rest)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    char *bad = test_path(dir, "bad.wst"), *out = test_path(dir, "out");
    cr_assert_eq(test_write_file(bad, "WST?", 4), 0);
    char grid_text[4096];
    snprintf(grid_text, sizeof grid_text,
             "{\"traces\": [\"%s\", \"%s\"], \"gpus\": [\"fermi\"],\n"
             " \"sets\": [[], [\"max_warps_per_sm=32\"]], \"policies\": [\"lru\", \"srrip\", \"opt\"]}\n",
             trace, bad);
    char *grid = write_grid(dir, "grid.json", grid_text);

    /* The bad trace fails the job in one line; no table; the good runs stay. */
    cli_result r = cli_run("batch", grid, "-o", out, "--quiet", NULL);
    cr_expect_neq(r.status, 0);
    cr_expect(test_is_one_line(r.err) && strstr(r.err, bad), "%s", r.err);
    cli_result_free(&r);
    char *table = test_path(out, "batch.csv");
    cr_expect_neq(access(table, F_OK), 0, "a failed batch writes no table");

    /* The fixed trace: only its runs replay. */
    cr_assert_eq(link(trace, bad) == 0 || (unlink(bad) == 0 && link(trace, bad) == 0), 1);
    r = cli_run("batch", grid, "-o", out, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect(strstr(r.err, "6 of 12 runs already finished") != NULL, "%s", r.err);
    cli_result_free(&r);

    /* The first three rows are compare's rows, after the run's keys. */
    char *cmp = test_path(dir, "cmp");
    r = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,srrip,opt", "--csv", cmp,
                "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    char *batch_csv = test_read_output(out, "batch.csv"), *compare_csv = test_read_output(cmp, "compare.csv");
    for (int i = 1; i <= 3; i++) {
        char *a = line_from(batch_csv, i, 6), *b = line_from(compare_csv, i, 0);
        cr_expect_str_eq(a, b, "row %d", i);
        free(a);
        free(b);
    }
    json_t *doc = test_load_json(test_path(out, "batch.json"));
    cr_expect_str_eq(json_string_value(json_object_get(doc, "schema")), "warpscope-batch");
    cr_expect_eq(json_array_size(json_object_get(doc, "runs")), 12);
    json_decref(doc);
    free(batch_csv);
    free(compare_csv);
    test_tmpdir_cleanup(dir);
}

Test(cli_batch, a_bad_grid_is_one_line_naming_it)
{
    char *dir = test_tmpdir(), *out = test_path(dir, "out");
    static const char *const grids[][2] = {
        {"{\"traces\": [\"a.wst\"]}", "'policies' is missing"},
        {"{\"traces\": [\"a.wst\"], \"policies\": [\"lru\"], \"colour\": 1}", "unknown key 'colour'"},
        {"{\"traces\": [\"a.wst\"], \"policies\": [\"lru\"], \"sets\": [[\"l1_size=1\"]]}", "'sets'[0]"},
        {"{\"traces\": [\"a.wst\"], \"policies\": [\"lru\"], \"gpus\": [\"nosuch\"]}", "'gpus'[0]"},
        {"{\"traces\": [\"a.wst\"], \"policies\": [\"lru,opt\"]}", "one policy"},
        {"{\"traces\": [\"a.wst\"], \"policies\": [\"nosuch\"]}", "'policies'[0]"},
        {"{\"traces\": [\"a.wst\"], \"policies\": [\"lru\"], \"warp_orders\": [\"zz\"]}", "'warp_orders'[0]"},
        {"{\"traces\": [\"a.wst\"], \"policies\": [\"lru\"], \"args\": [\"--csv\"]}", "--csv"},
        {"[1, 2", "line 1"},
    };
    for (size_t i = 0; i < sizeof grids / sizeof grids[0]; i++) {
        char *grid = write_grid(dir, "grid.json", grids[i][0]);
        cli_result r = cli_run("batch", grid, "-o", out, NULL);
        cr_expect_neq(r.status, 0, "%s", grids[i][0]);
        cr_expect(test_is_one_line(r.err) && strstr(r.err, grid) && strstr(r.err, grids[i][1]),
                  "%s: %s", grids[i][0], r.err);
        cli_result_free(&r);
        free(grid);
    }
    cli_result r = cli_run("batch", "grid.json", NULL);
    cr_expect(r.status != 0 && test_is_one_line(r.err) && strstr(r.err, "-o DIR"), "%s", r.err);
    cli_result_free(&r);
    test_tmpdir_cleanup(dir);
}
