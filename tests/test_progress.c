/* tests/test_progress.c: the bar draws on demand and stays silent otherwise. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

#include <string.h>

#include "util/progress.h"

Test(progress, silent_when_not_a_terminal, .init = cr_redirect_stderr)
{
    progress *p = progress_new("analyze", 100, 0);
    for (int i = 0; i < 5000; i++)
        progress_update(p, (uint64_t)i);
    progress_free(p);
    fflush(stderr);
    cr_assert_stderr_eq_str("");
}

Test(progress, draws_bar_and_erases_it, .init = cr_redirect_stderr)
{
    progress *p = progress_new_forced("replay", 4);
    progress_update(p, 2); /* first call draws */
    progress_free(p);
    fflush(stderr);
    char expected[256];
    const char *line = "replay [###############---------------]  50% 0s";
    snprintf(expected, sizeof expected, "\r%s\r%*s\r", line, (int)strlen(line), "");
    cr_assert_stderr_eq_str(expected);
}

/* The estimate is the pace so far: a quarter done in 10 s leaves 30 s.
 * Too early (under 2 s or 2%) or finished, there is none. */
Test(progress, estimates_the_time_left)
{
    char buf[160];
    progress_format(buf, sizeof buf, "analyze", NULL, 25, 100, 10.0);
    cr_assert_str_eq(buf, "analyze [#######-----------------------]  25% 10s, about 30s left");
    progress_format(buf, sizeof buf, "analyze", NULL, 1, 3, 200.0);
    cr_assert_str_eq(buf, "analyze [##########--------------------]  33% 3m20s, about 6m40s left");
    progress_format(buf, sizeof buf, "analyze", NULL, 1, 2, 1.0);
    cr_assert_str_eq(buf, "analyze [###############---------------]  50% 1s");
    progress_format(buf, sizeof buf, "analyze", NULL, 1, 1000, 50.0);
    cr_assert_str_eq(buf, "analyze [------------------------------]   0% 50s");
    progress_format(buf, sizeof buf, "analyze", NULL, 10, 10, 7300.0);
    cr_assert_str_eq(buf, "analyze [##############################] 100% 2h01m");
    progress_format(buf, sizeof buf, "record", "records", 12345678, 0, 4.0);
    cr_assert_str_eq(buf, "record 12,345,678 records 4s");
}

/* A planned command numbers its phases; sub-bars of a phase share it. */
Test(progress, numbers_the_phases, .init = cr_redirect_stderr)
{
    progress_plan(3);
    progress *p = progress_new_forced("record", 0);
    progress_update(p, 7);
    progress_free(p);
    progress_next_phase();
    p = progress_new_forced("bypass 1/2", 10);
    progress_update(p, 10);
    progress_free(p);
    progress_plan(0);
    p = progress_new_forced("plain", 0);
    progress_update(p, 1);
    progress_free(p);
    fflush(stderr);
    char expected[512];
    const char *a = "[1/3] record 7 0s", *b = "[2/3] bypass 1/2 [##############################] 100% 0s",
               *c = "plain 1 0s";
    snprintf(expected, sizeof expected, "\r%s\r%*s\r\r%s\r%*s\r\r%s\r%*s\r", a, (int)strlen(a), "",
             b, (int)strlen(b), "", c, (int)strlen(c), "");
    cr_assert_stderr_eq_str(expected);
}
