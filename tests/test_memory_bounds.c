/* tests/test_memory_bounds.c: memory follows live state, not the size of
 * the input (issue 42, item 3; README "Limits").  Each test writes an
 * input that the unbounded code needed far more memory for, and runs the
 * optimized CLI under an address-space cap (cli_run_capped) that the old
 * code exceeded and the bounded code fits, with room either way. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "tests/helpers.h"
#include "tests/trace_gen.h"

#define MIB ((size_t)1 << 20)

/* 10,000 PCs each run once: analyze -o built the kernel's PC table as one
 * JSON document (about 16 KB a PC) and needed 350 MiB of address space
 * (--threads 1, one malloc arena); each PC's entry is now written as it is
 * made, 150 MiB (the analysis's own per-PC state, about 9 KB a PC, is
 * most of it). */
Test(memory_bounds, analyze_writes_a_kernel_of_many_pcs_one_pc_at_a_time)
{
    char *dir = test_tmpdir(), *trace = test_path(dir, "pcs.wst"),
         *json = test_path(dir, "r.json");
    test_write_pcs_trace(trace, 10000, 0);
    cli_result r = cli_run_capped(240 * MIB, "analyze", trace, "--threads", "1", "-o", json,
                                  "--quiet", NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    json_t *doc = test_load_json(json);
    cr_assert_not_null(doc);
    json_t *pcs = json_object_get(json_array_get(json_object_get(doc, "kernels"), 0), "pcs");
    cr_expect_eq(json_array_size(pcs), 10000);
    cr_expect_eq(json_integer_value(json_object_get(json_array_get(pcs, 9999), "index")), 9999);
    json_decref(doc);
    cli_result_free(&r);
    free(json);
    free(trace);
    test_tmpdir_cleanup(dir);
}
