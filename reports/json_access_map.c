/* reports/json_access_map.c: see json_access_map.h. */
#include "reports/json_access_map.h"

#include "reports/json_out.h"

json_t *report_json_access_map(const access_map *m, const wst_reader *r)
{
    access_map_view v;
    if (!m || access_map_view_get(m, &v, NULL) != 0)
        return NULL;
    json_t *regions = json_array();
    for (uint32_t i = 0; i < v.region_bins; i++) {
        json_t *region = json_pack("{s:o,s:o}", "low", report_json_u64(v.low[i]), "high",
                                   report_json_u64(v.high[i]));
        /* Where the trace lists its allocations: the one the region starts
         * in, so the page can name rows by allocation, not address. */
        uint32_t ordinal;
        uint64_t offset;
        if (r && wst_reader_allocation_of(r, v.low[i], &ordinal, &offset)) {
            json_object_set_new(region, "allocation", json_integer(ordinal));
            json_object_set_new(region, "offset", report_json_u64(offset));
        }
        json_array_append_new(regions, region);
    }
    json_t *counts = json_array();
    for (uint32_t t = 0; t < v.time_bins; t++)
        json_array_append_new(counts, report_json_u64_array(v.counts + (size_t)t * v.region_bins,
                                                            v.region_bins));
    json_t *o = json_object();
    json_object_set_new(o, "time_bins", json_integer(v.time_bins));
    json_object_set_new(o, "region_bins", json_integer(v.region_bins));
    json_object_set_new(o, "region_bytes", report_json_u64(v.region_bytes));
    json_object_set_new(o, "regions", regions);
    json_object_set_new(o, "issues_per_bin", report_json_u64(v.issues_per_bin));
    json_object_set_new(o, "counts", counts);
    access_map_view_free(&v);
    return o;
}
