/* formats/wst_codec.c: see wst_codec.h and docs/trace-format.md. */
#include "formats/wst_codec.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "formats/wst_layout.h"

enum { COL_WARP, COL_PC, COL_ATTR, COL_FLAGS, COL_MASK, COL_SM, COL_TIME, COL_BASE, COL_LANES,
       COLUMNS };
enum { MODE_NONE = 0, MODE_STRIDE = 1, MODE_DELTAS = 2 };
#define CHUNK_HEAD_BYTES (4 + 4 * COLUMNS)

/* ---- byte buffers ---- */

int wst_bytes_reserve(wst_bytes *b, size_t extra)
{
    if (b->len + extra <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + extra)
        cap *= 2;
    uint8_t *grown = realloc(b->data, cap);
    if (!grown)
        return -1;
    b->data = grown;
    b->cap = cap;
    return 0;
}

void wst_bytes_free(wst_bytes *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

static void put_varint(wst_bytes *b, uint64_t v)
{
    while (v >= 0x80) {
        b->data[b->len++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b->data[b->len++] = (uint8_t)v;
}

static uint64_t zigzag(uint64_t delta) { return (delta << 1) ^ (uint64_t)((int64_t)delta >> 63); }
static uint64_t unzigzag(uint64_t v) { return (v >> 1) ^ (uint64_t)-(int64_t)(v & 1); }

/* ---- packed rows ---- */

typedef struct packed_head {
    uint32_t warp, pc, mask;
    uint8_t kind, space, cache_op, size, has_sm, has_time;
    uint16_t sm;
    uint64_t timestamp;
} packed_head;

size_t wst_packed_size(const wst_record *rec)
{
    return sizeof(packed_head) + 8u * (unsigned)__builtin_popcount(rec->mask);
}

int wst_pack(wst_bytes *rows, const wst_record *rec)
{
    size_t size = wst_packed_size(rec);
    if (wst_bytes_reserve(rows, size) != 0)
        return -1;
    packed_head head;
    memset(&head, 0, sizeof head); /* padding too: the rows must be deterministic */
    head.warp = rec->warp;
    head.pc = rec->pc;
    head.mask = rec->mask;
    head.kind = rec->kind;
    head.space = rec->space;
    head.cache_op = rec->cache_op;
    head.size = rec->size;
    head.has_sm = rec->has_sm;
    head.has_time = rec->has_time;
    head.sm = rec->sm;
    head.timestamp = rec->timestamp;
    uint8_t *p = rows->data + rows->len;
    memcpy(p, &head, sizeof head);
    p += sizeof head;
    for (uint32_t bits = rec->mask; bits; bits &= bits - 1) {
        memcpy(p, &rec->addr[__builtin_ctz(bits)], 8);
        p += 8;
    }
    rows->len += size;
    return 0;
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

int wst_chunk_encode(const wst_bytes *rows, uint32_t count, wst_bytes *raw, ws_error *err)
{
    wst_bytes col[COLUMNS];
    memset(col, 0, sizeof col);
    /* Worst case per record: 5+5 varints, 2 bytes, 4 mask, 2 sm, 10 time,
     * 10 base, 31 × 10 lane deltas. */
    int rc = 0;
    for (int c = 0; c < COLUMNS && rc == 0; c++)
        if (wst_bytes_reserve(&col[c], (size_t)count * (c == COL_LANES ? 320 : 10) + 16) != 0)
            rc = ws_fail(err, "out of memory");
    const uint8_t *p = rows->data;
    uint64_t previous_base = 0, previous_time = 0;
    for (uint32_t i = 0; rc == 0 && i < count; i++) {
        packed_head h;
        memcpy(&h, p, sizeof h);
        p += sizeof h;
        unsigned lanes = (unsigned)__builtin_popcount(h.mask);
        uint64_t addr[WST_WARP_SIZE];
        memcpy(addr, p, 8u * lanes);
        p += 8u * lanes;

        put_varint(&col[COL_WARP], h.warp);
        put_varint(&col[COL_PC], h.pc);
        unsigned size_code = (unsigned)__builtin_ctz(h.size);
        uint64_t stride = 0;
        unsigned mode = MODE_NONE;
        if (lanes)
            mode = lanes_regular(addr, h.mask, (unsigned)__builtin_ctz(h.mask), &stride)
                       ? MODE_STRIDE
                       : MODE_DELTAS;
        col[COL_ATTR].data[col[COL_ATTR].len++] =
            (uint8_t)(h.kind | (h.space << 2) | (size_code << 3) | (mode << 6));
        col[COL_FLAGS].data[col[COL_FLAGS].len++] =
            (uint8_t)(h.cache_op | (h.has_sm ? 0x08 : 0) | (h.has_time ? 0x10 : 0));
        wst_put_u32(col[COL_MASK].data + col[COL_MASK].len, h.mask);
        col[COL_MASK].len += 4;
        if (h.has_sm) {
            col[COL_SM].data[col[COL_SM].len++] = (uint8_t)h.sm;
            col[COL_SM].data[col[COL_SM].len++] = (uint8_t)(h.sm >> 8);
        }
        if (h.has_time) {
            put_varint(&col[COL_TIME], zigzag(h.timestamp - previous_time));
            previous_time = h.timestamp;
        }
        if (mode != MODE_NONE) {
            put_varint(&col[COL_BASE], zigzag(addr[0] - previous_base));
            previous_base = addr[0];
            if (mode == MODE_STRIDE && lanes > 1)
                put_varint(&col[COL_LANES], zigzag(stride));
            if (mode == MODE_DELTAS)
                for (unsigned l = 1; l < lanes; l++)
                    put_varint(&col[COL_LANES], zigzag(addr[l] - addr[l - 1]));
        }
    }
    size_t total = CHUNK_HEAD_BYTES;
    for (int c = 0; c < COLUMNS; c++)
        total += col[c].len;
    raw->len = 0;
    if (rc == 0 && wst_bytes_reserve(raw, total) != 0)
        rc = ws_fail(err, "out of memory");
    if (rc == 0) {
        wst_put_u32(raw->data, count);
        for (int c = 0; c < COLUMNS; c++)
            wst_put_u32(raw->data + 4 + 4 * c, (uint32_t)col[c].len);
        raw->len = CHUNK_HEAD_BYTES;
        for (int c = 0; c < COLUMNS; c++) {
            memcpy(raw->data + raw->len, col[c].data, col[c].len);
            raw->len += col[c].len;
        }
    }
    for (int c = 0; c < COLUMNS; c++)
        wst_bytes_free(&col[c]);
    return rc;
}

/* ---- decoding ---- */

typedef struct column {
    const uint8_t *p, *end;
} column;
_Static_assert(sizeof(((wst_decoder *)0)->columns) == sizeof(column) * COLUMNS,
               "wst_decoder's column storage must hold every column");

/* Every read is bounds-checked: a corrupt chunk ends in an error, never in
 * a read past the buffer.  With 10 bytes left a varint cannot run past the
 * end, so that common case skips the per-byte check. */
static inline __attribute__((always_inline)) int get_varint(column *c, uint64_t *out)
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

static inline int get_bytes(column *c, size_t n, const uint8_t **out)
{
    if ((size_t)(c->end - c->p) < n)
        return -1;
    *out = c->p;
    c->p += n;
    return 0;
}

int wst_decoder_start(wst_decoder *d, const uint8_t *raw, size_t raw_len, uint32_t count,
                      uint32_t cta, uint32_t pc_count, uint32_t warps_per_cta, ws_error *err)
{
    memset(d, 0, sizeof *d);
    if (raw_len < CHUNK_HEAD_BYTES || wst_get_u32(raw) != count)
        return ws_fail(err, "record count does not match the index");
    column *col = (column *)d->columns;
    size_t offset = CHUNK_HEAD_BYTES;
    for (int c = 0; c < COLUMNS; c++) {
        size_t len = wst_get_u32(raw + 4 + 4 * c);
        if (len > raw_len - offset)
            return ws_fail(err, "column %d runs past the chunk", c);
        col[c].p = raw + offset;
        col[c].end = raw + offset + len;
        offset += len;
    }
    if (offset != raw_len)
        return ws_fail(err, "columns do not fill the chunk");
    d->remaining = count;
    d->cta = cta;
    d->pc_count = pc_count;
    d->warps_per_cta = warps_per_cta;
    return 0;
}

int64_t wst_decoder_next(wst_decoder *d, wst_record *out, uint32_t max, ws_error *err)
{
    column *col = (column *)d->columns;
    uint32_t n = d->remaining < max ? d->remaining : max;
    uint64_t previous_base = d->previous_base, previous_time = d->previous_time;
    for (uint32_t i = 0; i < n; i++, d->decoded++) {
        wst_record *r = &out[i];
        uint32_t at = d->decoded;
        uint64_t warp, pc;
        const uint8_t *attr, *flags, *mask;
        if (get_varint(&col[COL_WARP], &warp) || get_varint(&col[COL_PC], &pc) ||
            get_bytes(&col[COL_ATTR], 1, &attr) || get_bytes(&col[COL_FLAGS], 1, &flags) ||
            get_bytes(&col[COL_MASK], 4, &mask))
            return ws_fail(err, "record %u: columns end early", at);
        if (warp >= d->warps_per_cta)
            return ws_fail(err, "record %u: warp %llu outside the CTA's %u warps", at,
                           (unsigned long long)warp, d->warps_per_cta);
        if (pc >= d->pc_count)
            return ws_fail(err, "record %u: PC index %llu outside the kernel's %u PCs", at,
                           (unsigned long long)pc, d->pc_count);
        unsigned kind = attr[0] & 3, space = (attr[0] >> 2) & 1, size_code = (attr[0] >> 3) & 7,
                 mode = attr[0] >> 6, op = flags[0] & 7;
        if (kind > WST_ATOMIC || size_code > 4 || mode > MODE_DELTAS || op >= WST_OP_COUNT ||
            (flags[0] & 0xe0))
            return ws_fail(err, "record %u: invalid kind, size or flags", at);
        r->cta = d->cta;
        r->warp = (uint32_t)warp;
        r->pc = (uint32_t)pc;
        r->kind = (uint8_t)kind;
        r->space = (uint8_t)space;
        r->cache_op = (uint8_t)op;
        r->size = (uint8_t)(1u << size_code);
        r->mask = wst_get_u32(mask);
        r->has_sm = (flags[0] & 0x08) != 0;
        r->has_time = (flags[0] & 0x10) != 0;
        r->sm = 0;
        r->timestamp = 0;
        if (r->has_sm) {
            const uint8_t *sm;
            if (get_bytes(&col[COL_SM], 2, &sm))
                return ws_fail(err, "record %u: SM column ends early", at);
            r->sm = (uint16_t)(sm[0] | (sm[1] << 8));
        }
        if (r->has_time) {
            uint64_t delta;
            if (get_varint(&col[COL_TIME], &delta))
                return ws_fail(err, "record %u: timestamp column ends early", at);
            r->timestamp = previous_time += unzigzag(delta);
        }
        if ((mode == MODE_NONE) != (r->mask == 0))
            return ws_fail(err, "record %u: address mode does not match the mask", at);
        if (mode == MODE_NONE)
            continue;
        uint64_t base_delta, step = 0;
        if (get_varint(&col[COL_BASE], &base_delta))
            return ws_fail(err, "record %u: address column ends early", at);
        uint64_t base = previous_base += unzigzag(base_delta);
        unsigned first = (unsigned)__builtin_ctz(r->mask);
        int several = (r->mask & (r->mask - 1)) != 0;
        if (mode == MODE_STRIDE) {
            if (several && get_varint(&col[COL_LANES], &step))
                return ws_fail(err, "record %u: stride missing", at);
            uint64_t stride = unzigzag(step);
            if (r->mask == 0xffffffffu) {
                /* The common fully active warp: a loop the compiler vectorizes. */
                for (unsigned lane = 0; lane < WST_WARP_SIZE; lane++)
                    r->addr[lane] = base + stride * lane;
            } else {
                for (uint32_t bits = r->mask; bits; bits &= bits - 1) {
                    unsigned lane = (unsigned)__builtin_ctz(bits);
                    r->addr[lane] = base + stride * (lane - first);
                }
            }
        } else {
            uint64_t a = base;
            r->addr[first] = a;
            for (uint32_t bits = r->mask & (r->mask - 1); bits; bits &= bits - 1) {
                if (get_varint(&col[COL_LANES], &step))
                    return ws_fail(err, "record %u: lane deltas end early", at);
                a += unzigzag(step);
                r->addr[__builtin_ctz(bits)] = a;
            }
        }
    }
    d->previous_base = previous_base;
    d->previous_time = previous_time;
    d->remaining -= n;
    if (d->remaining == 0)
        for (int c = 0; c < COLUMNS; c++)
            if (col[c].p != col[c].end)
                return ws_fail(err, "column %d has bytes past its last record", c);
    return n;
}

int wst_chunk_decode(const uint8_t *raw, size_t raw_len, uint32_t count, uint32_t cta,
                     uint32_t pc_count, uint32_t warps_per_cta, wst_record *out,
                     ws_error *err)
{
    wst_decoder d;
    if (wst_decoder_start(&d, raw, raw_len, count, cta, pc_count, warps_per_cta, err) != 0)
        return -1;
    return wst_decoder_next(&d, out, count, err) < 0 ? -1 : 0;
}

/* ---- zstd ---- */

struct wst_compressor {
    ZSTD_CCtx *cctx;
};

wst_compressor *wst_compressor_new(int level)
{
    wst_compressor *c = calloc(1, sizeof *c);
    if (!c || !(c->cctx = ZSTD_createCCtx())) {
        free(c);
        return NULL;
    }
    ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_compressionLevel, level ? level : 3);
    ZSTD_CCtx_setParameter(c->cctx, ZSTD_c_checksumFlag, 1);
    return c;
}

void wst_compressor_free(wst_compressor *c)
{
    if (!c)
        return;
    ZSTD_freeCCtx(c->cctx);
    free(c);
}

int wst_compress(wst_compressor *c, const wst_bytes *raw, wst_bytes *out, ws_error *err)
{
    out->len = 0;
    if (wst_bytes_reserve(out, ZSTD_compressBound(raw->len)) != 0)
        return ws_fail(err, "out of memory");
    size_t n = ZSTD_compress2(c->cctx, out->data, out->cap, raw->data, raw->len);
    if (ZSTD_isError(n))
        return ws_fail(err, "zstd: %s", ZSTD_getErrorName(n));
    out->len = n;
    return 0;
}

struct wst_decompressor {
    ZSTD_DCtx *dctx;
};

wst_decompressor *wst_decompressor_new(void)
{
    wst_decompressor *d = calloc(1, sizeof *d);
    if (!d || !(d->dctx = ZSTD_createDCtx())) {
        free(d);
        return NULL;
    }
    return d;
}

void wst_decompressor_free(wst_decompressor *d)
{
    if (!d)
        return;
    ZSTD_freeDCtx(d->dctx);
    free(d);
}

int wst_decompress(wst_decompressor *d, const uint8_t *src, size_t src_len, uint8_t *out,
                   size_t raw_len, ws_error *err)
{
    unsigned long long declared = ZSTD_getFrameContentSize(src, src_len);
    if (declared != raw_len)
        return ws_fail(err, "compressed size header does not match the index");
    size_t n = ZSTD_decompressDCtx(d->dctx, out, raw_len, src, src_len);
    if (ZSTD_isError(n))
        return ws_fail(err, "zstd: %s", ZSTD_getErrorName(n));
    if (n != raw_len)
        return ws_fail(err, "decompressed %zu bytes, expected %zu", n, raw_len);
    return 0;
}
