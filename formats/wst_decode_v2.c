/* formats/wst_decode_v2.c: decoding a chunk of version 2, 3 or 4
 * (docs/trace-format.md, "Address modes" and "History"), into whole records
 * or straight into the scheduler's packed form.
 *
 * The packed path exists for speed: most records are strides (coalesced,
 * strided and broadcast accesses) or tiles of 2D thread blocks, and a
 * packed record keeps either in its 32 bytes, so writing out 32 lane
 * addresses only for the packer to find the shape again would be most of
 * the decoder's work (bench/RESULTS.md, "Decoding against the zstd
 * floor"). */
#include <stdlib.h>
#include <string.h>

#include "formats/packed_record.h"
#include "formats/wst_codec.h"
#include "formats/wst_columns.h"
#include "formats/wst_history.h"

int wst_decoder_start_v2(wst_decoder *d, const wst_frame_layout *f, uint32_t index,
                         uint32_t count, uint32_t cta, uint32_t pc_count, uint32_t warps_per_cta,
                         unsigned version, struct wst_history *history, ws_error *err)
{
    memset(d, 0, sizeof *d);
    d->version = version;
    if (index >= f->chunks)
        return ws_fail(err, "no chunk %u in the frame", index);
    if (f->timed && version < 4)
        return ws_fail(err, "timing columns in a frame of version %u", version);
    wst_column *col = (wst_column *)d->columns;
    for (int c = 0; c < WST_COLUMNS; c++) {
        col[c].p = f->raw + f->column_begin[index * WST_COLUMNS + c];
        col[c].end = col[c].p + f->column_bytes[index * WST_COLUMNS + c];
    }
    wst_history_begin_chunk(history);
    d->history = history;
    d->remaining = count;
    d->cta = cta;
    d->pc_count = pc_count;
    d->warps_per_cta = warps_per_cta;
    return 0;
}

/* Lanes coded against the slot's record of shape `shape` (a constant in
 * each copy, so no lane asks it again): each active lane's predecessor
 * moved by `shift`, plus a residual per lane after the lowest in
 * LANE_DELTAS mode.  Each lane goes to the slot's lanes as well, where the
 * record is kept next (wst_history.h): a LANES slot reads lane l before
 * it writes it, and the other shapes never read their lanes. */
static inline __attribute__((always_inline)) int
lanes_from_history(wst_column *lanes, wst_history_slot *s, wst_record *r, unsigned mode,
                   uint64_t shift, unsigned shape)
{
    uint64_t step = 0;
    unsigned first = (unsigned)__builtin_ctz(r->mask), slot_first = (unsigned)__builtin_ctz(s->mask);
    for (uint32_t bits = r->mask; bits; bits &= bits - 1) {
        unsigned lane = (unsigned)__builtin_ctz(bits);
        if (mode == WST_MODE_LANE_DELTAS && lane != first && wst_get_varint(lanes, &step))
            return -1;
        uint64_t before = shape == WST_SLOT_AFFINE ? s->base + s->stride * (lane - slot_first)
                          : shape == WST_SLOT_TILED
                              ? lane_tile_address(&s->tile, s->base, slot_first, lane)
                              : s->lanes[lane];
        s->lanes[lane] = r->addr[lane] = before + shift + wst_unzigzag(step);
    }
    return 0;
}

static int decode_from_history(wst_column *lanes, wst_history_slot *s, wst_record *r,
                               unsigned mode, uint64_t shift)
{
    if (s->shape == WST_SLOT_AFFINE)
        return lanes_from_history(lanes, s, r, mode, shift, WST_SLOT_AFFINE);
    if (s->shape == WST_SLOT_TILED)
        return lanes_from_history(lanes, s, r, mode, shift, WST_SLOT_TILED);
    return lanes_from_history(lanes, s, r, mode, shift, WST_SLOT_LANES);
}

/* A stride record's lowest active lane and per-lane stride: the base
 * column codes the lane against the slot's record of the same warp and PC
 * (or the chunk's previous record); the stride follows in the lanes column
 * when two or more lanes are active.  NULL, or what is wrong. */
static inline __attribute__((always_inline)) const char *
read_stride(wst_column *col, uint32_t mask, uint64_t predicted, uint64_t *base, uint64_t *stride)
{
    uint64_t value, step = 0;
    if (wst_get_varint(&col[WST_COL_BASE], &value))
        return "address column ends early";
    if ((mask & (mask - 1)) && wst_get_varint(&col[WST_COL_LANES], &step))
        return "stride missing";
    *base = predicted + wst_unzigzag(value);
    *stride = wst_unzigzag(step);
    return NULL;
}

/* A stride record of (warp, pc): reads it against the history and leaves
 * it there as the slot's record, for both decoding paths.  NULL, or what
 * is wrong. */
static inline __attribute__((always_inline)) const char *
decode_stride(const wst_decoder *d, wst_column *col, uint32_t warp, uint32_t pc, uint32_t mask,
              uint64_t *previous_base, uint64_t *base, uint64_t *stride)
{
    wst_history *h = d->history;
    wst_history_slot *s = wst_history_slot_of(h, warp, pc);
    uint64_t predicted = wst_history_predict(h, s, warp, pc, *previous_base);
    const char *wrong = read_stride(col, mask, predicted, base, stride);
    if (wrong)
        return wrong;
    s->shape = WST_SLOT_AFFINE;
    s->base = *base;
    s->stride = *stride;
    wst_history_claim(h, s, warp, pc, mask);
    *previous_base = *base;
    return NULL;
}

/* A tile record (mode TILED, version 3) of (warp, pc): its lowest active
 * lane's address, coded as a stride's, then the tile's width, step and row
 * step in the lanes column; left in the history as the slot's record.
 * NULL, or what is wrong. */
static inline __attribute__((always_inline)) const char *
decode_tile(const wst_decoder *d, wst_column *col, uint32_t warp, uint32_t pc, uint32_t mask,
            uint64_t *previous_base, uint64_t *first, lane_tile *t)
{
    if (d->version < 3)
        return "address mode 5 in a file of version 2";
    wst_history *h = d->history;
    wst_history_slot *s = wst_history_slot_of(h, warp, pc);
    uint64_t predicted = wst_history_predict(h, s, warp, pc, *previous_base);
    uint64_t value, log2_width, step, row_step;
    if (wst_get_varint(&col[WST_COL_BASE], &value))
        return "address column ends early";
    if (wst_get_varint(&col[WST_COL_LANES], &log2_width) ||
        wst_get_varint(&col[WST_COL_LANES], &step) ||
        wst_get_varint(&col[WST_COL_LANES], &row_step))
        return "tile missing";
    if (log2_width < LANE_TILE_MIN_LOG2 || log2_width > LANE_TILE_MAX_LOG2)
        return "tile width out of range";
    *first = predicted + wst_unzigzag(value);
    *t = (lane_tile){.log2_width = (unsigned)log2_width, .step = wst_unzigzag(step),
                     .row_step = wst_unzigzag(row_step)};
    s->shape = WST_SLOT_TILED;
    s->base = *first;
    s->tile = *t;
    wst_history_claim(h, s, warp, pc, mask);
    *previous_base = *first;
    return NULL;
}

/* Versions 2 to 4 code a record against the history
 * (formats/wst_history.h) and leave it there for the next record of its
 * warp and PC. */
static const char *v2_addresses(wst_decoder *d, wst_column *col, wst_record *r, unsigned mode,
                                uint64_t *previous_base)
{
    wst_history *history = d->history;
    if (mode == WST_MODE_STRIDE) {
        uint64_t base, stride;
        const char *wrong =
            decode_stride(d, col, r->warp, r->pc, r->mask, previous_base, &base, &stride);
        if (!wrong)
            wst_fill_stride(r, base, stride);
        return wrong;
    }
    if (mode == WST_MODE_TILED) {
        uint64_t first;
        lane_tile tile;
        const char *wrong =
            decode_tile(d, col, r->warp, r->pc, r->mask, previous_base, &first, &tile);
        if (!wrong)
            wst_fill_tile(r, &tile, first);
        return wrong;
    }
    wst_history_slot *s = wst_history_slot_of(history, r->warp, r->pc);
    int hit = wst_history_hit(history, s, r->warp, r->pc);
    uint64_t predicted = hit ? s->base : *previous_base;
    uint64_t value;
    if (wst_get_varint(&col[WST_COL_BASE], &value))
        return "address column ends early";
    if (mode == WST_MODE_DELTAS) {
        if (wst_fill_deltas(&col[WST_COL_LANES], r, predicted + wst_unzigzag(value)) != 0)
            return "lane deltas end early";
        for (uint32_t bits = r->mask; bits; bits &= bits - 1) {
            unsigned lane = (unsigned)__builtin_ctz(bits);
            s->lanes[lane] = r->addr[lane];
        }
    } else {
        if (!hit || (r->mask & ~s->mask))
            return "coded against lanes no earlier record of its warp and PC addressed";
        if (decode_from_history(&col[WST_COL_LANES], s, r, mode, wst_unzigzag(value)) != 0)
            return "lane deltas end early";
    }
    /* The slot now holds this record, lane by lane (its lanes written
     * above). */
    unsigned first = (unsigned)__builtin_ctz(r->mask);
    s->shape = WST_SLOT_LANES;
    s->base = r->addr[first];
    s->stride = 0;
    wst_history_claim(history, s, r->warp, r->pc, r->mask);
    *previous_base = r->addr[first];
    return NULL;
}

int64_t wst_decoder_next_v2(wst_decoder *d, wst_record *out, uint32_t max, ws_error *err)
{
    /* Versions 2 to 4 share the record's head: read as 3's (a constant, so
     * the head's checks fold), mode 5 refused in version 2 by decode_tile,
     * timing before version 4 by wst_read_timing. */
    return wst_decode_records(d, out, max, 3, v2_addresses, err);
}

/* Would packed_cta_append find exactly (stride) as this record's step?  It
 * takes the step from the two lowest active lanes f < g as the signed
 * quotient of their difference by g − f, which is the stride unless
 * stride × (g − f) overflows.  A single active lane gives step 0, and so
 * does the stride column (absent). */
static inline int stride_packs_as_is(uint32_t mask, uint64_t stride)
{
    uint32_t rest = mask & (mask - 1);
    if (!rest)
        return 1;
    int64_t apart = __builtin_ctz(rest) - __builtin_ctz(mask), product;
    return !__builtin_mul_overflow((int64_t)stride, apart, &product);
}

/* Would packed_cta_push find exactly tile t (lane f at `first`), and
 * keep it packed?  Its search tries the narrower widths first, then the
 * affine shape; with W = t's width:
 * - affine fails when the rows do not continue each other (row step ≠ W ×
 *   step) and a later row has an active lane;
 * - a narrower width W' takes the step of f's row and, from a lane of a
 *   later row of its own width still inside f's row of width W, a row
 *   step of W' × step: a stride, which the later row refutes.  Such a lane
 *   exists for every W' when one lies past f's row of width W / 2;
 * - width W then finds t again: steps that fit 32 bits, divided by lane
 *   gaps under 32, come back exact.
 * Other records are written out and packed the general way (a tile whose
 * lowest lane lies in the second half of its row). */
static inline int tile_packs_as_is(uint32_t mask, const lane_tile *t, uint64_t first,
                                   uint64_t *base, uint64_t *stride)
{
    unsigned f = (unsigned)__builtin_ctz(mask), width = 1u << t->log2_width;
    unsigned half_row_end = (f / (width / 2) + 1) * (width / 2);
    unsigned row_end = (f / width + 1) * width;
    uint64_t lanes = mask;
    int inside = ((lanes >> half_row_end) & ((1ull << (row_end - half_row_end)) - 1)) != 0;
    int later = (lanes >> row_end) != 0;
    return inside && later && t->row_step != (t->step << t->log2_width) &&
           packed_tile_fits(t, first, f, base, stride);
}

/* Records decoded into the packed form at a time: the grouping's limit
 * check (packed_cta_limit) runs between calls, so a forged chunk of
 * millions of records is refused before it is all in memory. */
#define PACKED_BATCH 65536u

int64_t wst_decoder_next_packed(wst_decoder *d, packed_cta *out, uint32_t max, ws_error *err)
{
    if (max > PACKED_BATCH)
        max = PACKED_BATCH;
    if (!d->history) { /* version 1: whole records, then packed */
        wst_record batch[64];
        int64_t n = wst_decoder_next_v1(d, batch, max < 64 ? max : 64, err);
        return n > 0 && packed_cta_append(out, batch, (size_t)n, err) != 0 ? -1 : n;
    }
    wst_column *col = (wst_column *)d->columns;
    uint32_t n = d->remaining < max ? d->remaining : max;
    if (packed_cta_reserve(out, n, err) != 0)
        return -1;
    uint64_t previous_base = d->previous_base, previous_time = d->previous_time;
    wst_head head = {0}; /* in registers */
    wst_record whole; /* a record with lanes to write out */
    for (uint32_t i = 0; i < n; i++, d->decoded++) {
        unsigned mode = WST_MODE_NONE;
        if (wst_read_head(col, d, d->decoded, 3, &head, &mode, &previous_time, err) != 0)
            return -1;
        if (mode == WST_MODE_NONE) { /* no lanes: packed_cta_append's (0, 0) */
            if (packed_cta_push_affine(out, &head, 0, 0, err) != 0)
                return -1;
            continue;
        }
        const char *wrong = NULL;
        if (mode == WST_MODE_STRIDE) {
            uint64_t base, stride;
            if ((wrong = decode_stride(d, col, head.warp, head.pc, head.mask, &previous_base, &base,
                                       &stride)) == NULL) {
                if (stride_packs_as_is(head.mask, stride)) {
                    uint64_t lane0 = base - stride * (uint64_t)__builtin_ctz(head.mask);
                    if (packed_cta_push_affine(out, &head, lane0, stride, err) != 0)
                        return -1;
                    continue;
                }
                wst_head_apply(&head, d->cta, &whole);
                wst_fill_stride(&whole, base, stride);
            }
        } else if (mode == WST_MODE_TILED) {
            uint64_t first, base, stride;
            lane_tile tile;
            if ((wrong = decode_tile(d, col, head.warp, head.pc, head.mask, &previous_base, &first,
                                     &tile)) == NULL) {
                if (tile_packs_as_is(head.mask, &tile, first, &base, &stride)) {
                    if (packed_cta_push_tiled(out, &head, &tile, base, stride, err) != 0)
                        return -1;
                    continue;
                }
                wst_head_apply(&head, d->cta, &whole);
                wst_fill_tile(&whole, &tile, first);
            }
        } else {
            wst_head_apply(&head, d->cta, &whole);
            wrong = v2_addresses(d, col, &whole, mode, &previous_base);
        }
        if (wrong)
            return ws_fail(err, "record %u: %s", d->decoded, wrong);
        if (packed_cta_push(out, &head, whole.addr, err) != 0)
            return -1;
    }
    return wst_decode_finish(d, n, previous_base, previous_time, err);
}
