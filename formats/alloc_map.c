/* formats/alloc_map.c: see alloc_map.h. */
#include "formats/alloc_map.h"

#include <stdlib.h>
#include <string.h>

#include "formats/wst_layout.h"
#include "util/grow.h"

int wst_allocation_check(const wst_allocation *a, uint32_t ordinal, ws_error *err)
{
    if (a->bytes == 0)
        return ws_fail(err, "allocation %u has 0 bytes", ordinal);
    if (a->base > WST_MAX_ALLOCATION_END || a->bytes > WST_MAX_ALLOCATION_END - a->base)
        return ws_fail(err, "allocation %u ends past 2^63 (base 0x%llx, %llu bytes)", ordinal,
                       (unsigned long long)a->base, (unsigned long long)a->bytes);
    return 0;
}

static int by_base(const void *a, const void *b)
{
    const wst_alloc_range *x = a, *y = b;
    return (x->base > y->base) - (x->base < y->base);
}

int wst_alloc_map_build(wst_alloc_map *m, const wst_allocation *list, uint32_t count,
                        ws_error *err)
{
    *m = (wst_alloc_map){0};
    if (!count)
        return 0;
    if (!(m->ranges = malloc(count * sizeof *m->ranges)))
        return ws_fail(err, "out of memory");
    m->capacity = m->count = count;
    for (uint32_t i = 0; i < count; i++) {
        if (wst_allocation_check(&list[i], i, err) != 0) {
            wst_alloc_map_free(m);
            return -1;
        }
        m->ranges[i] = (wst_alloc_range){list[i].base, list[i].base + list[i].bytes, i};
    }
    qsort(m->ranges, count, sizeof *m->ranges, by_base);
    for (size_t i = 1; i < count; i++)
        if (m->ranges[i].base < m->ranges[i - 1].end) {
            uint32_t a = m->ranges[i - 1].ordinal, b = m->ranges[i].ordinal;
            wst_alloc_map_free(m);
            return ws_fail(err, "allocations %u and %u overlap", a < b ? a : b, a < b ? b : a);
        }
    return 0;
}

/* The position of the first range whose base is above address. */
static size_t upper_bound(const wst_alloc_map *m, uint64_t address)
{
    size_t lo = 0, hi = m->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->ranges[mid].base <= address)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

int wst_alloc_map_insert(wst_alloc_map *m, const wst_allocation *a, uint32_t ordinal,
                         ws_error *err)
{
    if (wst_allocation_check(a, ordinal, err) != 0)
        return -1;
    wst_alloc_range r = {a->base, a->base + a->bytes, ordinal};
    size_t at = upper_bound(m, r.base);
    if ((at > 0 && m->ranges[at - 1].end > r.base) || (at < m->count && m->ranges[at].base < r.end))
        return 1;
    if (ws_grow((void **)&m->ranges, &m->capacity, m->count + 1, sizeof *m->ranges) != 0)
        return ws_fail(err, "out of memory");
    /* Allocators mostly hand out rising addresses: then this moves nothing. */
    memmove(&m->ranges[at + 1], &m->ranges[at], (m->count - at) * sizeof *m->ranges);
    m->ranges[at] = r;
    m->count++;
    return 0;
}

int wst_alloc_map_find(const wst_alloc_map *m, uint64_t address, uint32_t *ordinal,
                       uint64_t *offset)
{
    size_t at = upper_bound(m, address);
    if (at == 0 || address >= m->ranges[at - 1].end)
        return 0;
    *ordinal = m->ranges[at - 1].ordinal;
    *offset = address - m->ranges[at - 1].base;
    return 1;
}

void wst_alloc_map_free(wst_alloc_map *m)
{
    free(m->ranges);
    *m = (wst_alloc_map){0};
}
