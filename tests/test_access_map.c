/* tests/test_access_map.c: the address-region × time histogram stays
 * bounded, loses no request, and matches the analysis it comes from. */
#include <criterion/criterion.h>
#include <jansson.h>

#include "analyzer/access_map.h"
#include "tests/helpers.h"
#include "tests/report_fixture.h"

static access_map *make(void)
{
    ws_error err;
    access_map *m = access_map_new(&err);
    cr_assert_not_null(m, "%s", err.msg);
    return m;
}

static void touch(access_map *m, uint64_t issue, uint64_t addr)
{
    ws_error err;
    cr_assert_eq(access_map_touch(m, issue, addr, &err), 0, "%s", err.msg);
}

static uint64_t view_total(const access_map_view *v)
{
    uint64_t total = 0;
    for (size_t i = 0; i < (size_t)v->time_bins * v->region_bins; i++)
        total += v->counts[i];
    return total;
}

static void get(const access_map *m, access_map_view *v)
{
    ws_error err;
    cr_assert_eq(access_map_view_get(m, v, &err), 0, "%s", err.msg);
}

Test(access_map, empty_map_has_no_bins)
{
    access_map *m = make();
    access_map_view v;
    get(m, &v);
    cr_assert_eq(v.time_bins, 0);
    cr_assert_eq(v.region_bins, 0);
    access_map_view_free(&v);
    access_map_free(m);
}

/* A million issues fold into at most 256 bins of a power-of-two width, and
 * every touch lands in the bin of its issue. */
Test(access_map, time_bins_stay_bounded)
{
    access_map *m = make();
    const uint64_t issues = 1000000;
    for (uint64_t i = 0; i < issues; i++)
        touch(m, i, (i % 3) * 4096);
    access_map_view v;
    get(m, &v);
    cr_assert_leq(v.time_bins, ACCESS_MAP_TIME_BINS);
    cr_assert_gt(v.time_bins, ACCESS_MAP_TIME_BINS / 2, "merging halves, never more");
    cr_assert_eq(v.issues_per_bin & (v.issues_per_bin - 1), 0);
    cr_assert_geq(v.issues_per_bin * v.time_bins, issues);
    cr_assert_eq(v.region_bins, 3, "three lines");
    cr_assert_eq(view_total(&v), issues);
    /* Full bins hold exactly their width; the last holds the rest. */
    uint64_t first = 0, last = 0;
    for (uint32_t r = 0; r < v.region_bins; r++) {
        first += v.counts[r];
        last += v.counts[(size_t)(v.time_bins - 1) * v.region_bins + r];
    }
    cr_assert_eq(first, v.issues_per_bin);
    cr_assert_eq(last, issues - (v.time_bins - 1) * v.issues_per_bin);
    access_map_view_free(&v);
    access_map_free(m);
}

/* Allocations far apart become adjacent rows: the gap between them is not
 * drawn. */
Test(access_map, gaps_between_allocations_vanish)
{
    access_map *m = make();
    touch(m, 0, 0x10000000);
    touch(m, 1, 0x10000080);
    touch(m, 2, 0x7f0000000000);
    touch(m, 2, 0x10000);
    access_map_view v;
    get(m, &v);
    cr_assert_eq(v.region_bins, 4);
    cr_assert_eq(v.region_bytes, 128);
    cr_assert_eq(v.low[0], 0x10000);
    cr_assert_eq(v.high[0], 0x1007f);
    cr_assert_eq(v.low[1], 0x10000000);
    cr_assert_eq(v.low[2], 0x10000080);
    cr_assert_eq(v.low[3], 0x7f0000000000);
    cr_assert_eq(v.counts[0 * 4 + 1], 1);
    cr_assert_eq(v.counts[1 * 4 + 2], 1);
    cr_assert_eq(v.counts[2 * 4 + 0], 1);
    cr_assert_eq(v.counts[2 * 4 + 3], 1);
    access_map_view_free(&v);
    access_map_free(m);
}

/* Many distinct pages: the page size grows, rows stay at most 64, sorted and
 * disjoint, and no touch is lost. */
Test(access_map, regions_stay_bounded)
{
    access_map *m = make();
    const uint64_t pages = 5000;
    for (uint64_t p = 0; p < pages; p++)
        touch(m, p, (p * 7919 % pages) << 16); /* 64 KiB apart, in a scattered order */
    access_map_view v;
    get(m, &v);
    cr_assert_eq(v.region_bins, ACCESS_MAP_REGIONS);
    cr_assert_gt(v.region_bytes, 65536);
    for (uint32_t r = 0; r < v.region_bins; r++) {
        cr_assert_lt(v.low[r], v.high[r]);
        if (r > 0)
            cr_assert_gt(v.low[r], v.high[r - 1]);
    }
    cr_assert_eq(v.low[0], 0);
    cr_assert_geq(v.high[v.region_bins - 1], (pages << 16) - 1);
    cr_assert_eq(view_total(&v), pages);
    access_map_view_free(&v);
    access_map_free(m);
}

/* End to end: the map counts exactly the counted line requests of the run,
 * and its bins cover exactly the issued instructions. */
Test(access_map, report_counts_every_counted_request)
{
    char *dir = test_tmpdir();
    json_t *doc = test_report_for(dir, "gemm", "fermi");
    json_t *map = json_object_get(doc, "access_map");
    cr_assert(json_is_object(map));
    json_int_t regions = json_integer_value(json_object_get(map, "region_bins"));
    json_t *counts = json_object_get(map, "counts");
    cr_assert_eq(json_array_size(counts), (size_t)json_integer_value(json_object_get(map, "time_bins")));
    cr_assert_eq(json_array_size(json_object_get(map, "regions")), (size_t)regions);
    json_int_t total = 0;
    size_t t;
    json_t *row;
    json_array_foreach(counts, t, row) {
        cr_assert_eq(json_array_size(row), (size_t)regions);
        size_t r;
        json_t *c;
        json_array_foreach(row, r, c) total += json_integer_value(c);
    }
    json_t *ins = json_object_get(json_object_get(doc, "summary"), "instructions");
    cr_assert_eq(total, json_integer_value(json_object_get(ins, "requests")));
    json_t *trace = json_object_get(doc, "trace");
    json_int_t issued = json_integer_value(json_object_get(trace, "records"));
    json_int_t width = json_integer_value(json_object_get(map, "issues_per_bin"));
    cr_assert_eq((issued + width - 1) / width, (json_int_t)json_array_size(counts),
                 "gemm's last instruction is a counted load");
    json_decref(doc);
    test_tmpdir_cleanup(dir);
}
