/* collectors/accelsim/accelsim_deps.c: see accelsim_deps.h. */
#include "collectors/accelsim/accelsim_deps.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

accelsim_warp_deps *accelsim_deps_of(accelsim_deps *d, uint32_t cta, uint32_t warp)
{
    if (!d->index.slots && u64map_init(&d->index, 16) != 0)
        return NULL;
    uint64_t key = (uint64_t)cta << 32 | warp;
    uint32_t *at = u64map_find(&d->index, key);
    if (at)
        return &d->states[*at];
    uint32_t slot;
    if (d->free_count) {
        slot = d->free_slots[--d->free_count];
    } else {
        size_t capacity = d->capacity, free_capacity = d->capacity;
        if (ws_grow((void **)&d->states, &capacity, (size_t)d->count + 1, sizeof *d->states) ||
            ws_grow((void **)&d->free_slots, &free_capacity, capacity, sizeof *d->free_slots))
            return NULL;
        d->capacity = (uint32_t)capacity;
        slot = d->count++;
    }
    int inserted;
    if (!u64map_upsert(&d->index, key, slot, &inserted))
        return NULL;
    memset(&d->states[slot], 0, sizeof d->states[slot]);
    return &d->states[slot];
}

void accelsim_deps_release(accelsim_deps *d, uint32_t cta, uint32_t warp)
{
    uint64_t key = (uint64_t)cta << 32 | warp;
    uint32_t *at = d->index.slots ? u64map_find(&d->index, key) : NULL;
    if (!at)
        return;
    d->free_slots[d->free_count++] = *at; /* room: free_slots grows with states */
    u64map_remove(&d->index, key);
}

void accelsim_deps_free(accelsim_deps *d)
{
    u64map_destroy(&d->index);
    free(d->states);
    free(d->free_slots);
    memset(d, 0, sizeof *d);
}

/* The loads whose registers inst reads, as waits bits: bit i = the
 * (i+1)-th most recent load, bit 31 that or any older one. */
static uint32_t reads(const accelsim_warp_deps *w, const accelsim_inst *inst)
{
    uint32_t bits = 0;
    for (unsigned i = 0; i < inst->src_count; i++) {
        int16_t r = inst->srcs[i];
        if (r < 0 || !w->writer[r])
            continue;
        uint32_t back = w->loads - w->writer[r];
        bits |= 1u << (back < 31 ? back : 31);
    }
    return bits;
}

void accelsim_deps_other(accelsim_warp_deps *w, const accelsim_inst *inst)
{
    w->pending |= reads(w, inst);
    for (unsigned i = 0; i < inst->dest_count; i++) /* what it writes holds no load's data */
        if (inst->dests[i] >= 0)
            w->writer[inst->dests[i]] = 0;
    if (w->gap < UINT32_MAX)
        w->gap++;
}

void accelsim_deps_record(accelsim_warp_deps *w, const accelsim_inst *inst, wst_record *rec)
{
    rec->gap = w->gap;
    rec->has_waits = 1;
    rec->waits = w->pending | reads(w, inst);
    w->gap = w->pending = 0;
    int returns_data = rec->kind == WST_LOAD || rec->kind == WST_ATOMIC;
    if (returns_data)
        w->loads++;
    unsigned span = returns_data && rec->size > 4 ? rec->size / 4u : 1;
    for (unsigned i = 0; i < inst->dest_count; i++) {
        int16_t r = inst->dests[i];
        for (unsigned k = 0; r >= 0 && k < span && r + k < ACCELSIM_REGISTERS; k++)
            w->writer[r + k] = returns_data ? w->loads : 0;
    }
}
