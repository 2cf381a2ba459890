/* tests/accelsim_fixtures.c: see accelsim_fixtures.h. */
#include "tests/accelsim_fixtures.h"

#include <criterion/criterion.h>
#include <string.h>

#include "collectors/accelsim/accelsim.h"
#include "tests/helpers.h"

char *fixture_write(const char *dir, const char *name, const char *text)
{
    char *path = test_path(dir, name);
    cr_assert_eq(test_write_file(path, text, strlen(text)), 0);
    return path;
}

wst_memtrace *fixture_import(const char *path, ws_error *err)
{
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(m);
    if (accelsim_import(path, &sink, NULL, err) != 0) {
        wst_memtrace_free(m);
        return NULL;
    }
    return m;
}

const char *fixture_import_error(const char *dir, const char *name, const char *text)
{
    static ws_error err;
    char *path = fixture_write(dir, name, text);
    memset(&err, 0, sizeof err);
    wst_memtrace *m = fixture_import(path, &err);
    cr_assert_null(m, "import of %s should fail", name);
    cr_assert_neq(err.msg[0], '\0');
    free(path);
    return err.msg;
}
