/* tests/accelsim_fixtures.c: see accelsim_fixtures.h. */
#include "tests/accelsim_fixtures.h"

#include <criterion/criterion.h>
#include <string.h>

#include "collectors/accelsim/accelsim.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

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

void fixture_carriable(wst_memtrace *m)
{
    for (uint32_t k = 0; k < m->trace.kernel_count; k++)
        for (size_t i = 0; i < m->per_kernel[k].count; i++) {
            wst_record *r = &m->per_kernel[k].records[i];
            r->has_sm = r->has_time = 0;
            r->sm = 0;
            r->timestamp = 0;
            if (r->kind == WST_ATOMIC)
                r->space = WST_GLOBAL;
            /* Generic addresses near the top would fall in export's windows. */
            for (int l = 0; l < 32; l++)
                r->addr[l] &= 0x0000ffffffffffffULL;
        }
}

wst_memtrace *fixture_export_import(const wst_memtrace *m, const char *dir)
{
    char *wst_path = test_path(dir, "in.wst"), *out_dir = test_path(dir, "exported");
    cr_assert_eq(test_write_memtrace(m, wst_path, NULL), 0);
    ws_error err;
    cr_assert_eq(accelsim_export(wst_path, out_dir, &err), 0, "%s", err.msg);
    char *list = test_path(out_dir, "kernelslist.g");
    wst_memtrace *back = fixture_import(list, &err);
    cr_assert_not_null(back, "%s", err.msg);
    cr_assert_eq(back->trace.kernel_count, m->trace.kernel_count);
    free(list);
    free(wst_path);
    free(out_dir);
    return back;
}
