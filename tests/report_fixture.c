/* tests/report_fixture.c: see report_fixture.h. */
#include "tests/report_fixture.h"

#include <criterion/criterion.h>
#include <stdlib.h>

#include "analyzer/analysis.h"
#include "collectors/workloads/workloads.h"
#include "reports/analysis_out.h"
#include "reports/report_json.h"
#include "tests/helpers.h"

json_t *test_report_for(const char *dir, const char *name, const char *gpu)
{
    ws_error err;
    char *trace = test_path(dir, "fixture.wst");
    cr_assert_eq(record_workload(name, SIZE_SMALL, 1, 0, trace, NULL, &err), 0, "%s", err.msg);
    wst_reader *r = wst_reader_open(trace, &err);
    cr_assert_not_null(r, "%s", err.msg);
    gpu_config config;
    cr_assert_eq(config_load(&config, gpu, &err), 0, "%s", err.msg);
    analysis_options options;
    analysis_options_default(&options);
    analysis_out out;
    cr_assert_eq(analysis_out_open(&out, r, SPOOL_BOTH, NULL, &err), 0, "%s", err.msg);
    analysis_out_attach(&out, &options);
    analysis *a = analysis_run(r, &config, &options, NULL, &err);
    cr_assert_not_null(a, "%s", err.msg);
    json_t *doc = report_analysis_json(a, r, trace);
    cr_assert_eq(kernel_spool_attach(doc, out.kernels, &err), 0, "%s", err.msg);
    analysis_out_close(&out);
    analysis_free(a);
    wst_reader_close(r);
    free(trace);
    return doc;
}
