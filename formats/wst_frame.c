/* formats/wst_frame.c: frames of versions 2 to 4 (docs/trace-format.md, "Frames"):
 * chunks encoded with the history model (formats/wst_history.h), laid out
 * column-major across the frame so that zstd sees each column of many
 * chunks together; parsed back into each chunk's columns here, decoded in
 * formats/wst_decode_v2.c.  A frame lists the two timing columns of
 * version 4 only when one of its records carries timing, so a trace
 * without any is laid out as version 3 laid it out. */
#include <stdlib.h>
#include <string.h>

#include "formats/lane_tile.h"
#include "formats/wst_codec.h"
#include "formats/wst_columns.h"
#include "formats/wst_history.h"
#include "formats/wst_layout.h"

#define FRAME_HEAD_BYTES 4
#define CHUNK_HEAD_BYTES (4 + 4 * WST_COLUMNS)
/* The frame head's bit 31: the chunk heads list the timing columns. */
#define FRAME_TIMED (1u << 31)

/* Bytes of a chunk's head in a frame with or without timing columns. */
static size_t chunk_head_bytes(int timed)
{
    return 4 + 4 * (size_t)(timed ? WST_COLUMNS : WST_PLAIN_COLUMNS);
}

struct wst_frame_builder {
    wst_bytes col[WST_COLUMNS]; /* this frame's columns, chunk after chunk */
    wst_bytes heads;            /* per chunk: records, then its bytes in every column */
    uint32_t chunks;
    int timed;                  /* a record of the frame carries timing */
    wst_history history;
};

wst_frame_builder *wst_frame_builder_new(void) { return calloc(1, sizeof(wst_frame_builder)); }

void wst_frame_builder_free(wst_frame_builder *f)
{
    if (!f)
        return;
    for (int c = 0; c < WST_COLUMNS; c++)
        wst_bytes_free(&f->col[c]);
    wst_bytes_free(&f->heads);
    free(f);
}

uint32_t wst_frame_chunk_count(const wst_frame_builder *f) { return f->chunks; }

size_t wst_frame_raw_bytes(const wst_frame_builder *f)
{
    size_t n = FRAME_HEAD_BYTES + f->chunks * chunk_head_bytes(f->timed);
    for (int c = 0; c < WST_COLUMNS; c++)
        n += f->col[c].len;
    return n;
}

/* ---- encoding ---- */

/* Active lanes form base + stride × (lane - first lane)? */
static int lanes_regular(const uint64_t *addr, uint32_t mask, unsigned first, uint64_t *stride)
{
    uint32_t rest = mask & (mask - 1);
    if (!rest) {
        *stride = 0;
        return 1;
    }
    unsigned second = (unsigned)__builtin_ctz(rest);
    uint64_t diff = addr[1] - addr[0];
    unsigned gap = second - first;
    /* The stride must be a whole number of bytes per lane. */
    if ((int64_t)diff % (int64_t)gap != 0)
        return 0;
    uint64_t s = (uint64_t)((int64_t)diff / (int64_t)gap);
    unsigned i = 0;
    for (uint32_t bits = mask; bits; bits &= bits - 1, i++)
        if (addr[i] != addr[0] + s * ((unsigned)__builtin_ctz(bits) - first))
            return 0;
    *stride = s;
    return 1;
}

/* Active lanes (addr[] holds them in lane order) on the tile of a 2D
 * thread block (formats/lane_tile.h)? */
static int lanes_tiled(const uint64_t *addr, uint32_t mask, lane_tile *tile)
{
    uint64_t by_lane[WST_WARP_SIZE];
    unsigned i = 0;
    for (uint32_t bits = mask; bits; bits &= bits - 1, i++)
        by_lane[__builtin_ctz(bits)] = addr[i];
    return lane_tile_find(by_lane, mask, tile);
}

/* A record that is not affine: code it against the slot's record (SHIFTED
 * or LANE_DELTAS) when every active lane has a predecessor there and that
 * takes fewer bytes than deltas between neighbouring lanes.  *shift is the
 * lowest lane's move. */
static unsigned choose_irregular(const wst_history_slot *s, int hit, const uint64_t *addr,
                                 uint32_t mask, uint64_t predicted, uint64_t *shift)
{
    if (!hit || (mask & ~s->mask))
        return WST_MODE_DELTAS;
    unsigned first = (unsigned)__builtin_ctz(mask);
    uint64_t d = addr[0] - wst_history_lane(s, first);
    unsigned history_bytes = wst_varint_bytes(wst_zigzag(d)), i = 1;
    unsigned neighbour_bytes = wst_varint_bytes(wst_zigzag(addr[0] - predicted));
    int all_shifted = 1;
    for (uint32_t bits = mask & (mask - 1); bits; bits &= bits - 1, i++) {
        uint64_t residual = addr[i] - wst_history_lane(s, (unsigned)__builtin_ctz(bits)) - d;
        all_shifted &= residual == 0;
        history_bytes += wst_varint_bytes(wst_zigzag(residual));
        neighbour_bytes += wst_varint_bytes(wst_zigzag(addr[i] - addr[i - 1]));
    }
    *shift = d;
    if (all_shifted)
        return WST_MODE_SHIFTED;
    return history_bytes < neighbour_bytes ? WST_MODE_LANE_DELTAS : WST_MODE_DELTAS;
}

static void encode_addresses(wst_frame_builder *f, wst_history_slot *s, const wst_packed_head *h,
                             const uint64_t *addr, unsigned mode, uint64_t predicted,
                             uint64_t stride, const lane_tile *tile, uint64_t shift,
                             uint64_t *previous_base)
{
    wst_bytes *base = &f->col[WST_COL_BASE], *lanes = &f->col[WST_COL_LANES];
    unsigned count = (unsigned)__builtin_popcount(h->mask);
    if (mode == WST_MODE_STRIDE || mode == WST_MODE_DELTAS || mode == WST_MODE_TILED)
        wst_put_varint(base, wst_zigzag(addr[0] - predicted));
    else
        wst_put_varint(base, wst_zigzag(shift));
    if (mode == WST_MODE_STRIDE && count > 1)
        wst_put_varint(lanes, wst_zigzag(stride));
    if (mode == WST_MODE_TILED) {
        wst_put_varint(lanes, tile->log2_width);
        wst_put_varint(lanes, wst_zigzag(tile->step));
        wst_put_varint(lanes, wst_zigzag(tile->row_step));
    }
    if (mode == WST_MODE_DELTAS)
        for (unsigned i = 1; i < count; i++)
            wst_put_varint(lanes, wst_zigzag(addr[i] - addr[i - 1]));
    if (mode == WST_MODE_LANE_DELTAS) {
        unsigned i = 1;
        for (uint32_t bits = h->mask & (h->mask - 1); bits; bits &= bits - 1, i++)
            wst_put_varint(lanes, wst_zigzag(addr[i] - wst_history_lane(s, (unsigned)__builtin_ctz(bits)) -
                                             shift));
    }
    /* The slot now holds this record. */
    s->shape = mode == WST_MODE_STRIDE  ? WST_SLOT_AFFINE
               : mode == WST_MODE_TILED ? WST_SLOT_TILED
                                        : WST_SLOT_LANES;
    s->base = addr[0];
    s->stride = stride;
    if (mode == WST_MODE_TILED)
        s->tile = *tile;
    if (s->shape == WST_SLOT_LANES) {
        unsigned i = 0;
        for (uint32_t bits = h->mask; bits; bits &= bits - 1, i++)
            s->lanes[__builtin_ctz(bits)] = addr[i];
    }
    wst_history_claim(&f->history, s, h->warp, h->pc, h->mask);
    *previous_base = addr[0];
}

int wst_frame_add_chunk(wst_frame_builder *f, const wst_bytes *rows, uint32_t count,
                        ws_error *err)
{
    /* Worst case per record: 5+5 varints, 2 bytes, 4 mask, 2 sm, 10 time,
     * 10 base, 31 × 10 lane deltas. */
    size_t start[WST_COLUMNS];
    for (int c = 0; c < WST_COLUMNS; c++) {
        start[c] = f->col[c].len;
        if (wst_bytes_reserve(&f->col[c], (size_t)count * (c == WST_COL_LANES ? 320 : 10) + 16))
            return ws_fail(err, "out of memory");
    }
    if (wst_bytes_reserve(&f->heads, CHUNK_HEAD_BYTES) != 0)
        return ws_fail(err, "out of memory");
    wst_history_begin_chunk(&f->history);
    const uint8_t *p = rows->data;
    uint64_t previous_base = 0, previous_time = 0;
    for (uint32_t i = 0; i < count; i++) {
        wst_packed_head h;
        memcpy(&h, p, sizeof h);
        p += sizeof h;
        unsigned lanes = (unsigned)__builtin_popcount(h.mask);
        uint64_t addr[WST_WARP_SIZE];
        memcpy(addr, p, 8u * lanes);
        p += 8u * lanes;

        wst_put_varint(&f->col[WST_COL_WARP], h.warp);
        wst_put_varint(&f->col[WST_COL_PC], h.pc);
        wst_history_slot *s = wst_history_slot_of(&f->history, h.warp, h.pc);
        int hit = wst_history_hit(&f->history, s, h.warp, h.pc);
        uint64_t predicted = hit ? s->base : previous_base; /* the base's prediction */
        uint64_t stride = 0, shift = 0;
        lane_tile tile;
        unsigned mode = WST_MODE_NONE;
        if (lanes) {
            if (lanes_regular(addr, h.mask, (unsigned)__builtin_ctz(h.mask), &stride))
                mode = WST_MODE_STRIDE;
            else if (lanes_tiled(addr, h.mask, &tile))
                mode = WST_MODE_TILED;
            else
                mode = choose_irregular(s, hit, addr, h.mask, predicted, &shift);
        }
        wst_bytes *attr = &f->col[WST_COL_ATTR], *flags = &f->col[WST_COL_FLAGS];
        attr->data[attr->len++] =
            (uint8_t)(h.kind | (h.space << 2) | ((unsigned)__builtin_ctz(h.size) << 3) |
                      (h.gap ? WST_ATTR_GAP : 0) | (h.has_waits ? WST_ATTR_WAITS : 0));
        if (h.gap)
            wst_put_varint(&f->col[WST_COL_GAP], h.gap);
        if (h.has_waits)
            wst_put_varint(&f->col[WST_COL_WAITS], h.waits);
        f->timed |= h.gap != 0 || h.has_waits;
        flags->data[flags->len++] = (uint8_t)(h.cache_op | (h.has_sm ? 0x08 : 0) |
                                              (h.has_time ? 0x10 : 0) | (mode << 5));
        wst_put_u32(f->col[WST_COL_MASK].data + f->col[WST_COL_MASK].len, h.mask);
        f->col[WST_COL_MASK].len += 4;
        if (h.has_sm) {
            wst_bytes *sm = &f->col[WST_COL_SM];
            sm->data[sm->len++] = (uint8_t)h.sm;
            sm->data[sm->len++] = (uint8_t)(h.sm >> 8);
        }
        if (h.has_time) {
            wst_put_varint(&f->col[WST_COL_TIME], wst_zigzag(h.timestamp - previous_time));
            previous_time = h.timestamp;
        }
        if (mode != WST_MODE_NONE)
            encode_addresses(f, s, &h, addr, mode, predicted, stride, &tile, shift,
                             &previous_base);
    }
    uint8_t *head = f->heads.data + f->heads.len;
    wst_put_u32(head, count);
    for (int c = 0; c < WST_COLUMNS; c++) {
        size_t bytes = f->col[c].len - start[c];
        if (bytes > WST_MAX_FRAME_RAW_BYTES)
            return ws_fail(err, "chunk of %u records is too large for a frame", count);
        wst_put_u32(head + 4 + 4 * c, (uint32_t)bytes);
    }
    f->heads.len += CHUNK_HEAD_BYTES;
    f->chunks++;
    return 0;
}

int wst_frame_finish(wst_frame_builder *f, wst_bytes *raw, ws_error *err)
{
    raw->len = 0;
    if (wst_bytes_reserve(raw, wst_frame_raw_bytes(f)) != 0)
        return ws_fail(err, "out of memory");
    wst_put_u32(raw->data, f->chunks | (f->timed ? FRAME_TIMED : 0));
    raw->len = FRAME_HEAD_BYTES;
    size_t head_bytes = chunk_head_bytes(f->timed); /* the first ones of CHUNK_HEAD_BYTES */
    for (uint32_t k = 0; k < f->chunks; k++, raw->len += head_bytes)
        memcpy(raw->data + raw->len, f->heads.data + (size_t)k * CHUNK_HEAD_BYTES, head_bytes);
    for (int c = 0; c < WST_COLUMNS; c++) { /* timing columns are empty unless timed */
        memcpy(raw->data + raw->len, f->col[c].data, f->col[c].len);
        raw->len += f->col[c].len;
        f->col[c].len = 0;
    }
    f->heads.len = 0;
    f->chunks = 0;
    f->timed = 0;
    return 0;
}

/* ---- the reader's side ---- */

void wst_frame_layout_free(wst_frame_layout *f)
{
    free(f->column_begin);
    free(f->column_bytes);
    memset(f, 0, sizeof *f);
}

int wst_frame_parse(wst_frame_layout *f, const uint8_t *raw, size_t raw_len, uint32_t chunks,
                    const uint32_t *records, ws_error *err)
{
    wst_frame_layout_free(f);
    if (raw_len < FRAME_HEAD_BYTES || (wst_get_u32(raw) & ~FRAME_TIMED) != chunks)
        return ws_fail(err, "the frame's chunk count does not match the index");
    int timed = (wst_get_u32(raw) & FRAME_TIMED) != 0;
    size_t head_bytes = chunk_head_bytes(timed);
    int columns = timed ? WST_COLUMNS : WST_PLAIN_COLUMNS;
    if (chunks > (raw_len - FRAME_HEAD_BYTES) / head_bytes)
        return ws_fail(err, "the frame's chunk heads run past it");
    f->column_begin = malloc((size_t)chunks * WST_COLUMNS * sizeof *f->column_begin);
    f->column_bytes = malloc((size_t)chunks * WST_COLUMNS * sizeof *f->column_bytes);
    if (!f->column_begin || !f->column_bytes) {
        wst_frame_layout_free(f);
        return ws_fail(err, "out of memory");
    }
    uint64_t total = FRAME_HEAD_BYTES + (uint64_t)chunks * head_bytes;
    for (uint32_t k = 0; k < chunks; k++) {
        const uint8_t *head = raw + FRAME_HEAD_BYTES + (size_t)k * head_bytes;
        if (wst_get_u32(head) != records[k]) {
            wst_frame_layout_free(f);
            return ws_fail(err, "chunk %u of the frame: record count does not match the index", k);
        }
        for (int c = 0; c < WST_COLUMNS; c++) /* a frame without timing: those columns empty */
            total += f->column_bytes[k * WST_COLUMNS + c] =
                c < columns ? wst_get_u32(head + 4 + 4 * c) : 0;
    }
    if (total != raw_len) { /* 11 × 2^32 per chunk cannot overflow 64 bits */
        wst_frame_layout_free(f);
        return ws_fail(err, "the frame's columns do not fill it");
    }
    uint64_t at = FRAME_HEAD_BYTES + (uint64_t)chunks * head_bytes;
    for (int c = 0; c < WST_COLUMNS; c++)
        for (uint32_t k = 0; k < chunks; k++) {
            f->column_begin[k * WST_COLUMNS + c] = (uint32_t)at;
            at += f->column_bytes[k * WST_COLUMNS + c];
        }
    f->raw = raw;
    f->chunks = chunks;
    f->timed = timed;
    return 0;
}
