/* util/ranks_twin.c: see ranks_twin.h. */
#include "util/ranks_twin.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Set in the twin's environment: a twin that is itself static (a broken
 * build) must not hand the run on again. */
#define RANKS_TWIN_ENV "WARPSCOPE_RANKS_TWIN"

const char *ranks_become_twin(char **argv)
{
    static char why[PATH_MAX + 96];
    if (getenv(RANKS_TWIN_ENV))
        return "its MPI twin (" RANKS_TWIN_NAME ") cannot load Open MPI either";
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return "cannot find its own path (/proc/self/exe) to find " RANKS_TWIN_NAME;
    self[n] = '\0';
    char *slash = strrchr(self, '/');
    *slash = '\0'; /* readlink gives an absolute path: there is a slash */
    const char *const places[] = {"/" RANKS_TWIN_NAME, "/../libexec/warpscope/" RANKS_TWIN_NAME};
    char path[PATH_MAX + 64];
    if (setenv(RANKS_TWIN_ENV, "1", 1) != 0)
        return "out of memory";
    for (size_t i = 0; i < sizeof places / sizeof places[0]; i++) {
        snprintf(path, sizeof path, "%s%s", self, places[i]);
        execv(path, argv);
        if (errno != ENOENT) { /* there, but it would not start */
            snprintf(why, sizeof why, "%s: %s", path, strerror(errno));
            return why;
        }
    }
    snprintf(why, sizeof why,
             "a static build needs its MPI twin %s beside it or in ../libexec/warpscope/ "
             "(make builds it when mpicc is installed)",
             RANKS_TWIN_NAME);
    return why;
}
