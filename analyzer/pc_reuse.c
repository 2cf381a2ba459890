/* analyzer/pc_reuse.c: see pc_reuse.h (docs/metrics.md §3). */
#include "analyzer/pc_reuse.h"

#include <stdlib.h>
#include <string.h>

/* The cells move into the dense form, which then takes every access. */
static int make_dense(pc_reuse *r)
{
    uint64_t *dense = calloc(PC_REUSE_DENSE, sizeof *dense);
    if (!dense)
        return -1;
    for (uint32_t i = 0; i < r->cell_count; i++)
        dense[r->cells[i].cell] = r->cells[i].count;
    free(r->cells);
    r->cells = NULL;
    r->cell_count = r->cell_capacity = 0;
    r->dense = dense;
    return 0;
}

int pc_reuse_add_sparse(pc_reuse *r, uint32_t cell, uint64_t count)
{
    if (r->dense) {
        r->dense[cell] += count;
        return 0;
    }
    for (uint32_t i = 0; i < r->cell_count; i++)
        if (r->cells[i].cell == cell) {
            r->cells[i].count += count;
            return 0;
        }
    if (r->cell_count == PC_REUSE_CELLS_MAX) {
        if (make_dense(r) != 0)
            return -1;
        r->dense[cell] += count;
        return 0;
    }
    if (r->cell_count == r->cell_capacity) {
        /* 2, 4, 8, 16: a PC run once (cold in each histogram) takes 6. */
        uint32_t capacity = r->cell_capacity ? r->cell_capacity * 2 : 2;
        pc_reuse_cell *grown = realloc(r->cells, capacity * sizeof *grown);
        if (!grown)
            return -1;
        r->cells = grown;
        r->cell_capacity = capacity;
    }
    r->cells[r->cell_count++] = (pc_reuse_cell){.count = count, .cell = cell};
    return 0;
}

/* Adds one cell's count to the histogram it belongs to. */
static void hist_put(reuse_hist *h, unsigned slot, uint64_t count)
{
    if (slot == PC_REUSE_SKIPPED) {
        h->skipped += count;
        return;
    }
    h->total += count; /* see pc_reuse.h: the total is cold plus buckets */
    if (slot == PC_REUSE_COLD)
        h->cold += count;
    else
        h->log2[slot] += count;
}

void pc_reuse_hist(const pc_reuse *r, unsigned hist, reuse_hist *out)
{
    memset(out, 0, sizeof *out);
    uint32_t first = (uint32_t)(hist * PC_REUSE_SLOTS);
    if (r->dense) {
        for (unsigned slot = 0; slot < PC_REUSE_SLOTS; slot++)
            hist_put(out, slot, r->dense[first + slot]);
        return;
    }
    for (uint32_t i = 0; i < r->cell_count; i++)
        if (r->cells[i].cell - first < PC_REUSE_SLOTS)
            hist_put(out, r->cells[i].cell - first, r->cells[i].count);
}

void pc_reuse_free(pc_reuse *r)
{
    free(r->dense);
    free(r->cells);
    memset(r, 0, sizeof *r);
}
