/* reports/csv_pcs.c: pcs.csv, one row per (kernel launch, PC): what the
 * analysis measured of the PC and, when the report has a replay, how the
 * configured L1 served it. */
#include "reports/csv_keys.h"
#include "reports/csv_tables.h"

static void locality_columns(csv_table *t, const locality_pc *l)
{
    uint64_t gens = 0;
    for (int c = 0; c < LOCALITY_CLASSES; c++)
        gens += l->generations[c];
    csv_row_u64(t, gens);
    csv_row_str(t, gens ? locality_class_name(locality_dominant(l->generations)) : NULL);
    for (int c = 0; c < LOCALITY_CLASSES; c++)
        csv_row_ratio(t, (double)l->generations[c], (double)gens);
}

/* Empty without a replay (an `opt` policy needs `warpscope replay`). */
static void replay_columns(csv_table *t, const replay_pc *r)
{
    if (!r) {
        for (int i = 0; i < 6; i++)
            csv_row_str(t, NULL);
        return;
    }
    csv_row_u64(t, r->accesses);
    csv_row_u64(t, r->hits);
    csv_row_u64(t, r->misses);
    csv_row_ratio(t, (double)r->hits, (double)r->accesses);
    csv_row_u64(t, r->bypasses);
    csv_row_u64(t, r->traffic_bytes);
}

csv_table *csv_pcs_open(const char *dir, ws_error *err)
{
    static const char *const header[] = {
        CSV_PC_COLUMNS, "executions", "requests", "u_line", "u_sector", "coherent", "divergent",
        "cold_requests", "generations", "locality_class", "streaming_fraction", "intra_fraction",
        "inter_fraction", "both_fraction", "l1_requests", "l1_hits", "l1_misses", "l1_hit_rate",
        "l1_bypasses", "l1_to_l2_read_bytes"};
    return csv_table_open_in(dir, CSV_PCS, header, sizeof header / sizeof *header, err);
}

void csv_pcs_add(csv_table *t, const analysis *a, const wst_trace *trace, uint32_t k)
{
    uint32_t line = a->config.l1.line_bytes;
    const metrics_kernel *mk = metrics_kernel_at(a->metrics, k);
    const analysis_kernel *ak = analysis_kernel_at(a, k);
    const replay_kernel *rk = a->replay ? &hierarchy_results(a->replay)->kernels[k] : NULL;
    for (uint32_t p = 0; p < mk->pc_count && p < trace->kernels[k].pc_count; p++) {
        const metrics_counts *m = &mk->pcs[p].counts;
        csv_row_pc(t, trace, k, p);
        csv_row_u64(t, m->executions);
        csv_row_u64(t, m->requests);
        csv_row_ratio(t, (double)m->bytes_used, (double)m->requests * line);
        csv_row_ratio(t, (double)m->bytes_used, (double)m->sectors * REQUEST_SECTOR_BYTES);
        csv_row_u64(t, m->coherent);
        csv_row_u64(t, m->divergent);
        reuse_pair global;
        metrics_pc_reuse(&mk->pcs[p], SCOPE_GLOBAL, &global);
        csv_row_u64(t, global.distance.cold);
        locality_columns(t, &ak->locality[p]);
        replay_columns(t, rk && p < rk->pc_count ? &rk->pcs[p] : NULL);
        csv_row_end(t);
    }
}
