/* reports/ccn_csv.c: see ccn_csv.h. */
#include "reports/ccn_csv.h"

#include <math.h>
#include <stdio.h>

#include "reports/csv_out.h"

static double ratio(uint64_t num, uint64_t den) { return den ? (double)num / (double)den : NAN; }

/* The columns every row starts with: the hierarchy, the scope (run,
 * kernel, sm) and its index (empty for the run). */
static void row_start(csv_table *t, const char *name, const char *scope, long index)
{
    csv_row_str(t, name);
    csv_row_str(t, scope);
    if (index < 0)
        csv_row_str(t, NULL);
    else
        csv_row_u64(t, (uint64_t)index);
}

static void counts_row(csv_table *t, const char *name, const char *scope, long index,
                       const ccn_counts *c)
{
    row_start(t, name, scope, index);
    const uint64_t counts[] = {c->misses, c->candidates, c->requests, c->remote_hits};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        csv_row_u64(t, counts[i]);
    csv_row_double(t, ratio(c->remote_hits, c->requests));
    csv_row_double(t, ratio(c->remote_hits, c->misses));
    const uint64_t more[] = {c->throttled, c->hit_hops, c->probe_hops, c->epochs, c->ring_off_epochs};
    for (size_t i = 0; i < sizeof more / sizeof more[0]; i++)
        csv_row_u64(t, more[i]);
    csv_row_end(t);
}

/* One table: its rows for each hierarchy with a ring. */
typedef void (*ring_rows)(csv_table *t, const char *name, const ccn_results *c);

static int write_table(const char *dir, const char *file, const char *const *header,
                       size_t columns, ring_rows rows, const char *const *names,
                       const replay_results *const *r, uint32_t count, ws_error *err)
{
    csv_table *t = csv_table_open_in(dir, file, header, columns, err);
    if (!t)
        return -1;
    for (uint32_t i = 0; i < count; i++)
        if (r[i]->ccn)
            rows(t, names[i], r[i]->ccn);
    return csv_table_commit(t, err);
}

static void count_rows(csv_table *t, const char *name, const ccn_results *c)
{
    counts_row(t, name, "run", -1, &c->total);
    for (uint32_t k = 0; k < c->kernel_count; k++)
        counts_row(t, name, "kernel", (long)k, &c->kernels[k]);
    for (uint32_t s = 0; s < c->sms; s++)
        counts_row(t, name, "sm", (long)s, &c->per_sm[s]);
}

static void histogram_rows(csv_table *t, const char *name, const char *scope, long index,
                           const uint64_t *distance_hits, uint32_t sms)
{
    for (uint32_t d = 1; d < sms; d++) {
        row_start(t, name, scope, index);
        csv_row_u64(t, d);
        csv_row_u64(t, 2 * (uint64_t)d);
        csv_row_u64(t, distance_hits[d]);
        csv_row_end(t);
    }
}

static void hop_rows(csv_table *t, const char *name, const ccn_results *c)
{
    histogram_rows(t, name, "run", -1, c->distance_hits + (size_t)c->kernel_count * c->sms, c->sms);
    for (uint32_t k = 0; k < c->kernel_count; k++)
        histogram_rows(t, name, "kernel", (long)k, c->distance_hits + (size_t)k * c->sms, c->sms);
}

int ccn_write_csv(const char *dir, const char *const *names, const replay_results *const *r,
                  uint32_t count, ws_error *err)
{
    int any = 0;
    for (uint32_t i = 0; i < count; i++)
        any |= r[i]->ccn != NULL;
    if (!any)
        return 0;
    static const char *const counts[] = {
        "policy", "scope", "index", "l1_load_misses", "candidates", "requests", "remote_hits",
        "remote_hit_rate", "l1_to_l2_request_reduction", "throttled", "hit_hops", "probe_hops",
        "epochs", "ring_off_epochs"};
    if (write_table(dir, "ccn.csv", counts, sizeof counts / sizeof counts[0], count_rows, names,
                    r, count, err) != 0)
        return -1;
    static const char *const hops[] = {"policy", "scope", "index", "distance", "hops",
                                       "remote_hits"};
    return write_table(dir, "ccn_hops.csv", hops, sizeof hops / sizeof hops[0], hop_rows, names, r,
                       count, err);
}
