/* formats/wst_chunk_table.c: see wst_chunk_table.h. */
#include "formats/wst_chunk_table.h"

#include "formats/wst_columns.h"

enum { OTHER_KERNEL = 1, OTHER_CTA = 2, OTHER_RECORDS = 4 };

int wst_chunk_table_put(wst_bytes *out, wst_chunk_cursor *previous, uint32_t kernel, uint32_t cta,
                        uint32_t records)
{
    if (wst_bytes_reserve(out, 1 + 3 * 10) != 0)
        return -1;
    int64_t skip = (int64_t)cta - (previous->cta + 1);
    uint8_t flags = (uint8_t)((kernel != previous->kernel ? OTHER_KERNEL : 0) |
                              (skip != 0 ? OTHER_CTA : 0) |
                              (records != previous->records ? OTHER_RECORDS : 0));
    out->data[out->len++] = flags;
    if (flags & OTHER_KERNEL)
        wst_put_varint(out, kernel);
    if (flags & OTHER_CTA)
        wst_put_varint(out, wst_zigzag((uint64_t)skip));
    if (flags & OTHER_RECORDS)
        wst_put_varint(out, records);
    *previous = (wst_chunk_cursor){kernel, records, cta};
    return 0;
}

int wst_chunk_table_read(const uint8_t *p, size_t len, size_t count, wst_chunk_info *chunks,
                         ws_error *err)
{
    wst_column in = {p, p + len};
    wst_chunk_cursor previous = WST_CHUNK_CURSOR_START;
    for (size_t i = 0; i < count; i++) {
        const uint8_t *flags;
        uint64_t kernel = previous.kernel, skip = 0, records = previous.records;
        if (wst_get_bytes(&in, 1, &flags) != 0 || (flags[0] & ~7u) ||
            ((flags[0] & OTHER_KERNEL) && wst_get_varint(&in, &kernel) != 0) ||
            ((flags[0] & OTHER_CTA) && wst_get_varint(&in, &skip) != 0) ||
            ((flags[0] & OTHER_RECORDS) && wst_get_varint(&in, &records) != 0))
            return ws_fail(err, "corrupt index: chunk %zu's entry is malformed", i);
        int64_t cta = previous.cta + 1 + (int64_t)wst_unzigzag(skip);
        if (kernel > UINT32_MAX || cta < 0 || cta > UINT32_MAX || records > UINT32_MAX)
            return ws_fail(err, "corrupt index: chunk %zu's entry is out of range", i);
        previous = (wst_chunk_cursor){(uint32_t)kernel, (uint32_t)records, cta};
        chunks[i].kernel = previous.kernel;
        chunks[i].cta = (uint32_t)cta;
        chunks[i].records = previous.records;
    }
    if (in.p != in.end)
        return ws_fail(err, "corrupt index: bytes past the last chunk's entry");
    return 0;
}
