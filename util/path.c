/* util/path.c: see path.h. */
#include "util/path.h"

#include <string.h>

const char *ws_path_name_in(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (strncmp(path, dir, n) != 0 || path[n] != '/' || strchr(path + n + 1, '/'))
        return NULL;
    return path + n + 1;
}
