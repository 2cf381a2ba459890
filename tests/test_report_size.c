/* tests/test_report_size.c: a report's size follows what it says, not the
 * shape of the trace (issue 42, item 3; report version 3,
 * docs/report-schema.md): compact JSON, reuse histograms written sparsely
 * with their bounds once.  A PC that is run once, or a kernel with no
 * records, costs little JSON. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "formats/wst.h"
#include "tests/helpers.h"
#include "tests/trace_gen.h"

static char *write_trace(const char *dir, uint32_t pcs, uint32_t empty)
{
    char *path = test_path(dir, "t.wst");
    test_write_pcs_trace(path, pcs, empty);
    return path;
}

static size_t report_bytes(const char *dir, const char *trace, char **text)
{
    char *json = test_path(dir, "r.json");
    cli_result r = cli_run("analyze", trace, "-o", json, "--quiet", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    size_t len = 0;
    *text = test_read_file(json, &len);
    cr_assert_not_null(*text);
    free(json);
    return len;
}

/* JSON bytes of analyze's report on write_trace(pcs, empty), per `each`. */
static size_t bytes_each(uint32_t pcs, uint32_t empty, size_t each)
{
    char *dir = test_tmpdir(), *trace = write_trace(dir, pcs, empty), *text;
    size_t bytes = report_bytes(dir, trace, &text);
    free(text);
    free(trace);
    test_tmpdir_cleanup(dir);
    return bytes / each;
}

/* Was 14.8 KB a PC (dense histograms with their bounds, indented). */
Test(report_size, a_pc_run_once_costs_little_json)
{
    size_t per_pc = bytes_each(1000, 0, 1000);
    cr_expect_lt(per_pc, 1500, "%zu bytes of JSON a PC", per_pc);
}

/* Was 53 KB an empty kernel. */
Test(report_size, an_empty_kernel_costs_little_json)
{
    size_t per_kernel = bytes_each(1, 200, 200);
    cr_expect_lt(per_kernel, 12000, "%zu bytes of JSON a kernel", per_kernel);
}

Test(report_size, a_report_is_compact_and_says_its_version)
{
    char *dir = test_tmpdir(), *trace = test_record_trace(dir, "gaussian"), *text;
    size_t bytes = report_bytes(dir, trace, &text);
    cr_expect_eq(strchr(text, '\n'), text + bytes - 1, "one line, ended by a newline");
    json_t *doc = json_loads(text, 0, NULL);
    cr_assert_not_null(doc, "the spliced report parses");
    cr_expect_eq(json_integer_value(json_object_get(doc, "version")), 3);
    cr_expect_eq(json_array_size(json_object_get(json_object_get(doc, "reuse_buckets"), "log2_low")), 65);
    /* And `report` draws it, as it draws a version 2 report
     * (tests/fixtures/report-optional.json, cli_report). */
    char *json = test_path(dir, "r.json"), *html = test_path(dir, "r.html");
    cli_result r = cli_run("report", json, "--html", html, NULL);
    cr_expect_eq(r.status, 0, "%s", r.err);
    cli_result_free(&r);
    json_decref(doc);
    free(html);
    free(json);
    free(text);
    free(trace);
    test_tmpdir_cleanup(dir);
}
