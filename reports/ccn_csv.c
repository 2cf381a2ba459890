/* reports/ccn_csv.c: see ccn_csv.h. */
#include "reports/ccn_csv.h"

#include <stdio.h>

#include "reports/csv_keys.h"

/* What one table's rows of one entry are drawn from. */
typedef struct ring_of {
    const char *name;
    const ccn_results *c;
    const wst_trace *t;
} ring_of;

typedef void (*ring_rows)(csv_table *t, const ring_of *ring);

#define CCN_COUNT_COLUMNS                                                                        \
    "l1_load_misses", "candidates", "requests", "remote_hits", "remote_hit_rate",                \
        "l1_to_l2_request_reduction", "throttled", "hit_hops", "probe_hops", "epochs",           \
        "ring_off_epochs"

/* The CCN_COUNT_COLUMNS of one scope, ending the row. */
static void counts_columns(csv_table *t, const ccn_counts *c)
{
    const uint64_t counts[] = {c->misses, c->candidates, c->requests, c->remote_hits};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        csv_row_u64(t, counts[i]);
    csv_row_ratio(t, (double)c->remote_hits, (double)c->requests);
    csv_row_ratio(t, (double)c->remote_hits, (double)c->misses);
    const uint64_t more[] = {c->throttled, c->hit_hops, c->probe_hops, c->epochs, c->ring_off_epochs};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        csv_row_u64(t, more[i]);
    csv_row_end(t);
}

static void run_rows(csv_table *t, const ring_of *ring)
{
    csv_row_str(t, ring->name);
    counts_columns(t, &ring->c->total);
}

static void kernel_rows(csv_table *t, const ring_of *ring)
{
    for (uint32_t k = 0; k < ring->c->kernel_count; k++) {
        csv_row_str(t, ring->name);
        csv_row_kernel(t, ring->t, k);
        counts_columns(t, &ring->c->kernels[k]);
    }
}

static void sm_rows(csv_table *t, const ring_of *ring)
{
    for (uint32_t s = 0; s < ring->c->sms; s++) {
        csv_row_str(t, ring->name);
        csv_row_u64(t, s);
        counts_columns(t, &ring->c->per_sm[s]);
    }
}

/* Ring distance d (1 .. SMs - 1) is 2d hops out and back. */
static void hop_rows(csv_table *t, const ring_of *ring)
{
    const ccn_results *c = ring->c;
    for (uint32_t k = 0; k < c->kernel_count; k++)
        for (uint32_t d = 1; d < c->sms; d++) {
            csv_row_str(t, ring->name);
            csv_row_kernel(t, ring->t, k);
            csv_row_u64(t, d);
            csv_row_u64(t, 2 * (uint64_t)d);
            csv_row_u64(t, c->distance_hits[(size_t)k * c->sms + d]);
            csv_row_end(t);
        }
}

static int write_table(const char *dir, const char *file, const char *const *header,
                       size_t columns, ring_rows rows, const char *const *names,
                       const replay_results *const *r, uint32_t count, const wst_trace *trace,
                       ws_error *err)
{
    csv_table *t = csv_table_open_in(dir, file, header, columns, err);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < count; i++)
        if (r[i]->ccn)
            rows(t, &(ring_of){names[i], r[i]->ccn, trace});
    return csv_table_commit(t, err);
}

int ccn_write_csv(const char *dir, const char *const *names, const replay_results *const *r,
                  uint32_t count, const wst_trace *trace, ws_error *err)
{
    int any = 0;
    for (uint32_t i = 0; i < count; i++)
        any |= r[i]->ccn != NULL;
    if (!any)
        return 0;
    static const char *const run[] = {"policy", CCN_COUNT_COLUMNS};
    static const char *const kernels[] = {"policy", CSV_KERNEL_COLUMNS, CCN_COUNT_COLUMNS};
    static const char *const sms[] = {"policy", "sm", CCN_COUNT_COLUMNS};
    static const char *const hops[] = {"policy", CSV_KERNEL_COLUMNS, "distance", "hops",
                                       "remote_hits"};
    static const char *const files[] = {CCN_CSV_FILES};
    const struct {
        const char *const *header;
        size_t columns;
        ring_rows rows;
    } tables[] = {{run, sizeof run / sizeof *run, run_rows},
                  {kernels, sizeof kernels / sizeof *kernels, kernel_rows},
                  {sms, sizeof sms / sizeof *sms, sm_rows},
                  {hops, sizeof hops / sizeof *hops, hop_rows}};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (write_table(dir, files[i], tables[i].header, tables[i].columns, tables[i].rows, names,
                        r, count, trace, err) != 0)
            return -1;
    return 0;
}
