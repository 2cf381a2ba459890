/* util/path.h: where a path lies, by its text alone. */
#ifndef WS_PATH_H
#define WS_PATH_H

/* The name of path inside dir when path lies directly in it ("a/b/c" or
 * "a/b//c" in "a/b" or "a/b/": "c"), else NULL.  Only paths joined from the same
 * directory string are compared, so no normalisation is needed. */
const char *ws_path_name_in(const char *path, const char *dir);

#endif
