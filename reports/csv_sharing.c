/* reports/csv_sharing.c: the whole trace's sharing (docs/metrics.md §5) as
 * three tables, one per thing counted: blocks by how many SMs touched them,
 * blocks by pair of SMs, and CTA pairs by distance.  SHARING_EXACT_DISTANCES
 * is 16 and the exact rows stop below it, where the log2 buckets (b >= 4)
 * start. */
#include "reports/csv_out.h"
#include "reports/csv_tables.h"
#include "analyzer/reuse.h"

/* sharing_sharer_counts.csv: one row per number of distinct SMs. */
static int sharer_counts(const sharing_results *s, uint32_t block, const char *dir, ws_error *err)
{
    static const char *const header[] = {"sms", "blocks", "block_bytes"};
    csv_table *t = csv_table_open_in(dir, CSV_SHARER_COUNTS, header, 3, err);
    if (!t)
        return -1;
    for (uint32_t k = 0; k <= s->sm_count; k++) {
        csv_row_u64(t, k);
        csv_row_u64(t, s->sharers_hist[k]);
        csv_row_u64(t, block);
        csv_row_end(t);
    }
    return csv_table_commit(t, err);
}

/* sharing_sm_pairs.csv: one row per ordered pair of SMs, the diagonal
 * included. */
static int sm_pairs(const sharing_results *s, uint32_t block, const char *dir, ws_error *err)
{
    static const char *const header[] = {"sm_x", "sm_y", "blocks", "block_bytes"};
    csv_table *t = csv_table_open_in(dir, CSV_SM_PAIRS, header, 4, err);
    if (!t)
        return -1;
    for (uint32_t x = 0; x < s->sm_count; x++)
        for (uint32_t y = 0; y < s->sm_count; y++) {
            csv_row_u64(t, x);
            csv_row_u64(t, y);
            csv_row_u64(t, s->sm_matrix[(size_t)x * s->sm_count + y]);
            csv_row_u64(t, block);
            csv_row_end(t);
        }
    return csv_table_commit(t, err);
}

static void distance_row(csv_table *t, uint64_t low, uint64_t high, uint64_t pairs, uint32_t block)
{
    csv_row_u64(t, low);
    csv_row_u64(t, high);
    csv_row_u64(t, pairs);
    csv_row_u64(t, block);
    csv_row_end(t);
}

/* sharing_cta_distances.csv: one row per distance bucket: each exact
 * distance below SHARING_EXACT_DISTANCES, then the non-empty log2 buckets. */
static int cta_distances(const sharing_results *s, uint32_t block, const char *dir,
                         ws_error *err)
{
    static const char *const header[] = {"distance_low", "distance_high", "cta_pairs",
                                         "block_bytes"};
    csv_table *t = csv_table_open_in(dir, CSV_CTA_DISTANCES, header, 4, err);
    if (!t)
        return -1;
    for (unsigned d = 1; d < SHARING_EXACT_DISTANCES; d++)
        distance_row(t, d, d, s->cta_distance_exact[d], block);
    /* CTA-distance bucket b holds [2^b, 2^(b+1) - 1]: reuse bucket b + 1. */
    for (unsigned b = 4; b < SHARING_LOG2_BUCKETS; b++)
        if (s->cta_distance_log2[b])
            distance_row(t, reuse_bucket_low(b + 1), reuse_bucket_high(b + 1), s->cta_distance_log2[b],
                         block);
    return csv_table_commit(t, err);
}

int csv_write_sharing(const analysis *a, const char *dir, ws_error *err)
{
    const sharing_results *s = sharing_get(a->sharing);
    uint32_t block = analysis_sharing_block(&a->options, &a->config);
    return sharer_counts(s, block, dir, err) || sm_pairs(s, block, dir, err) ||
                   cta_distances(s, block, dir, err)
               ? -1
               : 0;
}
