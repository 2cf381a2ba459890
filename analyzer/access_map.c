/* analyzer/access_map.c: see access_map.h. */
#include "analyzer/access_map.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/u64map.h"

#define RECENT_SLOTS 64

struct access_map {
    u64map rows;          /* page number -> row */
    uint64_t *pages;      /* [row_count]: page number of each row */
    uint64_t *counts;     /* [row_count * ACCESS_MAP_TIME_BINS] */
    size_t row_count, row_capacity;
    uint32_t page_shift;
    uint64_t issues_per_bin;
    uint32_t bins_used;
    /* Recent pages, direct-mapped by their low bits: the lines of one
     * instruction and of its neighbours mostly hit here, skipping the hash.
     * A slot holds page + 1 (0 = empty; pages stay below 2^57). */
    uint64_t recent_page[RECENT_SLOTS];
    uint32_t recent_row[RECENT_SLOTS];
};

access_map *access_map_new(ws_error *err)
{
    access_map *m = calloc(1, sizeof *m);
    if (!m || u64map_init(&m->rows, 64) != 0) {
        free(m);
        ws_fail(err, "out of memory");
        return NULL;
    }
    m->page_shift = ACCESS_MAP_PAGE_SHIFT;
    m->issues_per_bin = 1;
    return m;
}

void access_map_free(access_map *m)
{
    if (!m)
        return;
    u64map_destroy(&m->rows);
    free(m->pages);
    free(m->counts);
    free(m);
}

/* Halves the time resolution: bin i takes bins 2i and 2i+1. */
static void merge_time_bins(access_map *m)
{
    for (size_t r = 0; r < m->row_count; r++) {
        uint64_t *row = m->counts + r * ACCESS_MAP_TIME_BINS;
        for (uint32_t i = 0; i < ACCESS_MAP_TIME_BINS / 2; i++)
            row[i] = row[2 * i] + row[2 * i + 1];
        memset(row + ACCESS_MAP_TIME_BINS / 2, 0, ACCESS_MAP_TIME_BINS / 2 * sizeof *row);
    }
    m->issues_per_bin *= 2;
    m->bins_used = (m->bins_used + 1) / 2;
}

/* Doubles the page size: rows whose pages become one are summed.  Rows are
 * compacted in place, the survivor of a merge keeping the lower index. */
static int merge_pages(access_map *m)
{
    u64map merged;
    if (u64map_init(&merged, m->row_count) != 0)
        return -1;
    size_t kept = 0;
    for (size_t r = 0; r < m->row_count; r++) {
        int inserted = 0;
        uint32_t *to = u64map_upsert(&merged, m->pages[r] >> 1, (uint32_t)kept, &inserted);
        uint64_t *src = m->counts + r * ACCESS_MAP_TIME_BINS;
        if (inserted) {
            m->pages[kept] = m->pages[r] >> 1;
            memmove(m->counts + kept * ACCESS_MAP_TIME_BINS, src, ACCESS_MAP_TIME_BINS * sizeof *src);
            kept++;
            continue;
        }
        uint64_t *dst = m->counts + (size_t)*to * ACCESS_MAP_TIME_BINS;
        for (uint32_t i = 0; i < ACCESS_MAP_TIME_BINS; i++)
            dst[i] += src[i];
    }
    u64map_destroy(&m->rows);
    m->rows = merged;
    m->row_count = kept;
    m->page_shift++;
    memset(m->recent_page, 0, sizeof m->recent_page); /* rows moved */
    return 0;
}

static int row_of(access_map *m, uint64_t addr, uint32_t *row)
{
    /* page_shift stays below 56: past that fewer than ACCESS_MAP_MAX_PAGES
     * pages exist, so merging stops. */
    uint64_t page = addr >> m->page_shift;
    unsigned slot = page % RECENT_SLOTS;
    if (m->recent_page[slot] == page + 1) {
        *row = m->recent_row[slot];
        return 0;
    }
    uint32_t *found = u64map_find(&m->rows, page);
    while (!found && m->row_count >= ACCESS_MAP_MAX_PAGES) {
        if (merge_pages(m) != 0)
            return -1;
        page = addr >> m->page_shift;
        found = u64map_find(&m->rows, page);
    }
    if (!found) {
        /* Both arrays grow from the same capacity to the same size. */
        size_t cap = m->row_capacity;
        if (ws_grow((void **)&m->pages, &cap, m->row_count + 1, sizeof *m->pages) != 0)
            return -1;
        cap = m->row_capacity;
        if (ws_grow((void **)&m->counts, &cap, m->row_count + 1,
                    ACCESS_MAP_TIME_BINS * sizeof *m->counts) != 0)
            return -1;
        m->row_capacity = cap;
        int inserted;
        found = u64map_upsert(&m->rows, page, (uint32_t)m->row_count, &inserted);
        if (!found)
            return -1;
        m->pages[m->row_count] = page;
        memset(m->counts + m->row_count * ACCESS_MAP_TIME_BINS, 0,
               ACCESS_MAP_TIME_BINS * sizeof *m->counts);
        m->row_count++;
    }
    slot = page % RECENT_SLOTS; /* the page may have grown meanwhile */
    m->recent_page[slot] = page + 1;
    m->recent_row[slot] = *row = *found;
    return 0;
}

int access_map_touch(access_map *m, uint64_t issue, uint64_t addr, ws_error *err)
{
    while (issue / m->issues_per_bin >= ACCESS_MAP_TIME_BINS)
        merge_time_bins(m);
    uint32_t bin = (uint32_t)(issue / m->issues_per_bin), row;
    if (row_of(m, addr, &row) != 0)
        return ws_fail(err, "out of memory");
    m->counts[(size_t)row * ACCESS_MAP_TIME_BINS + bin]++;
    if (bin >= m->bins_used)
        m->bins_used = bin + 1;
    return 0;
}

static int by_page(const void *a, const void *b)
{
    uint64_t x = **(const uint64_t *const *)a, y = **(const uint64_t *const *)b;
    return (x > y) - (x < y);
}

int access_map_view_get(const access_map *m, access_map_view *v, ws_error *err)
{
    memset(v, 0, sizeof *v);
    size_t pages = m->row_count;
    uint32_t regions = pages < ACCESS_MAP_REGIONS ? (uint32_t)pages : ACCESS_MAP_REGIONS;
    /* Rows sorted by address; the row index is recovered from the pointer. */
    const uint64_t **order = malloc((pages ? pages : 1) * sizeof *order);
    v->low = calloc(regions + 1, sizeof *v->low);
    v->high = calloc(regions + 1, sizeof *v->high);
    v->counts = calloc((size_t)m->bins_used * regions + 1, sizeof *v->counts);
    if (!order || !v->low || !v->high || !v->counts) {
        free(order);
        access_map_view_free(v);
        return ws_fail(err, "out of memory");
    }
    for (size_t r = 0; r < pages; r++)
        order[r] = &m->pages[r];
    qsort(order, pages, sizeof *order, by_page);
    v->time_bins = m->bins_used;
    v->region_bins = regions;
    v->region_bytes = 1ull << m->page_shift;
    v->issues_per_bin = m->issues_per_bin;
    /* Rank compression: region g takes the sorted pages [g·P/R, (g+1)·P/R). */
    for (uint32_t g = 0; g < regions; g++) {
        size_t first = g * pages / regions, end = (g + 1) * pages / regions;
        v->low[g] = *order[first] << m->page_shift;
        v->high[g] = ((*order[end - 1] + 1) << m->page_shift) - 1;
        for (size_t i = first; i < end; i++) {
            const uint64_t *row = m->counts + (size_t)(order[i] - m->pages) * ACCESS_MAP_TIME_BINS;
            for (uint32_t t = 0; t < v->time_bins; t++)
                v->counts[(size_t)t * regions + g] += row[t];
        }
    }
    free(order);
    return 0;
}

void access_map_view_free(access_map_view *v)
{
    free(v->low);
    free(v->high);
    free(v->counts);
    memset(v, 0, sizeof *v);
}
