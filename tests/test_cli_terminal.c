/* tests/test_cli_terminal.c: the terminal output fits the width
 * (reports/term.h): at COLUMNS=80 and 60 no line of profile, compare or
 * analyze is longer, and a table too wide leaves out columns and names
 * them; compare's pending-hit column; what record --verify prints; the
 * one-line errors that name what is valid (--schedule, unknown options). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/term.h"
#include "tests/helpers.h"

/* The longest line of text, in characters (UTF-8: μRC is 3). */
static unsigned longest_line(const char *text, const char **where)
{
    unsigned most = 0, n = 0;
    const char *start = text;
    for (const char *p = text;; p++) {
        if (*p == '\n' || !*p) {
            if (n > most) {
                most = n;
                *where = start;
            }
            if (!*p)
                return most;
            n = 0;
            start = p + 1;
        } else if (((unsigned char)*p & 0xc0) != 0x80) {
            n++;
        }
    }
}

static void expect_fits(const char *what, const char *text, unsigned width)
{
    const char *where = text;
    unsigned most = longest_line(text, &where);
    cr_expect(most <= width, "%s at COLUMNS=%u: a line of %u characters: %.*s", what, width, most,
              (int)strcspn(where, "\n"), where);
}

static const char *widths[] = {"80", "60"};

Test(cli_terminal, profile_compare_and_analyze_fit_the_width, .timeout = 240)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    char *report = test_path(dir, "report");
    for (int w = 0; w < 2; w++) {
        setenv("COLUMNS", widths[w], 1);
        unsigned width = (unsigned)atoi(widths[w]);
        cli_result r = cli_run("profile", trace, "--gpu", "fermi", "-o", report, "--trials", "3",
                               "--quiet", NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        expect_fits("profile", r.out, width);
        cli_result_free(&r);
        r = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,srrip,opt", "--quiet",
                    NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        expect_fits("compare", r.out, width);
        /* compare's table is wider than 60 columns: it leaves out the least
         * important and says which, in one line. */
        if (width == 60) {
            const char *note = strstr(r.out, "(left out to fit 60 columns: ");
            cr_expect_not_null(note, "%s", r.out);
            cr_expect(note && strstr(note, "MPLI") && strchr(note, ')') < strchr(note, '\n'), "%s",
                      r.out);
        } else {
            cr_expect_null(strstr(r.out, "left out"), "%s", r.out);
        }
        cli_result_free(&r);
        r = cli_run("analyze", trace, "--gpu", "fermi", "--quiet", NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        expect_fits("analyze", r.out, width);
        cli_result_free(&r);
        r = cli_run("replay", trace, "--gpu", "fermi", "--timed", "--quiet", NULL);
        cr_assert_eq(r.status, 0, "%s", r.err);
        expect_fits("replay --timed", r.out, width);
        cli_result_free(&r);
    }
    unsetenv("COLUMNS");
    free(report);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* Hits on lines still in flight (the timed replay) get a column of their
 * own, shown only when some policy has them. */
Test(cli_terminal, compare_shows_pending_hits_only_when_there_are_some, .timeout = 120)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    setenv("COLUMNS", "100", 1);
    cli_result r = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,opt", "--timed",
                           "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    const char *header = strstr(r.out, "policy");
    cr_assert_not_null(header, "%s", r.out);
    cr_expect(strstr(header, "L1 pend") && strstr(header, "L1 pend") < strchr(header, '\n'),
              "no pending-hit column: %s", r.out);
    cr_expect_not_null(strstr(r.out, "L1 pend: L1 requests that found their line still in flight"),
                       "%s", r.out);
    cli_result_free(&r);
    r = cli_run("compare", trace, "--gpu", "fermi", "--policies", "lru,opt", "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_null(strstr(r.out, "L1 pend"), "a functional replay has no pending hits: %s", r.out);
    cli_result_free(&r);
    unsetenv("COLUMNS");
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_terminal, record_verify_says_what_it_verified, .timeout = 120)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "g.wst");
    cli_result r = cli_run("record", "--workload", "gaussian", "--verify", "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_not_null(strstr(r.out, "verified: the output of the 126 kernel launches matches the "
                                     "CPU reference"),
                       "%s", r.out);
    /* The count it read back is the trace's, as info counts it. */
    cli_result info = cli_run("info", trace, NULL);
    const char *records = strstr(info.out, "records    ");
    cr_assert_not_null(records, "%s", info.out);
    unsigned long long n = strtoull(records + strlen("records    "), NULL, 10);
    char expect[160];
    snprintf(expect, sizeof expect, "read back holds the %llu,%03llu records written", n / 1000,
             n % 1000);
    cr_expect_not_null(strstr(r.out, expect), "%s\n(expected '%s')", r.out, expect);
    cr_expect_not_null(strstr(r.out, "identical (checksums match)"), "%s", r.out);
    cli_result_free(&info);
    cli_result_free(&r);
    /* Without --verify, nothing is said. */
    r = cli_run("record", "--workload", "gaussian", "-o", trace, NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cr_expect_str_empty(r.out);
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

Test(cli_terminal, errors_name_what_is_valid)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian");
    cli_result r = cli_run("analyze", trace, "--schedule", "foo", NULL);
    cr_expect_eq(r.status, 1);
    cr_expect(test_is_one_line(r.err), "%s", r.err);
    cr_expect_not_null(strstr(r.err, "unknown CTA schedule or warp order 'foo'"), "%s", r.err);
    /* Every warp order of the table, lws among them; no "policy". */
    static const char *const orders[] = {"gto",      "lrr",       "recorded", "swl:N",
                                         "pcal:N,p", "tuple:N,p", "ccws",     "lws"};
    for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
        cr_expect_not_null(strstr(r.err, orders[i]), "no %s in: %s", orders[i], r.err);
    cr_expect_null(strstr(r.err, "policy"), "%s", r.err);
    cli_result_free(&r);
    r = cli_run("compare", trace, "--policies", "lru@foo", NULL);
    cr_expect_eq(r.status, 1);
    cr_expect_not_null(strstr(r.err, "ccws, lws"), "%s", r.err);
    cli_result_free(&r);
    r = cli_run("info", trace, "--bogus", NULL);
    cr_expect_eq(r.status, 1);
    cr_expect_str_eq(r.err,
                     "warpscope: info: unknown option '--bogus'; see 'warpscope info --help'\n");
    cli_result_free(&r);
    free(trace);
    test_tmpdir_cleanup(dir);
}

/* term_table on its own: the least important columns go first, the
 * always-shown column stays, and one line names what was left out (its
 * short form, as the long one would not fit 22 columns). */
Test(term, table_leaves_out_the_least_important_columns)
{
    term_table *t = term_table_new(2);
    term_table_column(t, "name", TERM_LEFT, 0);
    term_table_column(t, "most", TERM_RIGHT, 9);
    term_table_column(t, "least", TERM_RIGHT, 1);
    term_table_column(t, "middle", TERM_RIGHT, 5);
    for (int i = 0; i < 3; i++) {
        term_table_cell(t, "row %d", i);
        term_table_cell(t, "%d", 1000 * i);
        term_table_cell(t, "%d", 2000 * i);
        term_table_cell(t, "%d", 3000 * i);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    term_table_print(t, out, 22);
    fclose(out);
    cr_expect_str_eq(text, "  name   most  middle\n"
                           "  row 0     0       0\n"
                           "  row 1  1000    3000\n"
                           "  row 2  2000    6000\n"
                           "  (left out: least)\n");
    free(text);
    term_table_free(t);
}

Test(term, prose_wraps_under_its_label)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    term_wrap(out, 30, 0, 4, "one two three four five six seven eight nine");
    fclose(out);
    cr_expect_str_eq(text, "one two three four five six\n    seven eight nine\n");
    free(text);
}
