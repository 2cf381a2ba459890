/* analyzer/falru.h: a fully-associative LRU cache in O(1) per access.
 *
 * The reference for the 3C split (docs/metrics.md §8): a non-cold miss is a capacity
 * miss if a fully-associative LRU cache of the same size would also miss.
 * A hash map from line to node plus a doubly linked recency list, so large
 * L1s (1536 lines) cost the same as small ones. */
#ifndef WS_FALRU_H
#define WS_FALRU_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

typedef struct falru falru;

falru *falru_new(uint32_t lines, ws_error *err);
void falru_free(falru *f);
void falru_flush(falru *f);
void falru_invalidate(falru *f, uint64_t line);
/* falru_access's miss (out of line): `bucket` is the line's. */
int falru_miss(falru *f, uint32_t *bucket, uint64_t line);

/* The state, here so that falru_access's hit path is inline: the
 * collectors look the reference up on every L1 lookup (bench/RESULTS.md,
 * "Branch hier42").  The lines held are
 * found through a chained hash table threaded through the nodes
 * themselves (analyzer/falru.c). */
#define FALRU_NONE UINT32_MAX

typedef struct falru_node {
    uint64_t line;
    uint32_t prev, next; /* towards MRU / towards LRU */
    uint32_t chain;      /* next node of the same bucket */
} falru_node;

struct falru {
    uint32_t capacity, used;
    uint32_t mru, lru;
    uint32_t bucket_shift; /* 64 - log2(bucket count) */
    falru_node *nodes;
    uint32_t *buckets; /* first node of each chain, FALRU_NONE if empty */
    void *block;       /* nodes and buckets, one zeroed block (util/zeroed.h) */
    size_t block_bytes;
};

/* Fibonacci hashing: the top bits of line × 2^64/φ spread runs of
 * consecutive lines over the whole table. */
static inline uint32_t falru_bucket_of(const falru *f, uint64_t line)
{
    return (uint32_t)((line * UINT64_C(0x9E3779B97F4A7C15)) >> f->bucket_shift);
}

/* A hit on node i, not the MRU one, moves it to MRU: as unlink_node then
 * push_mru, without their tests for an end of the list that cannot be
 * (i has a node before it; the list keeps another node, its MRU and LRU). */
static inline void falru_promote(falru *f, uint32_t i)
{
    falru_node *n = &f->nodes[i];
    f->nodes[n->prev].next = n->next;
    if (n->next != FALRU_NONE)
        f->nodes[n->next].prev = n->prev;
    else
        f->lru = n->prev;
    n->prev = FALRU_NONE;
    n->next = f->mru;
    f->nodes[f->mru].prev = i;
    f->mru = i;
}

/* 1 = hit, 0 = miss (allocated).  Never fails today (falru_new allocates
 * every table); -1 with err set is kept for callers as out of memory. */
static inline int falru_access(falru *f, uint64_t line, ws_error *err)
{
    (void)err; /* every table is allocated up front */
    uint32_t *bucket = &f->buckets[falru_bucket_of(f, line)];
    for (uint32_t i = *bucket; i != FALRU_NONE; i = f->nodes[i].chain) {
        if (f->nodes[i].line == line) {
            if (i != f->mru)
                falru_promote(f, i);
            return 1;
        }
    }
    return falru_miss(f, bucket, line);
}

#endif
