/* tests/test_readme_examples.c: the README's examples run as written, in
 * order, in an empty directory, each reading only what an example before
 * it wrote (scripts/readme-examples.sh; those that need a GPU are
 * skipped).  They run the release build beside the sanitized one the other
 * CLI tests use: the examples are what a user types, and the sweep and the
 * profiles would take minutes under ASan. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/helpers.h"

/* build/rel/warpscope beside build/asan/warpscope, else the sanitized one. */
static char *release_binary(void)
{
    char *bin = strdup(WARPSCOPE_BIN), *at = strstr(bin, "/asan/");
    if (at) {
        char *rel = NULL;
        cr_assert(asprintf(&rel, "%.*s/rel/%s", (int)(at - bin), bin, at + strlen("/asan/")) > 0);
        if (access(rel, X_OK) == 0) {
            free(bin);
            return rel;
        }
        free(rel);
    }
    return bin;
}

Test(readme, examples_run_as_written, .timeout = 900)
{
    char *bin = release_binary();
    char *script = test_path(test_fixture_dir(), "../../scripts/readme-examples.sh");
    char *readme = test_path(test_fixture_dir(), "../../README.md");
    char *command = NULL;
    cr_assert(asprintf(&command, "%s %s %s 2>&1", script, bin, readme) > 0);
    FILE *p = popen(command, "r");
    cr_assert_not_null(p, "%s", command);
    char out[1 << 16];
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    int status = pclose(p);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "%s", out);
    cr_assert_not_null(strstr(out, "readme examples: "), "%s", out);
    /* The examples that need no GPU all ran: more than twenty of them. */
    int ran = atoi(strstr(out, "readme examples: ") + strlen("readme examples: "));
    cr_assert(ran >= 20, "%d ran: %s", ran, out);
    free(command);
    free(readme);
    free(script);
    free(bin);
}
