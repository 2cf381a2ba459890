/* util/u64map.c: see u64map.h. */
#include "util/u64map.h"

#include <stdlib.h>
#include <string.h>

static int table_alloc(u64map *m, size_t capacity)
{
    m->keys = malloc(capacity * sizeof *m->keys);
    m->values = malloc(capacity * sizeof *m->values);
    m->used = calloc(capacity, 1);
    if (!m->keys || !m->values || !m->used) {
        free(m->keys);
        free(m->values);
        free(m->used);
        return -1;
    }
    m->capacity = capacity;
    m->count = 0;
    return 0;
}

int u64map_init(u64map *m, size_t expected)
{
    size_t capacity = 16;
    while (capacity < expected * 2)
        capacity *= 2;
    return table_alloc(m, capacity);
}

void u64map_destroy(u64map *m)
{
    free(m->keys);
    free(m->values);
    free(m->used);
    memset(m, 0, sizeof *m);
}

void u64map_clear(u64map *m)
{
    memset(m->used, 0, m->capacity);
    m->count = 0;
}

uint32_t *u64map_find(const u64map *m, uint64_t key)
{
    size_t mask = m->capacity - 1;
    for (size_t i = u64map_hash(key) & mask; m->used[i]; i = (i + 1) & mask)
        if (m->keys[i] == key)
            return &m->values[i];
    return NULL;
}

static int grow(u64map *m)
{
    u64map old = *m;
    if (table_alloc(m, old.capacity * 2) != 0) {
        *m = old;
        return -1;
    }
    for (size_t i = 0; i < old.capacity; i++) {
        if (!old.used[i])
            continue;
        int inserted;
        *u64map_upsert(m, old.keys[i], old.values[i], &inserted) = old.values[i];
    }
    u64map_destroy(&old);
    return 0;
}

uint32_t *u64map_upsert(u64map *m, uint64_t key, uint32_t initial, int *inserted)
{
    if ((m->count + 1) * 2 > m->capacity && grow(m) != 0)
        return NULL;
    size_t mask = m->capacity - 1;
    size_t i = u64map_hash(key) & mask;
    for (; m->used[i]; i = (i + 1) & mask) {
        if (m->keys[i] == key) {
            *inserted = 0;
            return &m->values[i];
        }
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->values[i] = initial;
    m->count++;
    *inserted = 1;
    return &m->values[i];
}
