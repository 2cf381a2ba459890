/* analyzer/falru.c: see falru.h.
 *
 * The lines held are found through a chained hash table threaded through
 * the nodes themselves: a bucket holds the first node of its chain, a node
 * the next.  With twice as many buckets as lines, chains average under one
 * node, nothing ever moves (no probe clusters on streams of consecutive
 * lines, no re-hashing on eviction), and a hit touches the bucket and the
 * node it must relink anyway. */
#include "analyzer/falru.h"

#include <stdlib.h>
#include <string.h>

#include "util/zeroed.h"

static size_t bucket_count(const falru *f) { return (size_t)1 << (64 - f->bucket_shift); }

falru *falru_new(uint32_t lines, ws_error *err)
{
    falru *f = calloc(1, sizeof *f);
    unsigned bits = 1;
    while (lines && ((size_t)1 << bits) < 2 * (size_t)lines)
        bits++;
    /* One block from the shared slabs rather than two from the heap: an
     * L1 of every SM has one, up to 160 on Volta, and the heap's pages
     * each cost a fault (bench/RESULTS.md, "Branch kern41"). */
    size_t at = 0, nodes = ws_zeroed_carve(&at, (size_t)lines * sizeof *f->nodes),
           buckets = ws_zeroed_carve(&at, ((size_t)1 << bits) * sizeof *f->buckets);
    if (!f || !lines || !(f->block = ws_zeroed_new(at))) {
        free(f);
        ws_fail(err, "out of memory");
        return NULL;
    }
    f->block_bytes = at;
    f->nodes = (falru_node *)((char *)f->block + nodes);
    f->buckets = (uint32_t *)((char *)f->block + buckets);
    f->capacity = lines;
    f->bucket_shift = 64 - bits;
    falru_flush(f);
    return f;
}

void falru_free(falru *f)
{
    if (!f)
        return;
    ws_zeroed_free(f->block, f->block_bytes);
    free(f);
}

void falru_flush(falru *f)
{
    f->used = 0;
    f->mru = f->lru = FALRU_NONE;
    memset(f->buckets, 0xff, bucket_count(f) * sizeof *f->buckets); /* FALRU_NONE */
}

static void unlink_node(falru *f, uint32_t i)
{
    falru_node *n = &f->nodes[i];
    if (n->prev != FALRU_NONE)
        f->nodes[n->prev].next = n->next;
    else
        f->mru = n->next;
    if (n->next != FALRU_NONE)
        f->nodes[n->next].prev = n->prev;
    else
        f->lru = n->prev;
}

static void push_mru(falru *f, uint32_t i)
{
    falru_node *n = &f->nodes[i];
    n->prev = FALRU_NONE;
    n->next = f->mru;
    if (f->mru != FALRU_NONE)
        f->nodes[f->mru].prev = i;
    f->mru = i;
    if (f->lru == FALRU_NONE)
        f->lru = i;
}

/* The link that points at node i in its bucket's chain. */
static uint32_t *link_to(falru *f, uint32_t i)
{
    uint32_t *link = &f->buckets[falru_bucket_of(f, f->nodes[i].line)];
    while (*link != i)
        link = &f->nodes[*link].chain;
    return link;
}

/* falru_access's miss: the line takes a free node, or the LRU one's. */
int falru_miss(falru *f, uint32_t *bucket, uint64_t line)
{
    uint32_t i;
    if (f->used < f->capacity) {
        i = f->used++;
    } else {
        i = f->lru;
        unlink_node(f, i);
        *link_to(f, i) = f->nodes[i].chain;
    }
    f->nodes[i].line = line;
    f->nodes[i].chain = *bucket;
    *bucket = i;
    push_mru(f, i);
    return 0;
}

void falru_invalidate(falru *f, uint64_t line)
{
    uint32_t *link = &f->buckets[falru_bucket_of(f, line)];
    while (*link != FALRU_NONE && f->nodes[*link].line != line)
        link = &f->nodes[*link].chain;
    uint32_t i = *link;
    if (i == FALRU_NONE)
        return;
    *link = f->nodes[i].chain;
    unlink_node(f, i);
    /* Move the last used node into the hole so nodes stay packed. */
    uint32_t last = --f->used;
    if (i != last) {
        *link_to(f, last) = i;
        f->nodes[i] = f->nodes[last];
        falru_node *n = &f->nodes[i];
        if (n->prev != FALRU_NONE)
            f->nodes[n->prev].next = i;
        else
            f->mru = i;
        if (n->next != FALRU_NONE)
            f->nodes[n->next].prev = i;
        else
            f->lru = i;
    }
}
