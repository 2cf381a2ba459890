/* analyzer/bypass_table.c: see bypass_table.h (docs/metrics.md §9, S1 §III-B). */
#include "analyzer/bypass_table.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"
#include "util/u64map.h"

struct bypass_table {
    uint32_t line_bytes;
    bypass_u_kind kind;
    u64map index; /* line -> position */
    uint64_t *lines;
    bypass_line *entries;
    size_t count, lines_capacity, entries_capacity;
};

const char *bypass_u_name(bypass_u_kind kind)
{
    return kind == BYPASS_U_RAW_BYTES ? "raw" : "sector";
}

int bypass_u_parse(const char *name)
{
    return strcmp(name, "sector") == 0 ? BYPASS_U_SECTOR
         : strcmp(name, "raw") == 0    ? BYPASS_U_RAW_BYTES
                                       : -1;
}

bypass_table *bypass_table_new(uint32_t line_bytes, bypass_u_kind kind, ws_error *err)
{
    if (line_bytes < 32 || (line_bytes & (line_bytes - 1))) {
        ws_fail(err, "bypass table: line size %u is not a power of two >= 32", line_bytes);
        return NULL;
    }
    bypass_table *t = calloc(1, sizeof *t);
    if (!t || u64map_init(&t->index, 1024) != 0) {
        free(t);
        ws_fail(err, "out of memory");
        return NULL;
    }
    t->line_bytes = line_bytes;
    t->kind = kind;
    return t;
}

void bypass_table_free(bypass_table *t)
{
    if (!t)
        return;
    u64map_destroy(&t->index);
    free(t->lines);
    free(t->entries);
    free(t);
}

static bypass_line *entry_for(bypass_table *t, uint64_t line, ws_error *err)
{
    int inserted;
    uint32_t *slot = u64map_upsert(&t->index, line, (uint32_t)t->count, &inserted);
    if (!slot) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    if (!inserted)
        return &t->entries[*slot];
    if (ws_grow((void **)&t->lines, &t->lines_capacity, t->count + 1, sizeof *t->lines) ||
        ws_grow((void **)&t->entries, &t->entries_capacity, t->count + 1, sizeof *t->entries)) {
        ws_fail(err, "out of memory");
        return NULL;
    }
    t->lines[t->count] = line;
    t->entries[t->count] = (bypass_line){0};
    return &t->entries[t->count++];
}

void bypass_table_prefetch(const bypass_table *t, uint64_t line)
{
    u64map_prefetch(&t->index, line);
}

int bypass_table_request(bypass_table *t, uint64_t line, uint32_t raw_bytes,
                         uint32_t sector_mask, ws_error *err)
{
    bypass_line *l = entry_for(t, line, err);
    if (!l)
        return -1;
    l->requests++;
    l->raw_bytes += raw_bytes;
    l->sector_bytes += 32u * (uint32_t)__builtin_popcount(sector_mask);
    return 0;
}

int bypass_table_fill(bypass_table *t, uint64_t line, ws_error *err)
{
    bypass_line *l = entry_for(t, line, err);
    return l ? (l->fills++, 0) : -1;
}

int bypass_table_hit(bypass_table *t, uint64_t line, ws_error *err)
{
    bypass_line *l = entry_for(t, line, err);
    return l ? (l->hits++, 0) : -1;
}

int bypass_eq1(double utilization, double reuse_times)
{
    /* A tiny tolerance keeps exact boundary cases (U = 0.25, R = 3) cached,
     * as S1's examples require, despite rounding in U. */
    return utilization * (1.0 + reuse_times) < 1.0 - 1e-9;
}

double bypass_line_utilization_of(const bypass_table *t, const bypass_line *l,
                                  bypass_u_kind kind)
{
    if (!l->requests)
        return 1.0;
    uint64_t used = kind == BYPASS_U_SECTOR ? l->sector_bytes : l->raw_bytes;
    double u = (double)used / ((double)l->requests * t->line_bytes);
    return u > 1.0 ? 1.0 : u;
}

double bypass_line_utilization(const bypass_table *t, const bypass_line *l)
{
    return bypass_line_utilization_of(t, l, t->kind);
}

double bypass_line_reuse_times(const bypass_line *l)
{
    /* A line that hit without a recorded fill was warm from an earlier
     * kernel: count the hits as reuses of one fill. */
    uint64_t fills = l->fills ? l->fills : 1;
    return (double)l->hits / (double)fills;
}

const bypass_line *bypass_table_get(const bypass_table *t, uint64_t line)
{
    const uint32_t *slot = u64map_find(&t->index, line);
    return slot ? &t->entries[*slot] : NULL;
}

int bypass_table_verdict(const bypass_table *t, uint64_t line)
{
    const bypass_line *l = bypass_table_get(t, line);
    if (!l || !l->requests)
        return 0;
    return bypass_eq1(bypass_line_utilization(t, l), bypass_line_reuse_times(l));
}

uint64_t bypass_table_count(const bypass_table *t) { return t->count; }

uint64_t bypass_table_worthy_count(const bypass_table *t)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < t->count; i++)
        n += (uint64_t)bypass_table_verdict(t, t->lines[i]);
    return n;
}

uint64_t bypass_table_line_at(const bypass_table *t, uint64_t i, const bypass_line **entry)
{
    *entry = &t->entries[i];
    return t->lines[i];
}
