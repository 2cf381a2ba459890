/* analyzer/access_map.h: where in memory a trace goes, and when.
 *
 * A coarse address-region × time histogram of the counted line requests,
 * for the HTML report's access heatmap.  Memory is bounded whatever the
 * trace length:
 *   - time is cut into at most ACCESS_MAP_TIME_BINS bins of issued
 *     instructions; when the last one fills, adjacent bins are merged
 *     pairwise and the bin width doubles;
 *   - addresses are counted per page, which starts at one 128 B line; past
 *     ACCESS_MAP_MAX_PAGES distinct pages, the page size doubles (neighbours
 *     merge) until they fit again.  A small kernel so keeps a fine map and a
 *     large one ends with 64 KiB pages or coarser.
 * The view then ranks the distinct pages by address and packs them into at
 * most ACCESS_MAP_REGIONS rows, so the gaps between allocations vanish and
 * every row holds memory the kernel really touched. */
#ifndef WS_ACCESS_MAP_H
#define WS_ACCESS_MAP_H

#include <stdint.h>

#include "util/error.h"

#define ACCESS_MAP_TIME_BINS 256
#define ACCESS_MAP_REGIONS 64
#define ACCESS_MAP_PAGE_SHIFT 7 /* the first page size: 128 B */
#define ACCESS_MAP_MAX_PAGES 1024

typedef struct access_map access_map;

access_map *access_map_new(ws_error *err);
void access_map_free(access_map *m);

/* One line request to byte address addr by the issue-th issued instruction
 * of the pass (0-based, non-decreasing). */
int access_map_touch(access_map *m, uint64_t issue, uint64_t addr, ws_error *err);

/* The histogram as the report shows it (docs/report-schema.md). */
typedef struct access_map_view {
    uint32_t time_bins;      /* T: bins up to the last issue seen */
    uint32_t region_bins;    /* R: rows, at most ACCESS_MAP_REGIONS */
    uint64_t region_bytes;   /* page size the rows are made of */
    uint64_t issues_per_bin; /* bin width in issued instructions */
    uint64_t *low, *high;    /* [R]: first and last byte address of each row */
    uint64_t *counts;        /* [T * R]: counts[t * R + r] */
} access_map_view;

int access_map_view_get(const access_map *m, access_map_view *v, ws_error *err);
void access_map_view_free(access_map_view *v);

#endif
