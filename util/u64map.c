/* util/u64map.c: see u64map.h. */
#include "util/u64map.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int table_alloc(u64map *m, size_t capacity)
{
    m->slots = calloc(capacity, sizeof *m->slots);
    if (!m->slots)
        return -1;
    m->capacity = capacity;
    m->count = 0;
    return 0;
}

/* Tags hold 31 bits of home index. */
#define U64MAP_MAX_CAPACITY ((size_t)1 << 31)

int u64map_init(u64map *m, size_t expected)
{
    size_t capacity = 16;
    while (capacity < expected * 2 && capacity < U64MAP_MAX_CAPACITY)
        capacity *= 2;
    return table_alloc(m, capacity);
}

void u64map_destroy(u64map *m)
{
    free(m->slots);
    memset(m, 0, sizeof *m);
}

void u64map_clear(u64map *m)
{
    if (m->count == 0) /* removal leaves no marks: an empty table is clear */
        return;
    memset(m->slots, 0, m->capacity * sizeof *m->slots);
    m->count = 0;
}

int u64map_grow(u64map *m)
{
    u64map old = *m;
    if (old.capacity >= U64MAP_MAX_CAPACITY || table_alloc(m, old.capacity * 2) != 0) {
        *m = old;
        return -1;
    }
    size_t mask = m->capacity - 1;
    for (size_t i = 0; i < old.capacity; i++) {
        if (!old.slots[i].tag)
            continue;
        size_t at = old.slots[i].tag & mask;
        while (m->slots[at].tag)
            at = (at + 1) & mask;
        m->slots[at] = old.slots[i];
    }
    m->count = old.count;
    u64map_destroy(&old);
    return 0;
}

/* Whether `home` lies cyclically in (from, to]: an entry at `to` whose probe
 * started there must stay behind the hole at `from`. */
static int between(size_t from, size_t home, size_t to)
{
    return from <= to ? (home > from && home <= to) : (home > from || home <= to);
}

/* Empties slot `hole`, moving back the entries after it whose probe would
 * otherwise pass the gap. */
static void remove_slot(u64map *m, size_t hole)
{
    size_t mask = m->capacity - 1;
    for (size_t next = (hole + 1) & mask; m->slots[next].tag; next = (next + 1) & mask) {
        if (between(hole, m->slots[next].tag & mask, next))
            continue;
        m->slots[hole] = m->slots[next];
        hole = next;
    }
    m->slots[hole].tag = 0;
    m->count--;
}

int u64map_remove(u64map *m, uint64_t key)
{
    size_t mask = m->capacity - 1, hole = u64map_hash(key) & mask;
    for (; m->slots[hole].tag; hole = (hole + 1) & mask)
        if (m->slots[hole].key == key)
            break;
    if (!m->slots[hole].tag)
        return 0;
    remove_slot(m, hole);
    return 1;
}

void u64map_remove_at(u64map *m, uint32_t *value)
{
    remove_slot(m, (size_t)((u64map_slot *)((char *)value - offsetof(u64map_slot, value)) -
                            m->slots));
}
