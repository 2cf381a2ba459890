/* formats/wst_history.h: the version 2 chunk model's memory of the last
 * addressed record of each (warp, PC) (docs/trace-format.md, "History").
 *
 * A warp that runs a loop issues the same instruction again and again, and
 * each time most of its lanes' addresses move by the same amount: a thread
 * walking its own row of a CSR matrix, a thread following its own list.
 * Version 2 codes such a record against the previous one of its warp and PC
 * (modes SHIFTED and LANE_DELTAS).  Writer and reader keep the same table:
 * direct-mapped, so its memory is fixed, and emptied at each chunk, so
 * every chunk decodes alone. */
#ifndef WS_WST_HISTORY_H
#define WS_WST_HISTORY_H

#include <stdint.h>

#include "formats/lane_tile.h"
#include "formats/trace.h"

#define WST_HISTORY_SLOTS 1024

/* How a slot's record addressed its lanes. */
enum { WST_SLOT_LANES, WST_SLOT_AFFINE, WST_SLOT_TILED };

typedef struct wst_history_slot {
    uint16_t slot;       /* which of the table's slots this entry holds */
    uint16_t claimed;    /* it holds a record of this chunk (else only its place) */
    uint32_t warp, pc, mask;
    uint64_t base;       /* address of the lowest active lane */
    uint64_t stride;     /* AFFINE: lane l at base + stride × (l − lowest) */
    unsigned shape;      /* WST_SLOT_* */
    lane_tile tile;      /* TILED: lane l at lane_tile_address(tile, base, lowest, l) */
    uint64_t lanes[WST_WARP_SIZE]; /* LANES: each active lane's address */
} wst_history_slot;

/* The table of WST_HISTORY_SLOTS slots, stored densely: the slots a chunk
 * uses take entries[0, used) in the order the chunk first looked them up,
 * and where[s] is slot s's entry when that entry is below `used` and names
 * s (otherwise the slot is empty this chunk).  A chunk that uses k slots
 * touches k entries of 320 bytes, where slots spread by the hash over the
 * whole table touched up to one page each: on 2dconv fermi 31 of the
 * table's 81 pages, each a page fault (bench/RESULTS.md, "Branch mem43").
 * Zeroed at its allocation (where[] is read before it is written). */
typedef struct wst_history {
    uint32_t used;
    uint16_t where[WST_HISTORY_SLOTS];
    wst_history_slot entries[WST_HISTORY_SLOTS];
} wst_history;

/* Empties the table for the next chunk. */
static inline void wst_history_begin_chunk(wst_history *h) { h->used = 0; }

/* The slot of (warp, PC): ((warp × 0x9E3779B1) XOR (pc × 0x85EBCA77))
 * modulo 2^32, top 10 bits; an empty slot gets the next free entry, not
 * yet claimed. */
static inline wst_history_slot *wst_history_slot_of(wst_history *h, uint32_t warp, uint32_t pc)
{
    unsigned slot = ((warp * 0x9E3779B1u) ^ (pc * 0x85EBCA77u)) >> 22;
    unsigned at = h->where[slot];
    wst_history_slot *s = &h->entries[at];
    if (at < h->used && s->slot == slot)
        return s;
    h->where[slot] = (uint16_t)h->used;
    s = &h->entries[h->used++];
    s->slot = (uint16_t)slot;
    s->claimed = 0;
    return s;
}

/* Does the slot hold this chunk's last addressed record of (warp, pc)? */
static inline int wst_history_hit(const wst_history *h, const wst_history_slot *s, uint32_t warp,
                                  uint32_t pc)
{
    return s->claimed && s->warp == warp && s->pc == pc;
}

/* A record's predicted base (docs/trace-format.md, "History"): the lowest
 * active lane of its slot's record when that is this chunk's record of the
 * same warp and PC, else the chunk's previous base. */
static inline uint64_t wst_history_predict(const wst_history *h, const wst_history_slot *s,
                                           uint32_t warp, uint32_t pc, uint64_t previous_base)
{
    return wst_history_hit(h, s, warp, pc) ? s->base : previous_base;
}

/* The address the slot's record gave lane `lane` (an active lane of it). */
static inline uint64_t wst_history_lane(const wst_history_slot *s, unsigned lane)
{
    unsigned first = (unsigned)__builtin_ctz(s->mask);
    if (s->shape == WST_SLOT_AFFINE)
        return s->base + s->stride * (lane - first);
    if (s->shape == WST_SLOT_TILED)
        return lane_tile_address(&s->tile, s->base, first, lane);
    return s->lanes[lane];
}

static inline void wst_history_claim(const wst_history *h, wst_history_slot *s, uint32_t warp,
                                     uint32_t pc, uint32_t mask)
{
    s->claimed = 1;
    s->warp = warp;
    s->pc = pc;
    s->mask = mask;
}

#endif
