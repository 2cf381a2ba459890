/* analyzer/falru.c: see falru.h. */
#include "analyzer/falru.h"

#include <stdlib.h>

#include "util/u64map.h"

#define NONE UINT32_MAX

typedef struct node {
    uint64_t line;
    uint32_t prev, next; /* towards MRU / towards LRU */
} node;

struct falru {
    uint32_t capacity, used;
    uint32_t mru, lru;
    node *nodes;
    u64map where; /* line -> node, for the lines held: as small as the cache */
};

falru *falru_new(uint32_t lines, ws_error *err)
{
    falru *f = calloc(1, sizeof *f);
    if (!f || !lines || !(f->nodes = calloc(lines, sizeof *f->nodes)) ||
        u64map_init(&f->where, 2 * (size_t)lines) != 0) {
        falru_free(f);
        ws_fail(err, "out of memory");
        return NULL;
    }
    f->capacity = lines;
    falru_flush(f);
    return f;
}

void falru_free(falru *f)
{
    if (!f)
        return;
    free(f->nodes);
    u64map_destroy(&f->where);
    free(f);
}

void falru_flush(falru *f)
{
    f->used = 0;
    f->mru = f->lru = NONE;
    u64map_clear(&f->where);
}

static void unlink_node(falru *f, uint32_t i)
{
    node *n = &f->nodes[i];
    if (n->prev != NONE)
        f->nodes[n->prev].next = n->next;
    else
        f->mru = n->next;
    if (n->next != NONE)
        f->nodes[n->next].prev = n->prev;
    else
        f->lru = n->prev;
}

static void push_mru(falru *f, uint32_t i)
{
    node *n = &f->nodes[i];
    n->prev = NONE;
    n->next = f->mru;
    if (f->mru != NONE)
        f->nodes[f->mru].prev = i;
    f->mru = i;
    if (f->lru == NONE)
        f->lru = i;
}

int falru_access(falru *f, uint64_t line, ws_error *err)
{
    const uint32_t *held = u64map_find(&f->where, line);
    if (held) {
        unlink_node(f, *held);
        push_mru(f, *held);
        return 1;
    }
    uint32_t i;
    if (f->used < f->capacity) {
        i = f->used++;
    } else {
        i = f->lru;
        unlink_node(f, i);
        u64map_remove(&f->where, f->nodes[i].line);
    }
    int inserted;
    uint32_t *slot = u64map_upsert(&f->where, line, i, &inserted);
    if (!slot)
        return ws_fail(err, "out of memory");
    f->nodes[i].line = line;
    push_mru(f, i);
    return 0;
}

void falru_invalidate(falru *f, uint64_t line)
{
    const uint32_t *slot = u64map_find(&f->where, line);
    if (!slot)
        return;
    uint32_t i = *slot;
    u64map_remove(&f->where, line);
    unlink_node(f, i);
    /* Move the last used node into the hole so nodes stay packed. */
    uint32_t last = --f->used;
    if (i != last) {
        f->nodes[i] = f->nodes[last];
        node *n = &f->nodes[i];
        if (n->prev != NONE)
            f->nodes[n->prev].next = i;
        else
            f->mru = i;
        if (n->next != NONE)
            f->nodes[n->next].prev = i;
        else
            f->lru = i;
        *u64map_find(&f->where, n->line) = i;
    }
}
