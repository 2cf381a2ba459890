/* tests/test_progress.c: the bar draws on demand and stays silent otherwise. */
#include <criterion/criterion.h>
#include <criterion/redirect.h>

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
    snprintf(expected, sizeof expected, "\rreplay [%s] %3.0f%% 0s\r%*s\r",
             "###############---------------", 50.0, 60, "");
    cr_assert_stderr_eq_str(expected);
}
