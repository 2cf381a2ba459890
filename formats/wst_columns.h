/* formats/wst_columns.h: what the chunk codecs (version 1 and versions 2
 * to 4, docs/trace-format.md) share: the columns, LEB128 varints and
 * zigzag, columns read with every access bounds-checked, and a record's
 * head (warp, PC, attributes, mask, SM, timestamp, and from version 4 its
 * timing), which every version stores alike. */
#ifndef WS_WST_COLUMNS_H
#define WS_WST_COLUMNS_H

#include <stddef.h>
#include <stdint.h>

#include "formats/lane_tile.h"
#include "formats/trace.h"
#include "formats/wst_layout.h"
#include "util/error.h"

#include "formats/wst_codec.h"

/* Every version has the first nine columns; version 4 adds gap and waits
 * (docs/metrics.md §12) in a frame whose records carry timing, and a frame
 * without any lists only the nine, so it costs nothing. */
enum { WST_COL_WARP, WST_COL_PC, WST_COL_ATTR, WST_COL_FLAGS, WST_COL_MASK, WST_COL_SM,
       WST_COL_TIME, WST_COL_BASE, WST_COL_LANES, WST_COL_GAP, WST_COL_WAITS, WST_COLUMNS };
enum { WST_PLAIN_COLUMNS = WST_COL_GAP };

/* attr bits 6 and 7 in version 4 (version 1 keeps its address mode there):
 * the gap column holds the record's gap (not 0); the record has waits,
 * which the waits column holds. */
enum { WST_ATTR_GAP = 0x40, WST_ATTR_WAITS = 0x80 };

/* Address modes (docs/trace-format.md, "Address modes").  Version 1 has the
 * first three, version 2 the first five. */
enum { WST_MODE_NONE, WST_MODE_STRIDE, WST_MODE_DELTAS, WST_MODE_SHIFTED, WST_MODE_LANE_DELTAS,
       WST_MODE_TILED };

/* The last address mode a format version has. */
static inline unsigned wst_last_mode(unsigned version)
{
    return version == 1 ? WST_MODE_DELTAS : version == 2 ? WST_MODE_LANE_DELTAS : WST_MODE_TILED;
}

static inline uint64_t wst_zigzag(uint64_t delta)
{
    return (delta << 1) ^ (uint64_t)((int64_t)delta >> 63);
}

static inline uint64_t wst_unzigzag(uint64_t v) { return (v >> 1) ^ (uint64_t)-(int64_t)(v & 1); }

/* Bytes the varint of v takes. */
static inline unsigned wst_varint_bytes(uint64_t v)
{
    unsigned n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Appends v; the caller has reserved 10 bytes. */
static inline void wst_put_varint(wst_bytes *b, uint64_t v)
{
    while (v >= 0x80) {
        b->data[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (uint8_t)v;
}

typedef struct wst_column {
    const uint8_t *p, *end;
} wst_column;

/* Every read is bounds-checked: a corrupt chunk ends in an error, never in
 * a read past the buffer.  With 10 bytes left a varint cannot run past the
 * end, so that common case skips the per-byte check. */
static inline __attribute__((always_inline)) int wst_get_varint(wst_column *c, uint64_t *out)
{
    const uint8_t *p = c->p;
    if (p < c->end && !(*p & 0x80)) { /* most values fit one byte */
        *out = *p;
        c->p = p + 1;
        return 0;
    }
    uint64_t v = 0;
    if (c->end - p >= 10) {
        for (unsigned shift = 0; shift < 70; shift += 7) {
            uint8_t byte = *p++;
            v |= (uint64_t)(byte & 0x7f) << (shift & 63);
            if (!(byte & 0x80)) {
                *out = v;
                c->p = p;
                return 0;
            }
        }
        return -1; /* more than 10 bytes: not a varint we wrote */
    }
    for (unsigned shift = 0; shift < 64; shift += 7) {
        if (p == c->end)
            return -1;
        uint8_t byte = *p++;
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *out = v;
            c->p = p;
            return 0;
        }
    }
    return -1;
}

static inline int wst_get_bytes(wst_column *c, size_t n, const uint8_t **out)
{
    if ((size_t)(c->end - c->p) < n)
        return -1;
    *out = c->p;
    c->p += n;
    return 0;
}

/* A version 4 record's timing (attr bits 6 and 7): its gap, a varint of
 * 1 .. 2^32 - 1, and its waits, a varint below 2^32.  Kept out of line:
 * most records have none. */
static __attribute__((noinline, unused)) int wst_read_timing(wst_column *col, const wst_decoder *d,
                                                     uint32_t at, unsigned attr, wst_head *h,
                                                     ws_error *err)
{
    if (d->version < 4)
        return ws_fail(err, "record %u: timing bits in a file of version %u", at, d->version);
    uint64_t value;
    if (attr & WST_ATTR_GAP) {
        if (wst_get_varint(&col[WST_COL_GAP], &value))
            return ws_fail(err, "record %u: gap column ends early", at);
        if (value == 0 || value > UINT32_MAX)
            return ws_fail(err, "record %u: gap %llu outside 1..2^32-1", at,
                           (unsigned long long)value);
        h->gap = (uint32_t)value;
    }
    if (attr & WST_ATTR_WAITS) {
        if (wst_get_varint(&col[WST_COL_WAITS], &value))
            return ws_fail(err, "record %u: waits column ends early", at);
        if (value > UINT32_MAX)
            return ws_fail(err, "record %u: waits %llu past 32 bits", at,
                           (unsigned long long)value);
        h->has_waits = 1;
        h->waits = (uint32_t)value;
    }
    return 0;
}

/* One record's head, the columns before its addresses.  Version 1 keeps
 * the address mode in attr bits 6-7; later versions in flags bits 5-7,
 * and version 4 its timing in attr bits 6-7 (versions 2 and 3 leave them
 * zero, and their frames have no timing columns, so a bit set there is
 * refused).  *previous_time carries the timestamp deltas. */
static inline __attribute__((always_inline)) int
wst_read_head(wst_column *col, const wst_decoder *d, uint32_t at, unsigned version, wst_head *h,
              unsigned *mode, uint64_t *previous_time, ws_error *err)
{
    uint64_t warp, pc;
    const uint8_t *attr, *flags, *mask;
    if (wst_get_varint(&col[WST_COL_WARP], &warp) || wst_get_varint(&col[WST_COL_PC], &pc) ||
        wst_get_bytes(&col[WST_COL_ATTR], 1, &attr) ||
        wst_get_bytes(&col[WST_COL_FLAGS], 1, &flags) || wst_get_bytes(&col[WST_COL_MASK], 4, &mask))
        return ws_fail(err, "record %u: columns end early", at);
    if (warp >= d->warps_per_cta)
        return ws_fail(err, "record %u: warp %llu outside the CTA's %u warps", at,
                       (unsigned long long)warp, d->warps_per_cta);
    if (pc >= d->pc_count)
        return ws_fail(err, "record %u: PC index %llu outside the kernel's %u PCs", at,
                       (unsigned long long)pc, d->pc_count);
    unsigned kind = attr[0] & 3, space = (attr[0] >> 2) & 1, size_code = (attr[0] >> 3) & 7,
             op = flags[0] & 7;
    unsigned m = version == 1 ? attr[0] >> 6 : (unsigned)flags[0] >> 5;
    unsigned spare = version == 1 ? flags[0] & 0xe0 : 0;
    if (kind > WST_ATOMIC || size_code > 4 || m > wst_last_mode(version) || op >= WST_OP_COUNT ||
        spare)
        return ws_fail(err, "record %u: invalid kind, size or flags", at);
    h->warp = (uint32_t)warp;
    h->pc = (uint32_t)pc;
    h->kind = kind;
    h->space = space;
    h->cache_op = op;
    h->size = 1u << size_code;
    h->mask = wst_get_u32(mask);
    h->has_sm = (flags[0] & 0x08) != 0;
    h->has_time = (flags[0] & 0x10) != 0;
    h->sm = 0;
    h->timestamp = 0;
    if (h->has_sm) {
        const uint8_t *sm;
        if (wst_get_bytes(&col[WST_COL_SM], 2, &sm))
            return ws_fail(err, "record %u: SM column ends early", at);
        h->sm = (uint32_t)(sm[0] | (sm[1] << 8));
    }
    if (h->has_time) {
        uint64_t delta;
        if (wst_get_varint(&col[WST_COL_TIME], &delta))
            return ws_fail(err, "record %u: timestamp column ends early", at);
        h->timestamp = *previous_time += wst_unzigzag(delta);
    }
    h->has_waits = h->gap = h->waits = 0;
    if (version != 1 && (attr[0] & (WST_ATTR_GAP | WST_ATTR_WAITS)) &&
        wst_read_timing(col, d, at, attr[0], h, err) != 0)
        return -1;
    if ((m == WST_MODE_NONE) != (h->mask == 0))
        return ws_fail(err, "record %u: address mode does not match the mask", at);
    *mode = m;
    return 0;
}

/* Mode STRIDE: active lane l at base + stride × (l − lowest active lane). */
static inline __attribute__((always_inline)) void wst_fill_stride(wst_record *r, uint64_t base,
                                                                  uint64_t stride)
{
    if (r->mask == 0xffffffffu) {
        /* The common fully active warp: a loop the compiler vectorizes. */
        for (unsigned lane = 0; lane < WST_WARP_SIZE; lane++)
            r->addr[lane] = base + stride * lane;
        return;
    }
    unsigned first = (unsigned)__builtin_ctz(r->mask);
    for (uint32_t bits = r->mask; bits; bits &= bits - 1) {
        unsigned lane = (unsigned)__builtin_ctz(bits);
        r->addr[lane] = base + stride * (lane - first);
    }
}

/* Mode TILED: every active lane on tile t, the lowest at `first`. */
static inline __attribute__((always_inline)) void wst_fill_tile(wst_record *r, const lane_tile *t,
                                                                uint64_t first)
{
    unsigned f = (unsigned)__builtin_ctz(r->mask);
    if (r->mask == 0xffffffffu) {
        for (unsigned lane = 0; lane < WST_WARP_SIZE; lane++)
            r->addr[lane] = lane_tile_address(t, first, 0, lane);
        return;
    }
    for (uint32_t bits = r->mask; bits; bits &= bits - 1) {
        unsigned lane = (unsigned)__builtin_ctz(bits);
        r->addr[lane] = lane_tile_address(t, first, f, lane);
    }
}

/* Mode DELTAS: the lowest active lane at base, each next one a delta from
 * the lanes column further.  -1 when the column ends early. */
static inline __attribute__((always_inline)) int wst_fill_deltas(wst_column *lanes, wst_record *r,
                                                                 uint64_t base)
{
    uint64_t a = base, step;
    r->addr[__builtin_ctz(r->mask)] = a;
    for (uint32_t bits = r->mask & (r->mask - 1); bits; bits &= bits - 1) {
        if (wst_get_varint(lanes, &step))
            return -1;
        a += wst_unzigzag(step);
        r->addr[__builtin_ctz(bits)] = a;
    }
    return 0;
}

/* After the last record every column must be consumed exactly. */
static inline int wst_columns_consumed(const wst_column *col, ws_error *err)
{
    for (int c = 0; c < WST_COLUMNS; c++)
        if (col[c].p != col[c].end)
            return ws_fail(err, "column %d has bytes past its last record", c);
    return 0;
}

/* After n records of a batch: keeps the running values for the next
 * batch, and at the chunk's end checks every column was consumed.  n, or
 * -1. */
static inline int64_t wst_decode_finish(wst_decoder *d, uint32_t n, uint64_t previous_base,
                                        uint64_t previous_time, ws_error *err)
{
    d->previous_base = previous_base;
    d->previous_time = previous_time;
    d->remaining -= n;
    if (d->remaining == 0 && wst_columns_consumed((wst_column *)d->columns, err) != 0)
        return -1;
    return n;
}

/* One record's addresses, after its head, in mode `mode` (not NONE):
 * NULL, or what is wrong.  *previous_base is the last record's lowest
 * active lane address in the chunk, kept up to date. */
typedef const char *(*wst_address_fn)(wst_decoder *d, wst_column *col, wst_record *r,
                                      unsigned mode, uint64_t *previous_base);

/* Both versions' record loop: up to max records of d into out.  Inlined
 * with each version's address decoder, so the call is direct. */
static inline __attribute__((always_inline)) int64_t
wst_decode_records(wst_decoder *d, wst_record *out, uint32_t max, unsigned version,
                   wst_address_fn addresses, ws_error *err)
{
    wst_column *col = (wst_column *)d->columns;
    uint32_t n = d->remaining < max ? d->remaining : max;
    uint64_t previous_base = d->previous_base, previous_time = d->previous_time;
    for (uint32_t i = 0; i < n; i++, d->decoded++) {
        wst_record *r = &out[i];
        wst_head head = {0};
        unsigned mode = WST_MODE_NONE;
        if (wst_read_head(col, d, d->decoded, version, &head, &mode, &previous_time, err) != 0)
            return -1;
        wst_head_apply(&head, d->cta, r);
        if (mode == WST_MODE_NONE)
            continue;
        const char *wrong = addresses(d, col, r, mode, &previous_base);
        if (wrong)
            return ws_fail(err, "record %u: %s", d->decoded, wrong);
    }
    return wst_decode_finish(d, n, previous_base, previous_time, err);
}

#endif
