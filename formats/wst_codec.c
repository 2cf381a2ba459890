/* formats/wst_codec.c: see wst_codec.h and docs/trace-format.md. */
#include "formats/wst_codec.h"

#include <stdlib.h>
#include <string.h>
#include <zstd.h>



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

/* ---- packed rows ---- */


size_t wst_packed_size(const wst_record *rec)
{
    return sizeof(wst_packed_head) + 8u * (unsigned)__builtin_popcount(rec->mask);
}

int wst_pack(wst_bytes *rows, const wst_record *rec)
{
    size_t size = wst_packed_size(rec);
    if (wst_bytes_reserve(rows, size) != 0)
        return -1;
    wst_packed_head head;
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
    head.has_waits = rec->has_waits;
    head.gap = rec->gap;
    head.waits = rec->has_waits ? rec->waits : 0;
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

int64_t wst_decoder_next(wst_decoder *d, wst_record *out, uint32_t max, ws_error *err)
{
    return d->history ? wst_decoder_next_v2(d, out, max, err) : wst_decoder_next_v1(d, out, max, err);
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

int wst_compress_begin(wst_compressor *c, uint64_t total, wst_bytes *out, ws_error *err)
{
    out->len = 0;
    size_t rc = ZSTD_CCtx_reset(c->cctx, ZSTD_reset_session_only);
    if (!ZSTD_isError(rc))
        rc = ZSTD_CCtx_setPledgedSrcSize(c->cctx, total);
    return ZSTD_isError(rc) ? ws_fail(err, "zstd: %s", ZSTD_getErrorName(rc)) : 0;
}

int wst_compress_piece(wst_compressor *c, const void *data, size_t len, int last, wst_bytes *out,
                       ws_error *err)
{
    ZSTD_inBuffer in = {data, len, 0};
    ZSTD_EndDirective mode = last ? ZSTD_e_end : ZSTD_e_continue;
    for (;;) {
        /* Room for what this piece may add: zstd then never stops short. */
        if (wst_bytes_reserve(out, ZSTD_compressBound(len - in.pos) + ZSTD_CStreamOutSize()) != 0)
            return ws_fail(err, "out of memory");
        ZSTD_outBuffer o = {out->data, out->cap, out->len};
        size_t left = ZSTD_compressStream2(c->cctx, &o, &in, mode);
        if (ZSTD_isError(left))
            return ws_fail(err, "zstd: %s", ZSTD_getErrorName(left));
        out->len = o.pos;
        if (in.pos == in.size && (!last || left == 0))
            return 0;
    }
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
