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

typedef struct kernel_pcs {
    const analysis *a;
    const wst_reader *reader;
    uint32_t k;
} kernel_pcs;

static json_t *kernel_pc(void *ctx, size_t i)
{
    const kernel_pcs *pcs = ctx;
    return report_kernel_pc_json(pcs->a, pcs->reader, pcs->k, (uint32_t)i);
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
    kernel_pcs pcs = {a, out->reader, k};
    int rc = entry ? kernel_spool_add_streamed(out->kernels, entry, "pcs", kernel_pc, &pcs,
                                               report_kernel_pc_count(a, out->reader, k), err)
                   : ws_fail(err, "out of memory");
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
