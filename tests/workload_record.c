/* tests/workload_record.c: see workload_record.h. */
#include "tests/workload_record.h"

#include <criterion/criterion.h>

wst_memtrace *test_record_workload(const char *name, workload_size size, uint64_t seed, int verify)
{
    return test_record_workload_timing(name, size, seed, verify, 0);
}

wst_memtrace *test_record_workload_timing(const char *name, workload_size size, uint64_t seed,
                                          int verify, int timing)
{
    const workload *w = workload_find(name);
    cr_assert_not_null(w, "no workload %s", name);
    wst_memtrace *m = wst_memtrace_new(NULL);
    wst_sink sink = wst_memtrace_sink(m);
    ws_error err;
    emu *e = emu_new(&sink, 1ull << 32, &err);
    cr_assert_not_null(e, "%s", err.msg);
    emu_set_timing(e, timing);
    cr_assert_eq(w->run(e, size, seed, verify, &err), 0, "%s: %s", name, err.msg);
    emu_free(e);
    return m;
}
