/* tests/test_bench_results.c: `make bench` rewrites bench/RESULTS.md from
 * what its benchmarks print and keeps what was measured by hand
 * (scripts/bench-results-merge.awk): a section no benchmark printed, and a
 * subsection written under a printed one. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "helpers.h"

/* The merge of new_text over old_text, malloc'd. */
static char *merge(const char *new_text, const char *old_text)
{
    char *dir = test_tmpdir();
    char *new_path = test_path(dir, "new.md"), *old_path = test_path(dir, "old.md");
    char *out_path = test_path(dir, "out.md");
    char *script = test_path(test_fixture_dir(), "../../scripts/bench-results-merge.awk");
    cr_assert_eq(test_write_file(new_path, new_text, strlen(new_text)), 0);
    cr_assert_eq(test_write_file(old_path, old_text, strlen(old_text)), 0);
    char *command = NULL;
    cr_assert(asprintf(&command, "awk -f '%s' '%s' '%s' > '%s'", script, new_path, old_path,
                       out_path) > 0);
    int status = system(command);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", command);
    char *out = test_read_file(out_path, NULL);
    cr_assert_not_null(out);
    free(command);
    free(script);
    free(out_path);
    free(old_path);
    free(new_path);
    test_tmpdir_cleanup(dir);
    return out;
}

Test(bench_results, a_printed_section_is_replaced_and_a_hand_measured_one_kept)
{
    const char *old_text = "# Benchmark results\n\nWritten on day 1.\n\n"
                           "## Replay (`bench/bench_replay.c`)\n\nold figures\n\n"
                           "### Measured apart\n\nby hand\n\n"
                           "## Timed replay against Accel-Sim\n\nhand table\n\n"
                           "### Again, quiet\n\nsecond table\n";
    const char *new_text = "# Benchmark results\n\nWritten on day 2.\n\n"
                           "## Replay (`bench/bench_replay.c`)\n\nnew figures\n\n";
    char *out = merge(new_text, old_text);
    cr_assert_str_eq(out, "# Benchmark results\n\nWritten on day 2.\n\n"
                          "## Replay (`bench/bench_replay.c`)\n\nnew figures\n\n"
                          "### Measured apart\n\nby hand\n\n"
                          "## Timed replay against Accel-Sim\n\nhand table\n\n"
                          "### Again, quiet\n\nsecond table\n");
    free(out);
}

Test(bench_results, a_file_merged_with_itself_is_unchanged)
{
    const char *text = "# R\n\n## A\n\na\n\n### A1\n\na1\n\n## B\n\nb\n";
    char *out = merge(text, text);
    cr_assert_str_eq(out, text);
    free(out);
}
