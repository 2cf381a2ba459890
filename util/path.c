/* util/path.c: see path.h. */
#include "util/path.h"

#include <string.h>

const char *ws_path_name_in(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    if (strncmp(path, dir, n) != 0 || path[n] != '/')
        return NULL;
    const char *name = path + n;
    while (*name == '/') /* "tables/" + "/pcs.csv" */
        name++;
    return *name && !strchr(name, '/') ? name : NULL;
}
