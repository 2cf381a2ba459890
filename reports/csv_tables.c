/* reports/csv_tables.c: see csv_tables.h; the columns are documented in
 * docs/report-schema.md. */
#include "reports/csv_tables.h"

#include "util/outfile.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/csv_out.h"

static double ratio(double a, double b) { return b > 0 ? a / b : NAN; }

static int write_pcs(const analysis *a, const wst_reader *r, const char *dir, ws_error *err)
{
    static const char *const header[] = {"kernel", "kernel_name", "pc", "offset", "sass", "file",
                                         "line", "executions", "requests", "u_line", "u_sector",
                                         "coherent", "divergent", "cold", "locality_class",
                                         "streaming", "intra", "inter", "both"};
    csv_table *t = csv_table_open_in(dir, "pcs.csv", header, sizeof header / sizeof *header, err);
    if (!t)
        return -1;
    const wst_trace *trace = wst_reader_trace(r);
    uint32_t line = a->config.l1.line_bytes;
    for (uint32_t k = 0; k < a->kernel_count; k++) {
        const metrics_kernel *mk = metrics_kernel_at(a->metrics, k);
        const wst_kernel *wk = &trace->kernels[k];
        for (uint32_t p = 0; p < mk->pc_count && p < wk->pc_count; p++) {
            const metrics_pc *m = &mk->pcs[p];
            const locality_pc *l = &a->kernels[k].locality[p];
            uint64_t gens = 0;
            for (int c = 0; c < LOCALITY_CLASSES; c++)
                gens += l->generations[c];
            csv_row_u64(t, k);
            csv_row_str(t, wk->name);
            csv_row_u64(t, p);
            csv_row_hex(t, wk->pcs[p].offset);
            csv_row_str(t, wk->pcs[p].sass);
            csv_row_str(t, wk->pcs[p].file);
            csv_row_u64(t, wk->pcs[p].line);
            csv_row_u64(t, m->counts.executions);
            csv_row_u64(t, m->counts.requests);
            csv_row_double(t, ratio((double)m->counts.bytes_used, (double)m->counts.requests * line));
            csv_row_double(t, ratio((double)m->counts.bytes_used, (double)m->counts.sectors * 32));
            csv_row_u64(t, m->counts.coherent);
            csv_row_u64(t, m->counts.divergent);
            csv_row_u64(t, m->reuse[SCOPE_GLOBAL].distance.cold);
            csv_row_str(t, gens ? locality_class_name(locality_dominant(l->generations)) : NULL);
            for (int c = 0; c < LOCALITY_CLASSES; c++)
                csv_row_double(t, ratio((double)l->generations[c], (double)gens));
            csv_row_end(t);
        }
    }
    return csv_table_commit(t, err);
}

/* Long form: one row per (kernel, granularity, scope, measure, bucket);
 * kernel "all" is the whole trace. */
static void reuse_rows(csv_table *t, const char *kernel, const metrics_totals *m)
{
    for (int g = 0; g < GRANULARITIES; g++)
        for (int s = 0; s < SCOPES; s++)
            for (int measure = 0; measure < 2; measure++) {
                const reuse_hist *h = measure ? &m->reuse[g][s].time : &m->reuse[g][s].distance;
                for (int b = -1; b < REUSE_HIST_BUCKETS; b++) {
                    uint64_t count = b < 0 ? h->cold : h->log2[b];
                    if (!count)
                        continue;
                    csv_row_str(t, kernel);
                    csv_row_str(t, reuse_granularity_name((reuse_granularity)g));
                    csv_row_str(t, reuse_scope_name((reuse_scope)s));
                    csv_row_str(t, measure ? "reuse_time" : "reuse_distance");
                    if (b < 0) {
                        csv_row_str(t, "cold");
                        csv_row_str(t, NULL);
                    } else {
                        csv_row_u64(t, b ? 1ull << (b - 1) : 0);
                        csv_row_u64(t, b ? (b == 64 ? UINT64_MAX : (1ull << b) - 1) : 0);
                    }
                    csv_row_u64(t, count);
                    csv_row_end(t);
                }
            }
}

static int write_reuse(const analysis *a, const char *dir, ws_error *err)
{
    static const char *const header[] = {"kernel", "granularity", "scope", "measure", "low", "high",
                                         "count"};
    csv_table *t = csv_table_open_in(dir, "reuse.csv", header, 7, err);
    if (!t)
        return -1;
    reuse_rows(t, "all", metrics_summary(a->metrics));
    for (uint32_t k = 0; k < a->kernel_count; k++) {
        char name[16];
        snprintf(name, sizeof name, "%u", k);
        reuse_rows(t, name, &metrics_kernel_at(a->metrics, k)->totals);
    }
    return csv_table_commit(t, err);
}

static int write_sharing(const analysis *a, const char *dir, ws_error *err)
{
    static const char *const header[] = {"table", "x", "y", "count"};
    csv_table *t = csv_table_open_in(dir, "sharing.csv", header, 4, err);
    if (!t)
        return -1;
    const sharing_results *s = sharing_get(a->sharing);
    for (uint32_t k = 0; k <= s->sm_count; k++) {
        csv_row_str(t, "sharers");
        csv_row_u64(t, k);
        csv_row_str(t, NULL);
        csv_row_u64(t, s->sharers_hist[k]);
        csv_row_end(t);
    }
    for (uint32_t x = 0; x < s->sm_count; x++)
        for (uint32_t y = 0; y < s->sm_count; y++) {
            csv_row_str(t, "sm_matrix");
            csv_row_u64(t, x);
            csv_row_u64(t, y);
            csv_row_u64(t, s->sm_matrix[(size_t)x * s->sm_count + y]);
            csv_row_end(t);
        }
    for (int d = 1; d < SHARING_EXACT_DISTANCES; d++) {
        csv_row_str(t, "cta_distance");
        csv_row_u64(t, (uint64_t)d);
        csv_row_u64(t, (uint64_t)d);
        csv_row_u64(t, s->cta_distance_exact[d]);
        csv_row_end(t);
    }
    for (int b = 4; b < SHARING_LOG2_BUCKETS; b++) {
        if (!s->cta_distance_log2[b])
            continue;
        csv_row_str(t, "cta_distance");
        csv_row_u64(t, 1ull << b);
        csv_row_u64(t, (1ull << (b + 1)) - 1);
        csv_row_u64(t, s->cta_distance_log2[b]);
        csv_row_end(t);
    }
    return csv_table_commit(t, err);
}

int report_csv_tables(const analysis *a, const wst_reader *r, const char *dir, ws_error *err)
{
    if (ws_make_dir(dir, err) != 0)
        return -1;
    return write_pcs(a, r, dir, err) || write_reuse(a, dir, err) || write_sharing(a, dir, err) ? -1 : 0;
}
