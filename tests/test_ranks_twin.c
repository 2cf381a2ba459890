/* tests/test_ranks_twin.c: a static warpscope's hand-over to its MPI twin
 * (util/ranks_twin.h) where it cannot happen: each answer is the one line
 * the rank then prints (docs/analysis.md "Ranks").  The hand-over itself
 * is scripts/mpi-check.sh's: it replaces the process. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/ranks_twin.h"

/* A twin that cannot load Open MPI either (a static twin: a broken build)
 * does not hand the run on again: its environment says it is the twin. */
Test(ranks_twin, the_twin_does_not_hand_on_again)
{
    char *argv[] = {"warpscope", "--version", NULL};
    cr_assert_eq(setenv("WARPSCOPE_RANKS_TWIN", "1", 1), 0);
    const char *why = ranks_become_twin(argv);
    unsetenv("WARPSCOPE_RANKS_TWIN");
    cr_assert_str_eq(why, "its MPI twin (warpscope-ranks) cannot load Open MPI either");
}

/* With no twin beside the binary nor in ../libexec/warpscope/, the answer
 * says where it was looked for. */
Test(ranks_twin, a_missing_twin_is_named_with_where_it_was_looked_for)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    cr_assert_gt(n, 0);
    self[n] = '\0';
    *strrchr(self, '/') = '\0';
    char beside[PATH_MAX + 32], installed[PATH_MAX + 64];
    snprintf(beside, sizeof beside, "%s/warpscope-ranks", self);
    snprintf(installed, sizeof installed, "%s/../libexec/warpscope/warpscope-ranks", self);
    if (access(beside, F_OK) == 0 || access(installed, F_OK) == 0)
        cr_skip_test("a warpscope-ranks lies beside the test binary: it would be run");
    char *argv[] = {"warpscope", "--version", NULL};
    unsetenv("WARPSCOPE_RANKS_TWIN");
    const char *why = ranks_become_twin(argv);
    unsetenv("WARPSCOPE_RANKS_TWIN");
    cr_assert_str_eq(why, "a static build needs its MPI twin warpscope-ranks beside it or in "
                          "../libexec/warpscope/ (make builds it when mpicc is installed)");
}
