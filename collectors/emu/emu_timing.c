/* collectors/emu/emu_timing.c: see emu_timing.h. */
#include "collectors/emu/emu_timing.h"

#include <stdlib.h>
#include <string.h>

#include "util/grow.h"

void emu_lane_timing_reset(emu_lane_timing *l)
{
    l->base = l->pending_gap = l->uses_begin = l->logged = 0;
    l->use_count = 0;
}

void emu_lane_timing_free(emu_lane_timing *l)
{
    free(l->uses);
    free(l->ordinals);
    memset(l, 0, sizeof *l);
}

int emu_lane_timing_log(emu_lane_timing *l, uint32_t handle, emu_access_timing *out)
{
    if (ws_grow((void **)&l->ordinals, &l->ordinal_capacity, (size_t)handle + 1,
                sizeof *l->ordinals) != 0)
        return -1;
    l->ordinals[handle] = EMU_NO_LOAD; /* until it goes out as a load */
    l->logged = handle + 1;
    out->gap = l->pending_gap;
    out->uses_end = (uint32_t)l->use_count;
    l->pending_gap = 0;
    return 0;
}

int emu_lane_timing_use(emu_lane_timing *l, uint32_t handle)
{
    if (ws_grow((void **)&l->uses, &l->use_capacity, l->use_count + 1, sizeof *l->uses) != 0)
        return -1;
    l->uses[l->use_count++] = handle;
    return 0;
}

void emu_lane_timing_gap(emu_lane_timing *l, uint32_t instructions)
{
    l->pending_gap = instructions > UINT32_MAX - l->pending_gap ? UINT32_MAX
                                                                : l->pending_gap + instructions;
}

uint32_t emu_lane_timing_waits(const emu_lane_timing *l, uint32_t begin, uint32_t end,
                               uint32_t warp_loads)
{
    uint32_t bits = 0;
    for (uint32_t i = begin; i < end; i++) {
        uint32_t handle = l->uses[i];
        /* A handle not yet logged, or of a store, names no load. */
        if (handle >= l->logged || l->ordinals[handle] == EMU_NO_LOAD ||
            l->ordinals[handle] >= warp_loads)
            continue;
        uint32_t back = warp_loads - 1 - l->ordinals[handle];
        bits |= 1u << (back < 31 ? back : 31);
    }
    return bits;
}

void emu_lane_timing_next_log(emu_lane_timing *l, uint32_t logged, uint32_t last_uses_end)
{
    l->base += logged;
    /* Uses stated after the last access belong to the next one. */
    size_t pending = l->use_count - last_uses_end;
    if (pending) /* l->uses is NULL until a use is stated */
        memmove(l->uses, l->uses + last_uses_end, pending * sizeof *l->uses);
    l->use_count = pending;
    l->uses_begin = 0;
}
