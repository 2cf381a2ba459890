/* reports/analysis_out.c: see analysis_out.h. */
#include "reports/analysis_out.h"

#include <string.h>

#include "reports/report_json.h"

int analysis_out_open(analysis_out *out, const wst_reader *r, unsigned spool, const char *csv_dir,
                      ws_error *err)
{
    memset(out, 0, sizeof *out);
    out->reader = r;
    if (spool && !(out->kernels = kernel_spool_new(spool, err)))
        return -1;
    if (csv_dir && report_csv_open(&out->csv, csv_dir, err) != 0) {
        analysis_out_close(out);
        return -1;
    }
    return 0;
}

static int kernel_done(void *ctx, const analysis *a, uint32_t k, ws_error *err)
{
    analysis_out *out = ctx;
    report_text_add_kernel(&out->groups, a, out->reader, k);
    if (out->csv.dir)
        report_csv_add_kernel(&out->csv, a, wst_reader_trace(out->reader), k);
    if (!out->kernels)
        return 0;
    json_t *entry = report_kernel_json(a, out->reader, k);
    int rc = entry ? kernel_spool_add(out->kernels, entry, err) : ws_fail(err, "out of memory");
    json_decref(entry);
    return rc;
}

void analysis_out_attach(analysis_out *out, analysis_options *options)
{
    options->kernel_done = kernel_done;
    options->kernel_done_ctx = out;
}

int analysis_out_commit_csv(analysis_out *out, const analysis *a, ws_error *err)
{
    return out->csv.dir ? report_csv_commit(&out->csv, a, err) : 0;
}

void analysis_out_close(analysis_out *out)
{
    kernel_spool_free(out->kernels);
    out->kernels = NULL;
    report_csv_abort(&out->csv); /* nothing left after a commit */
}
