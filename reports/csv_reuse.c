/* reports/csv_reuse.c: reuse.csv, long form: one row per (kernel launch,
 * granularity, scope, measure, bucket), non-empty buckets only.  First
 * touches are the row flagged cold = 1 (no bounds), so low and high stay
 * numbers.  No whole-trace rows: the summary's histograms are the sums of
 * the kernels' (analyzer/metrics.c merges them), a groupby away. */
#include "reports/csv_keys.h"
#include "reports/csv_tables.h"
#include "analyzer/reuse.h"

static void bucket_row(csv_table *t, const wst_trace *trace, uint32_t kernel, int g, int s,
                       int measure, int bucket, uint64_t count)
{
    csv_row_kernel(t, trace, kernel);
    csv_row_str(t, reuse_granularity_name((reuse_granularity)g));
    csv_row_str(t, reuse_scope_name((reuse_scope)s));
    csv_row_str(t, measure ? "reuse_time" : "reuse_distance");
    csv_row_u64(t, bucket < 0);
    if (bucket < 0) {
        csv_row_str(t, NULL);
        csv_row_str(t, NULL);
    } else {
        csv_row_u64(t, reuse_bucket_low((unsigned)bucket));
        csv_row_u64(t, reuse_bucket_high((unsigned)bucket));
    }
    csv_row_u64(t, count);
    csv_row_end(t);
}

static void kernel_rows(csv_table *t, const wst_trace *trace, uint32_t kernel,
                        const metrics_totals *m)
{
    for (int g = 0; g < GRANULARITIES; g++)
        for (int s = 0; s < SCOPES; s++)
            for (int measure = 0; measure < 2; measure++) {
                const reuse_hist *h = measure ? &m->reuse[g][s].time : &m->reuse[g][s].distance;
                for (int b = -1; b < REUSE_HIST_BUCKETS; b++) {
                    uint64_t count = b < 0 ? h->cold : h->log2[b];
                    if (count)
                        bucket_row(t, trace, kernel, g, s, measure, b, count);
                }
            }
}

csv_table *csv_reuse_open(const char *dir, ws_error *err)
{
    static const char *const header[] = {CSV_KERNEL_COLUMNS, "granularity", "scope", "measure",
                                         "cold", "low", "high", "count"};
    return csv_table_open_in(dir, CSV_REUSE, header, sizeof header / sizeof *header, err);
}

void csv_reuse_add(csv_table *t, const analysis *a, const wst_trace *trace, uint32_t k)
{
    kernel_rows(t, trace, k, &metrics_kernel_at(a->metrics, k)->totals);
}
