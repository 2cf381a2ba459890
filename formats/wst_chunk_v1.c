/* formats/wst_chunk_v1.c: decoding a version 1 chunk (docs/trace-format.md,
 * "Version 1").  Version 1 files are read, never written: each chunk is its
 * own zstd frame, with a head of 9 column lengths, and its addresses are
 * coded against the previous record's lowest lane only. */
#include <string.h>

#include "formats/wst_codec.h"
#include "formats/wst_columns.h"
#include "formats/wst_layout.h"

#define CHUNK_HEAD_BYTES (4 + 4 * WST_PLAIN_COLUMNS)

_Static_assert(sizeof(((wst_decoder *)0)->columns) == sizeof(wst_column) * WST_COLUMNS,
               "wst_decoder's column storage must hold every column");

int wst_decoder_start_v1(wst_decoder *d, const uint8_t *raw, size_t raw_len, uint32_t count,
                         uint32_t cta, uint32_t pc_count, uint32_t warps_per_cta, ws_error *err)
{
    memset(d, 0, sizeof *d);
    d->version = 1;
    if (raw_len < CHUNK_HEAD_BYTES || wst_get_u32(raw) != count)
        return ws_fail(err, "record count does not match the index");
    wst_column *col = (wst_column *)d->columns;
    size_t offset = CHUNK_HEAD_BYTES;
    for (int c = 0; c < WST_PLAIN_COLUMNS; c++) { /* the timing columns stay empty */
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

/* Version 1 codes a record's lowest lane against the previous record's. */
static const char *v1_addresses(wst_decoder *d, wst_column *col, wst_record *r, unsigned mode,
                                uint64_t *previous_base)
{
    (void)d;
    uint64_t base_delta, step = 0;
    if (wst_get_varint(&col[WST_COL_BASE], &base_delta))
        return "address column ends early";
    uint64_t base = *previous_base += wst_unzigzag(base_delta);
    if (mode == WST_MODE_STRIDE) {
        if ((r->mask & (r->mask - 1)) && wst_get_varint(&col[WST_COL_LANES], &step))
            return "stride missing";
        wst_fill_stride(r, base, wst_unzigzag(step));
    } else if (wst_fill_deltas(&col[WST_COL_LANES], r, base) != 0) {
        return "lane deltas end early";
    }
    return NULL;
}

int64_t wst_decoder_next_v1(wst_decoder *d, wst_record *out, uint32_t max, ws_error *err)
{
    return wst_decode_records(d, out, max, 1, v1_addresses, err);
}
